/// A clockwise quarter-turn count for `Rotate`.
public enum Rotation: Int, Sendable, Equatable, CaseIterable {
    case degrees90 = 90
    case degrees180 = 180
    case degrees270 = 270

    /// Destination size for a `width`×`height` source.
    @inlinable public func rotatedSize(width: Int, height: Int) -> (width: Int, height: Int) {
        self == .degrees180 ? (width, height) : (height, width)
    }
}
