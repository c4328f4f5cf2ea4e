/// Path strings split and joined as `NSString`'s path methods did for the kiosk's paths
/// (`a/b.jpg`, `/x/y/`, `./a.png`): trailing slashes are ignored, a name's extension is what
/// follows its last '.' unless nothing but dots precedes that dot (`.jpg`, `..` have none), and
/// nothing is resolved against the file system. Unlike NSString, runs of slashes inside a path are
/// kept as they are, and a single relative name's parent is "" (Foundation 6.3 traps on `"a"`).
public enum Path {
    /// The name after the last slash, trailing slashes ignored (`"a/b.jpg/"` → `"b.jpg"`; `"/"` → `"/"`).
    public static func lastComponent(_ path: String) -> String {
        let p = trimmed(path)
        if p == "/" { return "/" }
        guard let slash = p.utf8.lastIndex(of: UInt8(ascii: "/")) else { return String(p) }
        return String(p[p.utf8.index(after: slash)...])
    }

    /// The last component's extension without its dot (`"a/b.tar.gz"` → `"gz"`; `"a/.jpg"`, `"a"` → `""`).
    public static func pathExtension(_ path: String) -> String {
        let name = lastComponent(path)
        guard let dot = extensionDot(name) else { return "" }
        return String(name[name.utf8.index(after: dot)...])
    }

    /// The path without its last component's extension and dot, trailing slashes dropped
    /// (`"a/b.jpg"` → `"a/b"`, `"a."` → `"a"`, `"a/.jpg"` → `"a/.jpg"`).
    public static func deletingExtension(_ path: String) -> String {
        let p = trimmed(path)
        let name = lastComponent(String(p))
        guard let dot = extensionDot(name) else { return String(p) }
        let dropped = name.utf8.distance(from: dot, to: name.utf8.endIndex)
        return String(p.utf8.dropLast(dropped))!
    }

    /// The path without its last component, trailing slashes dropped (`"a/b/"` → `"a"`,
    /// `"/a"` → `"/"`, `"a"` → `""`, `"/"` → `"/"`).
    public static func deletingLastComponent(_ path: String) -> String {
        let p = trimmed(path)
        if p == "/" { return "/" }
        guard let slash = p.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        let parent = trimmed(String(p[..<slash]))
        return parent.isEmpty ? "/" : String(parent)
    }

    /// `name` inside `folder` with one slash between them unless `folder` ends in one
    /// (`"a"` + `"b.jpg"` → `"a/b.jpg"`, `""` + `"b"` → `"b"`, `"a"` + `""` → `"a"`).
    public static func appending(_ folder: String, _ name: String) -> String {
        if folder.isEmpty { return name }
        if name.isEmpty { return folder }
        return folder.utf8.last == UInt8(ascii: "/") ? folder + name : folder + "/" + name
    }

    /// `path` without trailing slashes; `"/"` when it is all slashes.
    private static func trimmed(_ path: String) -> Substring {
        var p = Substring(path)
        while p.utf8.count > 1 && p.utf8.last == UInt8(ascii: "/") { p = p.dropLast() }
        return p
    }

    /// The index of the dot that starts `name`'s extension, if it has one.
    private static func extensionDot(_ name: String) -> String.Index? {
        guard name != "/", let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")) else { return nil }
        let stem = name.utf8[..<dot]
        return stem.contains(where: { $0 != UInt8(ascii: ".") }) ? dot : nil
    }
}
