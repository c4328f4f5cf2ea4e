import CDRM
#if canImport(Glibc)
import Glibc
import Syscalls
#endif

/// Looks at DRM devices without taking the screen: which cards are KMS displays, their
/// connectors, and whether this process could become DRM master. Used by `booth doctor` and to
/// pick the display when the board file leaves `device` empty (on a Pi 4/5 the display controller
/// is usually card1, card0 being the 3D engine, but that is not guaranteed).
public enum DRMProbe {
    public struct Connector: Sendable, Equatable {
        public var name: String
        public var connected: Bool
        /// The preferred (or first) mode, "1920x1080@60"; empty when disconnected.
        public var preferredMode: String
    }

    public struct Card: Sendable, Equatable {
        public var path: String
        public var connectors: [Connector]
        /// Whether this process is (or became, on open) DRM master of the card.
        public var isMaster: Bool
        public var hasConnectedDisplay: Bool { connectors.contains { $0.connected } }
    }

    /// The card at `path`, or an error saying why it cannot be used.
    public static func card(at path: String, syscalls: SystemCalls = .live) throws(HardwareError) -> Card {
        let fd: Int32
        do { fd = try syscalls.open(path, flags: O_RDWR | O_CLOEXEC) } catch {
            throw HardwareError.opening("display", path, error, permissionHint: "add the user to the video group")
        }
        defer { try? syscalls.close(fd) }
        guard let resources = drmModeGetResources(fd) else {
            throw HardwareError.unsupported(device: "display", detail: "\(path) is not a KMS display")
        }
        defer { drmModeFreeResources(resources) }
        var connectors: [Connector] = []
        for i in 0..<Int(resources.pointee.count_connectors) {
            guard let c = drmModeGetConnector(fd, resources.pointee.connectors[i]) else { continue }
            defer { drmModeFreeConnector(c) }
            let connected = c.pointee.connection == DRM_MODE_CONNECTED
            var mode = ""
            if connected && c.pointee.count_modes > 0 {
                var best = c.pointee.modes[0]
                for m in 0..<Int(c.pointee.count_modes) where c.pointee.modes[m].type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 {
                    best = c.pointee.modes[m]
                    break
                }
                mode = "\(best.hdisplay)x\(best.vdisplay)@\(best.vrefresh)"
            }
            connectors.append(Connector(name: DRMDisplay.connectorName(c.pointee), connected: connected, preferredMode: mode))
        }
        return Card(path: path, connectors: connectors, isMaster: drmIsMaster(fd) != 0)
    }

    /// `/dev/dri/card0`…`card15` that are KMS displays, in order.
    public static func cards(syscalls: SystemCalls = .live) -> [Card] {
        (0..<16).compactMap { n in
            let path = "/dev/dri/card\(n)"
            guard access(path, F_OK) == 0 else { return nil }
            return try? card(at: path, syscalls: syscalls)
        }
    }

    /// The display to use when the board names none: the first card with a connected connector.
    public static func defaultDisplay(syscalls: SystemCalls = .live) throws(HardwareError) -> String {
        let all = cards(syscalls: syscalls)
        if let c = all.first(where: { $0.hasConnectedDisplay }) { return c.path }
        if all.isEmpty { throw .deviceNotFound(device: "display", path: "/dev/dri/card*") }
        throw .connectorDisconnected(name: all.flatMap { $0.connectors.map(\.name) }.joined(separator: ", "))
    }
}
