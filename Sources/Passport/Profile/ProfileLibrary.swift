import Config
#if canImport(Glibc)
import Glibc
#endif

/// Finds profile files by name: `$BOOTH_PROFILES`, `./profiles`, then the installed
/// `/usr/local/share/booth/profiles` and `/usr/share/booth/profiles`; a value with a `/` or ending
/// in `.toml` is a path.
public enum ProfileLibrary {
    public static var searchPath: [String] {
        var dirs: [String] = []
        if let env = getenv("BOOTH_PROFILES") { dirs.append(String(cString: env)) }
        dirs += ["profiles", "/usr/local/share/booth/profiles", "/usr/share/booth/profiles"]
        return dirs
    }

    public static func load(_ nameOrPath: String) throws(ConfigError) -> Profile {
        let candidates = nameOrPath.contains("/") || nameOrPath.hasSuffix(".toml")
            ? [nameOrPath] : searchPath.map { "\($0)/\(nameOrPath).toml" }
        for path in candidates {
            if let text = readText(path) { return try Profile.parse(text, file: path) }
        }
        throw ConfigError(file: nameOrPath, message: "no such profile (looked in \(candidates.joined(separator: ", ")))")
    }

    static func readText(_ path: String) -> String? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buf, 1, buf.count, f)
            if n <= 0 { break }
            bytes += buf.prefix(n)
            if bytes.count > 1 << 20 { return nil }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
