import Config
import NeuralCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The integer path's activation ranges shipped with Booth: one `CalibrationTable` per model,
/// recorded offline by `scripts/calibrate` on real faces, eyes and scenes, compiled in from
/// `Calibration/Tables/*.swift` and looked up by the sha256 of the model file, so that a model is
/// only ever paired with the ranges measured on it.
///
/// A model without a table (another file than the pinned one) or whose table does not fit
/// still runs on the integer path, calibrated at load on the generated set (`IntegerCalibration`);
/// `warning` then says so once per model. Set `BOOTH_CALIBRATION=load` to ignore the shipped
/// tables (for comparing the two), or `BOOTH_CALIBRATION_TABLES=DIR` to use the table texts in
/// DIR (`*.txt`, as `scripts/arm/bench` writes them) instead of the shipped tables of the same
/// models (for comparing two tables in one benchmark session without a rebuild).
public enum ModelCalibrations {
    /// Where the "no calibration table" warning goes (stderr by default; the kiosk logs it).
    nonisolated(unsafe) public static var warning: (String) -> Void = { message in
        let line = Array(("booth: warning: " + message + "\n").utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// Whether shipped tables are used (false when `BOOTH_CALIBRATION=load`).
    nonisolated(unsafe) public static var useShippedTables: Bool = {
        guard let v = getenv("BOOTH_CALIBRATION") else { return true }
        return String(cString: v) != "load"
    }()

    /// The shipped table texts by model sha256 (the `model` line of each), with those of
    /// `BOOTH_CALIBRATION_TABLES` in their place.
    static let tablesBySHA256: [String: String] = {
        var out: [String: String] = [:]
        for text in shippedTables + overridingTables() {
            for line in text.utf8.split(separator: UInt8(ascii: "\n")).prefix(3) where line.starts(with: "model ".utf8) {
                out[String(decoding: line.dropFirst(6), as: UTF8.self)] = text
            }
        }
        return out
    }()

    /// The shipped table for the model file `bytes`, or nil.
    public static func table(forModel bytes: [UInt8]) -> CalibrationTable? {
        guard useShippedTables, let text = tablesBySHA256[SHA256.hex(bytes)] else { return nil }
        return try? CalibrationTable(parsing: text)
    }

    /// The texts of the `*.txt` files in `BOOTH_CALIBRATION_TABLES` (none when it is unset; a
    /// folder that cannot be read stops the process with the reason, as a bad setting should).
    static func overridingTables() -> [String] {
        guard let v = getenv("BOOTH_CALIBRATION_TABLES") else { return [] }
        let folder = String(cString: v)
        guard let dir = opendir(folder) else { fatalError("BOOTH_CALIBRATION_TABLES: cannot read the folder \(folder)") }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".txt") { names.append(name) }
        }
        return names.sorted().map { name in
            guard let text = DataFiles.readText(folder + "/" + name) else {
                fatalError("BOOTH_CALIBRATION_TABLES: cannot read \(folder)/\(name) (or it is over 1 MiB)")
            }
            return text
        }
    }

    /// Whether a table is shipped for the model with this sha256 (for `booth doctor`).
    public static func hasTable(sha256: String) -> Bool { tablesBySHA256[sha256] != nil }

    /// Loads `bytes` for `path`; on the integer path with the model's shipped table when there is
    /// one that fits, else calibrated at load from `base` with a warning naming `name`; `shared`:
    /// the integer program's working memory (see `SharedArena`).
    public static func interpreter(model bytes: [UInt8], name: String, path: ExecutionPath,
                                   base: IntegerCalibration, sharing shared: SharedArena? = nil) throws(ModelError) -> Interpreter {
        var copy = bytes
        return try interpreter(taking: &copy, name: name, path: path, base: base, sharing: shared)
    }

