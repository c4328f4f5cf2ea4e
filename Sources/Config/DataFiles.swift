#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finding and reading Booth's data files (boards, profiles, models) in one place.
///
/// A name is looked up in `$ENV` (when set), `./SUBDIR`, then the installed data directories
/// (`dataDirectories`: beside the running binary, `/usr/local/share/booth`, `/usr/share/booth`);
/// a value containing `/` or ending in the extension is a path.
public enum DataFiles {
    public static func searchPath(subdirectory: String, environment variable: String) -> [String] {
        var dirs: [String] = []
        if let env = getenv(variable), env.pointee != 0 { dirs.append(String(cString: env)) }
        return dirs + [subdirectory] + dataDirectories.map { "\($0)/\(subdirectory)" }
    }

    /// The installed data directories, in search order: `PREFIX/share/booth` of the running
    /// binary (`PREFIX/bin/booth`, so an install under any prefix or DESTDIR finds its own data),
    /// then `/usr/local/share/booth` and `/usr/share/booth` (each once).
    public static var dataDirectories: [String] {
        var dirs: [String] = []
        if let exe = executablePath, let bin = exe.lastIndex(of: "/") {
            let binDir = exe[..<bin]
            if let prefixEnd = binDir.lastIndex(of: "/") { dirs.append(binDir[..<prefixEnd] + "/share/booth") }
        }
        for fixed in ["/usr/local/share/booth", "/usr/share/booth"] where !dirs.contains(fixed) { dirs.append(fixed) }
        return dirs
    }

    /// The running binary's absolute path with links resolved (`/proc/self/exe`), or nil.
    static var executablePath: String? {
        #if os(Linux)
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buf.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
        return nil
        #endif
    }

    /// Reads and parses the data file `nameOrPath` (e.g. "rpi4" → `boards/rpi4.toml`).
    public static func load<T>(_ nameOrPath: String, kind: String, subdirectory: String, environment: String,
                               parse: (String, String) throws(ConfigError) -> T) throws(ConfigError) -> T {
        let candidates = nameOrPath.contains("/") || nameOrPath.hasSuffix(".toml")
            ? [nameOrPath]
            : searchPath(subdirectory: subdirectory, environment: environment).map { "\($0)/\(nameOrPath).toml" }
        for path in candidates {
            if let text = readText(path) { return try parse(text, path) }
        }
        throw ConfigError(file: nameOrPath, message: "no such \(kind) (looked in \(candidates.joined(separator: ", ")))")
    }

    /// The whole text file at `path`, or nil when it cannot be read (or is over 1 MiB).
    public static func readText(_ path: String, limit: Int = 1 << 20) -> String? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buf, 1, buf.count, f)
            if n <= 0 { break }
            bytes += buf.prefix(n)
            if bytes.count > limit { return nil }
        }
        if ferror(f) != 0 { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
