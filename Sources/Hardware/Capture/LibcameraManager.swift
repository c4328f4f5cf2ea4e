import CCameraLoader
import Syscalls
#if canImport(Glibc)
import Glibc
#endif

/// A camera libcamera reports.
public struct CameraInfo: Sendable, Equatable {
    /// libcamera's stable id (e.g. "/base/soc/i2c0mux/i2c@1/imx708@1a").
    public var id: String
    /// The sensor model ("imx708"), or "" when the pipeline does not say.
    public var model: String
}

/// libcamera's CameraManager (one per process), through the CCamera shim. The shim (and with it
/// libcamera) is loaded into the process by the first manager (`CCameraLoader`): a board whose
/// camera is not libcamera never maps it.
public final class LibcameraManager {
    let handle: OpaquePointer

    /// Loads the shim if needed and starts libcamera. Throws `.busy` when another manager exists
    /// in this process, `.cameraFailed` naming the paths tried when the shim cannot be loaded.
    public init() throws(HardwareError) {
        var h: OpaquePointer?
        let r = ccamera_manager_new(&h)
        guard r == 0, let h else {
            if r == -Int32(ELIBACC) {
                throw HardwareError.cameraFailed(detail: "libcamera support (libBoothCamera.so) not loaded: \(String(cString: ccamera_load_error()))")
            }
            if r == -Int32(Errno.busy.rawValue) {
                throw HardwareError.busy(device: "libcamera", detail: "a camera manager already runs in this process")
            }
            throw HardwareError.cameraFailed(detail: "libcamera did not start: \(Errno(rawValue: -r))")
        }
        handle = h
    }

    deinit { ccamera_manager_free(handle) }

    /// The libcamera version the shim was built against ("(not loaded)" when the shim cannot be loaded).
    public static var version: String { String(cString: ccamera_libcamera_version()) }

    /// Whether libcamera is loaded into this process (a manager was made, or `version` read).
    public static var isLoaded: Bool { ccamera_loaded() != 0 }

    /// Cameras present now (may be empty).
    public var cameras: [CameraInfo] {
        let n = Int(ccamera_manager_count(handle))
        var out: [CameraInfo] = []
        out.reserveCapacity(n)
        var id = [CChar](repeating: 0, count: 256)
        var model = [CChar](repeating: 0, count: 128)
        for i in 0..<n where ccamera_manager_info(handle, Int32(i), &id, id.count, &model, model.count) == 0 {
            out.append(CameraInfo(id: Self.string(id), model: Self.string(model)))
        }
        return out
    }

    private static func string(_ chars: [CChar]) -> String {
        String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
