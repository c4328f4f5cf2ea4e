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
