import Config
#if canImport(Glibc)
import Glibc
#endif
import Posix
import Hardware
import ImageFiles
import Passport
import Vision

/// `booth doctor`: whether this machine can run the kiosk as configured. One line per check.
public struct Doctor {
    public struct Check: Sendable, Equatable {
        public var name: String
        public var ok: Bool
        public var detail: String
        public init(_ name: String, _ ok: Bool, _ detail: String) { self.name = name; self.ok = ok; self.detail = detail }
    }

    public var configPath: String
    public var syscalls: SystemCalls

    public init(configPath: String, syscalls: SystemCalls = .live) {
        self.configPath = configPath
        self.syscalls = syscalls
    }

    /// Every check, in order, each run whatever the ones before found. Reads only: nothing is
    /// created or changed (no photo or screens folder, no probe file). Config, board, profile,
    /// background and models are loaded exactly as `booth run` loads them, so the two agree.
    public func run() -> [Check] {
        var checks: [Check] = []
        // Config: the same loader as `run` (a missing default path means the built-in defaults).
        var config = KioskConfig.defaults
        do {
            let loaded = try KioskConfig.load(configPath)
            config = loaded.config
            checks.append(Check("config", true, loaded.fromFile
                ? "\(configPath): board \(config.board), mode \(config.mode.rawValue), profile \(config.profile)"
                : "\(configPath) absent: built-in defaults (board \(config.board), photos in \(config.photoDirectory))"))
        } catch {
            checks.append(Check("config", false, error.description + " (the checks below use the built-in defaults)"))
        }
        var board: Board?
        do {
            let b = try BoardLibrary.load(config.board)
            board = b
            checks.append(Check("board", true, "\(b.name): camera \(b.camera.source.rawValue), display \(b.display.kind.rawValue), shutter \(b.gpio.shutter.rawValue)"))
        } catch { checks.append(Check("board", false, error.description)) }
        if config.mode == .passport {
            do {
                let p = try ProfileLibrary.load(config.profile)
                checks.append(Check("profile", true, "\(p.name): \(p.title)"))
            } catch { checks.append(Check("profile", false, error.description)) }
        }
        if let c = background(config) { checks.append(c) }
        let files = modelFiles()
        checks.append(models(files))
        checks.append(inference(files))
        if let board {
            checks.append(camera(board))
            checks.append(display(board))
            checks += buttons(board)
        } else {
            for name in ["camera", "display", "shutter"] { checks.append(Check(name, false, "not checked: no board")) }
        }
        checks.append(photos(config))
        return checks
    }

    /// Booth mode's background image, decoded as `run` decodes it.
    func background(_ config: KioskConfig) -> Check? {
        guard config.mode == .booth, !config.background.isEmpty else { return nil }
        do {
            let image = try ImageDecoder.decode(path: config.background, as: .rgb888)
            return Check("background", true, "\(config.background): \(image.width)x\(image.height)")
        } catch { return Check("background", false, error.description) }
    }

    /// The models folder and the sha256 of each catalog model in it (nil: unreadable), in
    /// `ModelFile.all` order: read once for the models and inference checks; or why no folder.
    typealias ModelHashes = Result<(store: ModelStore, hashes: [(file: ModelFile, sha256: String?)]), ModelStoreError>

    func modelFiles() -> ModelHashes {
        do {
            let store = try ModelStore.locate()
            return .success((store, ModelFile.all.map { ($0, store.sha256($0)) }))
        } catch { return .failure(error) }
    }

    func models(_ files: ModelHashes) -> Check {
        let store: ModelStore, hashes: [(file: ModelFile, sha256: String?)]
        switch files {
        case .failure(let error): return Check("models", false, error.description)
        case .success(let found): (store, hashes) = found
        }
        for (file, sha256) in hashes {
            guard let sha256 else { return Check("models", false, "\(store.path(file)) missing or unreadable — run scripts/fetch-models") }
            if sha256 != file.sha256 { return Check("models", false, "\(store.path(file)): sha256 differs from the pinned one — run scripts/fetch-models") }
        }
        return Check("models", true, "\(store.directory): \(ModelFile.all.count) models, hashes match")
    }

    /// Which arithmetic the kiosk runs, and whether each model's integer ranges come from its
    /// shipped calibration table (else from generated images at load: it runs, but less exactly).
    func inference(_ files: ModelHashes) -> Check {
        let path = "integer path (int8 weights; int8/int16 activations), float only with --inference float"
        guard case .success(let found) = files else { return Check("inference", true, path) }
        let integer = found.hashes.filter { !ModelFile.floatOnly.contains($0.file) }
        let missing = integer.filter { $0.sha256.map { !ModelCalibrations.hasTable(sha256: $0) } ?? true }.map(\.file.fileName)
        let tables = missing.isEmpty
            ? "calibration tables for all \(integer.count) integer models (the \(ModelFile.floatOnly.count) still-only models, palms, hands and refined lips, run float)"
            : "no calibration table for \(missing.joined(separator: ", ")) (calibrated at load from generated images)"
        return Check("inference", true, "\(path); \(tables)")
    }

