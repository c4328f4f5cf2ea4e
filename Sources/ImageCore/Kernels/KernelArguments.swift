/// The images one table-driven kernel call works on. `background` and `mask` are used only by
/// entries with `KernelEntry.usesBackgroundAndMask` (alpha blend); others ignore them.
public struct KernelArguments: @unchecked Sendable {
    public var source: Image
    public var background: Image?
    public var mask: Plane?
    public var destination: Image

    public init(source: Image, background: Image? = nil, mask: Plane? = nil, destination: Image) {
        self.source = source
        self.background = background
        self.mask = mask
        self.destination = destination
    }
}
