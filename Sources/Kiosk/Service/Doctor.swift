import Config
import Foundation
import Hardware
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

    public func run() -> [Check] {
        var checks: [Check] = []
        // Config (a missing file means the built-in defaults).
        let config: KioskConfig
        if let text = DataFiles.readText(configPath) {
            do { config = try KioskConfig.parse(text, file: configPath) } catch {
                return [Check("config", false, error.description)]
            }
            checks.append(Check("config", true, "\(configPath): board \(config.board), mode \(config.mode.rawValue), profile \(config.profile)"))
        } else {
            config = .defaults
            checks.append(Check("config", true, "\(configPath) absent: built-in defaults (board dev)"))
        }
        let board: Board
        do { board = try BoardLibrary.load(config.board) } catch {
            checks.append(Check("board", false, error.description))
            return checks
        }
        checks.append(Check("board", true, "\(board.name): camera \(board.camera.source.rawValue), display \(board.display.kind.rawValue), shutter \(board.gpio.shutter.rawValue)"))
        if config.mode == .passport {
            do {
                let p = try ProfileLibrary.load(config.profile)
                checks.append(Check("profile", true, "\(p.name): \(p.title)"))
            } catch { checks.append(Check("profile", false, error.description)) }
        }
        checks.append(models())
        checks.append(inference())
        checks.append(camera(board))
        checks.append(display(board))
        checks += buttons(board)
        checks.append(photos(config))
        return checks
    }

    func models() -> Check {
        guard let dir = ModelFiles.directory() else {
            return Check("models", false, "not found in \(ModelFiles.searchPath.joined(separator: ", ")) — run scripts/fetch-models")
        }
        for (name, hash) in ModelFiles.pinned {
            guard let data = FileManager.default.contents(atPath: "\(dir)/\(name)") else {
                return Check("models", false, "\(dir)/\(name) unreadable")
            }
            if SHA256.hex(data) != hash { return Check("models", false, "\(dir)/\(name): sha256 differs from the pinned one — run scripts/fetch-models") }
        }
        return Check("models", true, "\(dir): \(ModelFiles.pinned.count) models, hashes match")
    }

    /// Which arithmetic the kiosk runs, and whether each model's integer ranges come from its
    /// shipped calibration table (else from generated images at load: it runs, but less exactly).
    func inference() -> Check {
        let path = "integer path (int8 weights; int8/int16 activations), float only with --inference float"
        guard let dir = ModelFiles.directory() else { return Check("inference", true, path) }
        var missing: [String] = []
        for (name, _) in ModelFiles.pinned {
            guard let data = FileManager.default.contents(atPath: "\(dir)/\(name)"), ModelCalibrations.hasTable(sha256: SHA256.hex(data)) else {
                missing.append(name)
                continue
            }
        }
        let tables = missing.isEmpty
            ? "calibration tables for all \(ModelFiles.pinned.count) models"
            : "no calibration table for \(missing.joined(separator: ", ")) (calibrated at load from generated images)"
        return Check("inference", true, "\(path); \(tables)")
    }

    func camera(_ board: Board) -> Check {
        switch board.camera.source {
        case .synthetic:
            return Check("camera", true, "synthetic pattern \(board.camera.previewWidth)x\(board.camera.previewHeight)")
        case .folder:
            let files = (try? FileManager.default.contentsOfDirectory(atPath: board.camera.folder)) ?? []
            let images = files.filter { ["jpg", "jpeg", "png"].contains(($0 as NSString).pathExtension.lowercased()) }
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
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            return Check("display", access(dir, W_OK) == 0, "PNG screens in \(dir)" + (access(dir, W_OK) == 0 ? "" : " (not writable)"))
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

    func photos(_ config: KioskConfig) -> Check {
        do {
            let store = try PhotoStore(root: config.photoDirectory, minimumFreeBytes: Int64(config.minimumFreeMiB) << 20)
            let probe = config.photoDirectory + "/.doctor-\(getpid())"
            let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0o600)
            if fd < 0 { return Check("photos", false, "\(config.photoDirectory) is not writable: \(String(cString: strerror(errno)))") }
            close(fd)
            unlink(probe)
            let free = store.freeBytes()
            let ok = free >= Int64(config.minimumFreeMiB) << 20
            return Check("photos", ok, "\(config.photoDirectory): \(free >> 20) MiB free" + (ok ? "" : ", below min_free_mib = \(config.minimumFreeMiB)"))
        } catch { return Check("photos", false, error.description) }
    }
}
