#if canImport(Glibc)
import Glibc
#endif
import Posix

/// Where commands write: folders made or refused up front, one distinct name per input, and the
/// format an output file's extension asks for.
enum OutputPaths {
    /// An image format a command can write.
    enum Format: String, Sendable { case jpeg, png }

    /// One output per input in `folder`, named after the input's base name with `.ext`. Inputs that
    /// share a base name (`a.jpg`, `a.png`, `x/a.jpg`) get `a.ext`, `a-2.ext`, `a-3.ext`, so no
    /// output overwrites another.
    static func unique(_ files: [String], folder: String, ext: String) -> [String] {
        var used = Set<String>()
        return files.map { file in
            let base = Path.deletingExtension(Path.lastComponent(file))
            var name = base + "." + ext
            var n = 1
            while used.contains(name) {
                n += 1
                name = "\(base)-\(n).\(ext)"
            }
            used.insert(name)
            return Path.appending(folder, name)
        }
    }

    /// Makes the output folder `path` (with parents) unless it exists. A file in its place, or a
    /// folder that cannot be made, is a one-line I/O error naming the option.
    static func makeFolder(_ path: String, option: String) throws(CommandFailure) {
        if access(path, F_OK) == 0 {
            if Directories.isDirectory(path) { return }
            throw CommandFailure("\(option) \(path): is a file, not a folder", status: .io)
        }
        if let e = Directories.make(path, mode: 0o755) {
            throw CommandFailure("\(option) \(path): cannot create the folder: \(String(cString: strerror(e)))", status: .io)
        }
    }

    /// The format `path`'s extension names (.jpg/.jpeg, .png), when it is one of `allowed`; any
    /// other extension is refused (64) rather than written as another format under that name.
    static func format(of path: String, allowed: [Format], option: String) throws(CommandFailure) -> Format {
        let ext = Path.pathExtension(path).lowercased()
        let format: Format? = ext == "jpg" || ext == "jpeg" ? .jpeg : ext == "png" ? .png : nil
        guard let format, allowed.contains(format) else {
            let names = allowed.map { $0 == .jpeg ? ".jpg/.jpeg" : ".png" }.joined(separator: " or ")
            throw .usage("\(option) \(path): the name must end in \(names) (the file is written in the format its extension names)")
        }
        return format
    }
}
