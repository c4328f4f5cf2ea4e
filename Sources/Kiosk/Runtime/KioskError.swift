import Config
import Hardware
import NeuralCore

/// Why the kiosk could not start, by start-up phase, in words an operator can act on.
public enum KioskError: Error, CustomStringConvertible {
    case config(ConfigError)
    case models(String)
    case camera(HardwareError)
    case display(HardwareError)
    case button(HardwareError)
    case storage(StorageError)

    public var description: String {
        switch self {
        case .config(let e): return "config: \(e)"
        case .models(let why): return "models: \(why)"
        case .camera(let e): return "camera: \(e)"
        case .display(let e): return "display: \(e)"
        case .button(let e): return "button: \(e)"
        case .storage(let e): return "photos: \(e)"
        }
    }
}
