import Foundation
import TestSupport

/// Runs the built `booth` executable (it sits beside the test bundle in .build/<config>/).
enum BoothCLI {
    struct Result {
        /// False when a signal ended the process (a Swift trap is SIGILL or SIGTRAP).
        var exited: Bool
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static var executable: String? {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for dir in [bundle, bundle.deletingLastPathComponent()] {
            let path = dir.appendingPathComponent("booth").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// The statuses of the exit-code table (`booth --help`): 0, 1, 2, 64, 65, 74, 78.
    static let documentedStatuses: Set<Int32> = [0, 1, 2, 64, 65, 74, 78]

    /// Runs `booth` (or `binary`) in `directory` with `$BOOTH_MODELS` set to the fixtures' models
    /// and `environment` on top; the variables in `unset` are removed (an installed binary's own
    /// search path then applies).
    static func run(_ arguments: [String], in directory: String = Fixtures.packageRoot,
                    environment: [String: String] = [:], binary: String? = nil, unset: [String] = []) throws -> Result {
        guard let executable = binary ?? executable else { throw CLIError.notBuilt }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.currentDirectoryURL = URL(fileURLWithPath: directory)
        var env = ProcessInfo.processInfo.environment
        env["BOOTH_MODELS"] = Fixtures.models
        env.merge(environment) { $1 }
        for name in unset { env.removeValue(forKey: name) }
        p.environment = env
        // Output goes to files, so a chatty process can never block on a full pipe.
        let dir = makeTemporaryDirectory()
        _ = FileManager.default.createFile(atPath: dir + "/out", contents: nil)
        _ = FileManager.default.createFile(atPath: dir + "/err", contents: nil)
        p.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: dir + "/out"))
        p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: dir + "/err"))
        try p.run()
        p.waitUntilExit()
        let outBytes = FileManager.default.contents(atPath: dir + "/out") ?? Data()
        let errBytes = FileManager.default.contents(atPath: dir + "/err") ?? Data()
        return Result(exited: p.terminationReason == .exit, status: p.terminationStatus, stdout: String(decoding: outBytes, as: UTF8.self),
                      stderr: String(decoding: errBytes, as: UTF8.self))
    }

    enum CLIError: Error, CustomStringConvertible {
        case notBuilt
        var description: String { "the booth executable is not built beside the tests (swift build --build-tests builds it)" }
    }
}