    func camera(_ board: Board) -> Check {
        switch board.camera.source {
        case .synthetic:
            return Check("camera", true, "synthetic pattern \(board.camera.previewWidth)x\(board.camera.previewHeight)")
        case .folder:
            let files = (try? Directories.contents(of: board.camera.folder)) ?? []
            let images = files.filter { ["jpg", "jpeg", "png"].contains(Path.pathExtension($0).lowercased()) }
            return Check("camera", !images.isEmpty, images.isEmpty ? "folder \(board.camera.folder) has no JPEG/PNG" : "folder \(board.camera.folder): \(images.count) images")
        case .libcamera:
            do {
                let manager = try LibcameraManager()
                let cams = manager.cameras
                if cams.isEmpty { return Check("camera", false, HardwareError.noCamera.description) }
                if !board.camera.id.isEmpty, !cams.contains(where: { $0.id == board.camera.id }) {
                    return Check("camera", false, HardwareError.cameraNotFound(id: board.camera.id, available: cams.map(\.id)).description)
                }
                return Check("camera", true, cams.map { "\($0.model) (\($0.id))" }.joined(separator: ", "))
            } catch { return Check("camera", false, error.description) }
        }
    }

    func display(_ board: Board) -> Check {
        switch board.display.kind {
        case .null: return Check("display", true, "null (nothing shown)")
        case .png:
            let dir = board.display.folder
            if let problem = PhotoStore.problem(with: dir) { return Check("display", false, "PNG screens in \(dir): \(problem)") }
            return Check("display", true, "PNG screens in \(dir)")
        case .drm:
            do {
                let path = board.display.device.isEmpty ? try DRMProbe.defaultDisplay(syscalls: syscalls) : board.display.device
                let card = try DRMProbe.card(at: path, syscalls: syscalls)
                let wanted = board.display.connector
                let connected = card.connectors.filter { $0.connected && (wanted.isEmpty || $0.name == wanted) }
                guard let c = connected.first else {
                    return Check("display", false, "\(path): \(wanted.isEmpty ? "no connected screen" : "\(wanted) not connected") (connectors: \(card.connectors.map(\.name).joined(separator: ", ")))")
                }
                if !card.isMaster { return Check("display", false, HardwareError.notDisplayMaster(path: path).description) }
                return Check("display", true, "\(path) \(c.name) \(c.preferredMode), DRM master")
            } catch { return Check("display", false, error.description) }
        }
    }

    func buttons(_ board: Board) -> [Check] {
        let g = board.gpio
        switch g.shutter {
        case .script: return [Check("shutter", true, "scripted presses at \(g.script.map { "\($0) s" }.joined(separator: ", "))")]
        case .keyboard: return [Check("shutter", isatty(0) != 0, isatty(0) != 0 ? "keyboard (space or enter)" : "keyboard, but standard input is not a terminal")]
        case .gpio:
            let chip: String
            do { chip = try GPIOChipLookup.resolve(g.chip, syscalls: syscalls) } catch { return [Check("shutter", false, error.description)] }
            let lines: [(String, Int)] = [("shutter", g.shutterLine), ("ready LED", g.ledLine),
                                          ("hide-background button", g.hideBackgroundLine), ("debug button", g.debugLine)]
            return lines.filter { $0.1 >= 0 }.map { (what, line) -> Check in
                do throws(HardwareError) {
                    let info = try GPIOChipLookup.lineInfo(chip: chip, offset: UInt32(line), syscalls: syscalls)
                    if info.inUse { return Check(what, false, "\(chip) line \(line) is in use by \"\(info.consumer)\"") }
                    return Check(what, true, "\(chip) line \(line)\(info.name.isEmpty ? "" : " (\(info.name))") free")
                } catch { return Check(what, false, error.description) }
            }
        }
    }

    /// The photo folder without touching it: it (or the parent it would be made in) must be a
    /// writable folder with `min_free_mib` free.
    func photos(_ config: KioskConfig) -> Check {
        let dir = config.photoDirectory
        if let problem = PhotoStore.problem(with: dir) { return Check("photos", false, "\(dir) cannot hold photos: \(problem)") }
        let existing = PhotoStore.nearestExisting(dir)
        var s = statvfs()
        guard statvfs(existing, &s) == 0 else { return Check("photos", false, "\(existing): \(String(cString: strerror(errno)))") }
        let free = Int64(s.f_bavail) * Int64(s.f_frsize)
        let ok = free >= Int64(config.minimumFreeMiB) << 20
        return Check("photos", ok, "\(dir)\(existing == dir ? "" : " (to be created)"): \(free >> 20) MiB free"
                     + (ok ? "" : ", below min_free_mib = \(config.minimumFreeMiB)"))
    }
}
