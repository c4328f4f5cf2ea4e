/// Locations of test data outside the package: ../shared/fixtures (read-only, may be absent)
/// and models/ (fetched by scripts/fetch-models).
public enum Fixtures {
    /// The package root, found from this source file's path (Tests/TestSupport/Fixtures.swift).
    public static let packageRoot: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// `../shared/fixtures` beside the package, or `BOOTH_FIXTURES` when set.
    public static var sharedFixtures: String {
        if let env = getenvString("BOOTH_FIXTURES") { return env }
        return packageRoot + "/../shared/fixtures"
    }

    /// Whether the shared fixtures are there (`make test` refuses to run without them; a plain
    /// `swift test` skips the tests that need them, each saying so through `.enabled(if:)`).
    public static var available: Bool { access(sharedFixtures + "/faces", F_OK) == 0 && access(sharedFixtures + "/persons", F_OK) == 0 }

    /// `models/` in the package, or `BOOTH_MODELS` when set.
    public static var models: String {
        if let env = getenvString("BOOTH_MODELS") { return env }
        return packageRoot + "/models"
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func getenvString(_ name: String) -> String? {
    guard let p = getenv(name) else { return nil }
    return String(cString: p)
}

/// A new empty directory under $TMPDIR (or /tmp).
public func makeTemporaryDirectory() -> String {
    let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array((base + "/booth-test-XXXXXX").utf8CString)
    guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
        fatalError("cannot create a temporary directory under \(base)")
    }
    return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// A board file's text for the tests: the folder camera replaying `folder` at 640×480 and `fps`,
/// a null screen, and a scripted shutter pressed `script` seconds after start.
public func folderCameraBoard(name: String, folder: String, fps: Int = 15, script: [Double] = []) -> String {
    """
    name = "\(name)"
    [camera]
    source = "folder"
    folder = "\(folder)"
    preview = [640, 480]
    fps = \(fps)
    [display]
    sink = "null"
    [gpio]
    shutter = "script"
    """ + (script.isEmpty ? "" : "\nscript = \(script)") + "\n"
}
