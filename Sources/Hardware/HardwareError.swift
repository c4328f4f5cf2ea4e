import Syscalls

/// A device the kiosk needs is missing, busy or failing. These are environment failures (not
/// bugs): every case reads as a sentence an operator can act on.
public enum HardwareError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The device node does not exist (ENOENT/ENODEV/ENXIO at open).
    case deviceNotFound(device: String, path: String)
    /// The process may not open the device (EACCES/EPERM).
    case permissionDenied(device: String, path: String, hint: String)
    /// Another program holds the device or line (EBUSY).
    case busy(device: String, detail: String)
    /// The device disappeared while in use (ENODEV mid-run, unplugged camera).
    case deviceGone(device: String, detail: String)
    /// A DRM mode-set was refused because another program (a desktop, another kiosk) is DRM master.
    case notDisplayMaster(path: String)
    /// The chosen display connector has nothing plugged in.
    case connectorDisconnected(name: String)
    /// No connector has the configured name.
    case connectorNotFound(name: String, available: [String])
    /// A configuration value the device cannot honour (line offset beyond the chip, no such mode…).
    case unsupported(device: String, detail: String)
    /// libcamera found no camera at all.
    case noCamera
    /// No camera has the configured id.
    case cameraNotFound(id: String, available: [String])
    /// The camera failed (configure, start, a cancelled or failed request).
    case cameraFailed(detail: String)
    /// Any other failing call, with the device it was for.
    case system(device: String, error: SystemCallError)

    public var description: String {
        switch self {
        case .deviceNotFound(let device, let path):
            return "\(device): \(path) does not exist — is the device connected and its driver loaded?"
        case .permissionDenied(let device, let path, let hint):
            return "\(device): permission denied opening \(path) — \(hint)"
        case .busy(let device, let detail):
            return "\(device): in use by another program (\(detail))"
        case .deviceGone(let device, let detail):
            return "\(device): device went away (\(detail))"
        case .notDisplayMaster(let path):
            return "display \(path): another program controls the screen (not DRM master) — stop the desktop or other kiosk, or run on a free virtual terminal"
        case .connectorDisconnected(let name):
            return "display connector \(name) is not connected — check the cable and that the screen is on"
        case .connectorNotFound(let name, let available):
            return "display connector \(name) not found; available: \(available.isEmpty ? "none" : available.joined(separator: ", "))"
        case .unsupported(let device, let detail):
            return "\(device): \(detail)"
        case .noCamera:
            return "no camera found — check the ribbon cable or USB connection"
        case .cameraNotFound(let id, let available):
            return "camera \(id) not found; available: \(available.isEmpty ? "none" : available.joined(separator: ", "))"
        case .cameraFailed(let detail):
            return "camera failed: \(detail)"
        case .system(let device, let error):
            return "\(device): \(error)"
        }
    }

    /// Maps a failed `open` of `path` to the operator's view of it.
    static func opening(_ device: String, _ path: String, _ error: SystemCallError, permissionHint: String) -> HardwareError {
        switch error.errno {
        case .noSuchFile, .noDevice, Errno(rawValue: 6 /* ENXIO */):
            return .deviceNotFound(device: device, path: path)
        case .accessDenied, .notPermitted:
            return .permissionDenied(device: device, path: path, hint: permissionHint)
        case .busy:
            return .busy(device: device, detail: "\(path) is busy")
        default:
            return .system(device: device, error: error)
        }
    }
}
