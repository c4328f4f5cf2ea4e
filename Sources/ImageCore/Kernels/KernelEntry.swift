/// One row of `KernelTable`: a kernel with fixed parameters, its two variants behind one
/// signature, and what it needs to be called (formats and output size). Tests run both variants
/// on random images and compare bytes; the benchmarks time both on a 640×480 frame.
public struct KernelEntry: Sendable {
    /// A stable name such as `yuv.i420→xrgb8888.bt601Limited`.
    public let name: String
    public let sourceFormat: PixelFormat
    public let destinationFormat: PixelFormat
    /// Whether the call needs `background` and `mask` (alpha blend).
    public let usesBackgroundAndMask: Bool
    /// Output size for a source of `width`×`height`.
    public let destinationSize: @Sendable (_ width: Int, _ height: Int) -> (width: Int, height: Int)
    public let scalar: @Sendable (KernelArguments) -> Void
    public let simd: @Sendable (KernelArguments) -> Void

    public init(name: String, source: PixelFormat, destination: PixelFormat, usesBackgroundAndMask: Bool = false,
                destinationSize: @escaping @Sendable (_ width: Int, _ height: Int) -> (width: Int, height: Int) = { ($0, $1) },
                scalar: @escaping @Sendable (KernelArguments) -> Void,
                simd: @escaping @Sendable (KernelArguments) -> Void) {
        self.name = name
        self.sourceFormat = source
        self.destinationFormat = destination
        self.usesBackgroundAndMask = usesBackgroundAndMask
        self.destinationSize = destinationSize
        self.scalar = scalar
        self.simd = simd
    }

    /// Calls one variant.
    @inlinable public func run(_ variant: KernelVariant, _ arguments: KernelArguments) {
        switch variant {
        case .scalar: scalar(arguments)
        case .simd: simd(arguments)
        }
    }
}