    /// As `interpreter(model:name:…)`, taking the file's `bytes`: the table is looked up by their
    /// sha256, then they are parsed and released (`bytes` is left empty) before the weights are
    /// packed (`Interpreter(taking:)`), so a caller that held the only reference frees them
    /// before the build's peak.
    public static func interpreter(taking bytes: inout [UInt8], name: String, path: ExecutionPath,
                                   base: IntegerCalibration, sharing shared: SharedArena? = nil) throws(ModelError) -> Interpreter {
        guard path == .integer else { return try Interpreter(taking: &bytes, path: path, calibration: base) }
        let calibration = Self.calibration(sha256: SHA256.hex(bytes), base: base)
        let interpreter = try Interpreter(taking: &bytes, path: path, calibration: calibration.calibration, sharing: shared)
        return warnUnlessTabled(interpreter, name: name, sha256: calibration.sha256)
    }

    /// As `interpreter(taking:name:…)` for a file's bytes as `ModelBytes` (a read-only mapping,
    /// `ModelStore.map`: its pages are dropped as the parse copies the weights out).
    public static func interpreter(taking bytes: inout ModelBytes, for model: CalibrationModel,
                                   path: ExecutionPath, sharing shared: SharedArena? = nil) throws(ModelError) -> Interpreter {
        guard path == .integer else { return try Interpreter(taking: &bytes, path: path, calibration: model.fallback) }
        // Hashed piece by piece, each piece's pages dropped after it (`ModelBytes.forEachChunk`).
        var hash = SHA256()
        bytes.forEachChunk { hash.update($0) }
        let calibration = Self.calibration(sha256: hash.hexDigest(), base: model.fallback)
        let interpreter = try Interpreter(taking: &bytes, path: path, calibration: calibration.calibration, sharing: shared)
        return warnUnlessTabled(interpreter, name: model.rawValue, sha256: calibration.sha256)
    }

    /// `base` with the shipped table of the model file whose sha256 is `sha256`, when there is one.
    static func calibration(sha256: String, base: IntegerCalibration) -> (calibration: IntegerCalibration, sha256: String) {
        var calibration = base
        if useShippedTables, let text = tablesBySHA256[sha256], let table = try? CalibrationTable(parsing: text) {
            calibration.adopt(table)
        }
        return (calibration, sha256)
    }

    /// `interpreter`, after warning (once per model) when it calibrated at load for want of a table.
    static func warnUnlessTabled(_ interpreter: Interpreter, name: String, sha256: String) -> Interpreter {
        if !interpreter.calibratedFromTable && useShippedTables {
            warnOnce(name + ": no calibration table fits this model file (sha256 " + String(sha256.prefix(12))
                     + "…); its integer ranges come from generated images at load — run scripts/calibrate")
        }
        return interpreter
    }

    /// As `interpreter(model:for:…)`, taking the file's `bytes` (see `interpreter(taking:name:…)`).
    public static func interpreter(taking bytes: inout [UInt8], for model: CalibrationModel,
                                   path: ExecutionPath, sharing shared: SharedArena? = nil) throws(ModelError) -> Interpreter {
        try interpreter(taking: &bytes, name: model.rawValue, path: path, base: model.fallback, sharing: shared)
    }

    /// Loads `bytes` as the pipeline's `model`: its name in warnings and its load-time settings as
    /// the base.
    public static func interpreter(model bytes: [UInt8], for model: CalibrationModel,
                                   path: ExecutionPath, sharing shared: SharedArena? = nil) throws(ModelError) -> Interpreter {
        try interpreter(model: bytes, name: model.rawValue, path: path, base: model.fallback, sharing: shared)
    }

    nonisolated(unsafe) static var warned: Set<String> = []
    nonisolated(unsafe) static let warnedLock: UnsafeMutablePointer<pthread_mutex_t> = {
        let m = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(m, nil)
        return m
    }()

    static func warnOnce(_ message: String) {
        pthread_mutex_lock(warnedLock)
        let first = warned.insert(message).inserted
        pthread_mutex_unlock(warnedLock)
        if first { warning(message) }
    }
}
