import Config
import NeuralCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where Booth's models are, and reading them checked: one folder, found once, for the kiosk and
/// every command. The catalog (names, pins, shapes) is `ModelFile+Catalog.swift`.
///
/// The folder is `--models` when given, else `$BOOTH_MODELS` when set (a wrong value is reported,
/// never silently replaced), else the first folder of `searchPath` that holds every model:
/// `./models`, then the installed data directories (`PREFIX/share/booth/models` beside the
/// running binary, `/usr/local/share/booth/models`, `/usr/share/booth/models`).
public struct ModelStore: Sendable {
    public let directory: String

    /// A store on `directory` as it is (files are checked when read).
    public init(directory: String) {
        self.directory = directory
    }

    /// The folders searched when neither `--models` nor `$BOOTH_MODELS` names one.
    public static var searchPath: [String] {
        ["models"] + DataFiles.dataDirectories.map { $0 + "/models" }
    }

    /// The models folder: `option` (from `--models`), else `$BOOTH_MODELS`, else the first folder
    /// of `searchPath` holding every model of the catalog.
    public static func locate(option: String? = nil) throws(ModelStoreError) -> ModelStore {
        if let option { return try named(option, source: "--models") }
        if let env = getenv("BOOTH_MODELS"), env.pointee != 0 { return try named(String(cString: env), source: "$BOOTH_MODELS") }
        let dirs = searchPath
        func lacking(_ dir: String) -> [String] {
            ModelFile.all.map { "\(dir)/\($0.fileName)" }.filter { access($0, R_OK) != 0 }
        }
        guard let dir = dirs.first(where: { lacking($0).isEmpty }) else {
            throw .notFound(searched: dirs, lacking: dirs.first { access($0, F_OK) == 0 }.map(lacking) ?? [])
        }
        return ModelStore(directory: dir)
    }

    static func named(_ dir: String, source: String) throws(ModelStoreError) -> ModelStore {
        var s = stat()
        guard stat(dir, &s) == 0, (s.st_mode & S_IFMT) == S_IFDIR else { throw .notAFolder(dir, source: source) }
        return ModelStore(directory: dir)
    }

    /// The path of `file` in the folder.
    public func path(_ file: ModelFile) -> String { directory + "/" + file.fileName }

    /// Largest model file read (the biggest shipped one is 2.6 MiB).
    public static let sizeLimit = 64 << 20

    /// The bytes of `file`, checked to be a .tflite model with the catalog's shapes: a missing
    /// file is `.missing`, an unreadable one `.unreadable`, a corrupt or wrong one `.invalid`.
    public func read(_ file: ModelFile) throws(ModelStoreError) -> [UInt8] {
        let path = path(file)
        let bytes = try rawBytes(path)
        try check(file, ModelBytes(bytes), path: path)
        return bytes
    }

    /// `file` as a read-only mapping (`ModelBytes`, unmapped when its last copy goes), checked as
    /// `read` checks it. Nothing is read until touched: the check reads the tables' pages only,
    /// and a build (`Interpreter(taking:)`) reads each weight's pages while it copies them and
    /// drops them at once; the pages are the file's own (clean, never a second copy), so the
    /// whole file is never resident at once. Same errors as `read`. The models are installed
    /// read-only; a file truncated while it is mapped would fault on its missing pages.
    public func map(_ file: ModelFile) throws(ModelStoreError) -> ModelBytes {
        let path = path(file)
        let bytes = try mappedBytes(path)
        try check(file, bytes, path: path)
        return bytes
    }

    /// Checks that `bytes` are a .tflite model with the catalog's shapes for `file`.
    func check(_ file: ModelFile, _ bytes: ModelBytes, path: String) throws(ModelStoreError) {
        let model: TFLiteModel
        do { model = try TFLiteModel(bytes: bytes) } catch { throw .invalid(path, error) }
        guard file.hasShapes(of: model) else { throw .invalid(path, file.shapeError(of: model)) }
    }

    /// The whole file mapped read-only, unchecked (an empty file as no bytes: the reader's
    /// "shorter than a header" error).
    func mappedBytes(_ path: String) throws(ModelStoreError) -> ModelBytes {
        guard access(path, F_OK) == 0 else { throw .missing(path) }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw .unreadable(path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) <= ModelStore.sizeLimit else {
            throw .unreadable(path)
        }
        let size = Int(info.st_size)
        guard size > 0 else { return ModelBytes([]) }
        guard let start = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), start != MAP_FAILED else { throw .unreadable(path) }
        return ModelBytes(lending: start, count: size) { _ = munmap(start, size) }
    }

    /// The sha256 of `file` (hex), or nil when it cannot be read.
    public func sha256(_ file: ModelFile) -> String? {
        (try? rawBytes(path(file))).map { SHA256.hex($0) }
    }

    /// The whole file, unchecked.
    func rawBytes(_ path: String) throws(ModelStoreError) -> [UInt8] {
        guard access(path, F_OK) == 0 else { throw .missing(path) }
        guard let f = fopen(path, "rb") else { throw .unreadable(path) }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        // Reserved at the file's size, so the array is not regrown (old and new copies) while read.
        var info = stat()
        if fstat(fileno(f), &info) == 0, info.st_size > 0 { bytes.reserveCapacity(min(Int(info.st_size), ModelStore.sizeLimit)) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, f) }
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]) }
            if bytes.count > ModelStore.sizeLimit || ferror(f) != 0 { throw .unreadable(path) }
            if n < chunk.count { break }
        }
        return bytes
    }
}
