import ImageCore

/// The capture-quality measurement kernels, each with its scalar reference and SIMD variant
/// behind one signature, for the tests (bit-exactness) and benchmarks to iterate — the
/// quality stage's counterpart of `KernelTable`.
///
/// A call gets two Gray8 planes of the same size (`a`, `b`), a rectangle inside them, and an
/// output buffer of at least `QualityKernelEntry.outputCount(width:height:)` words it fills.
public struct QualityKernelEntry: Sendable {
    public let name: String
    public let scalar: @Sendable (Plane, Plane, PixelRect, UnsafeMutableBufferPointer<UInt32>) -> Void
    public let simd: @Sendable (Plane, Plane, PixelRect, UnsafeMutableBufferPointer<UInt32>) -> Void

    /// Output words needed for planes of `width`×`height` (enough for every entry).
    public static func outputCount(width: Int, height: Int) -> Int { max(8, (width / 8) * (height / 8)) }

    @inlinable public func run(_ variant: KernelVariant, _ a: Plane, _ b: Plane, _ rect: PixelRect,
                               _ out: UnsafeMutableBufferPointer<UInt32>) {
        switch variant {
        case .scalar: scalar(a, b, rect, out)
        case .simd: simd(a, b, rect, out)
        }
    }
}

public enum QualityKernelTable {
    public static let all: [QualityKernelEntry] = [
        // Whole plane `a` (its size must be a multiple of 8); `rect` unused.
        QualityKernelEntry(name: "quality.laplacianBlocks",
                           scalar: { a, _, _, out in LaplacianBlocks.scalar(a, out) },
                           simd: { a, _, _, out in LaplacianBlocks.simd(a, out) }),
        QualityKernelEntry(name: "quality.regionStatistics",
                           scalar: { a, _, r, out in store(RegionStatistics.scalar(a, r, low: 12, high: 243), out) },
                           simd: { a, _, r, out in store(RegionStatistics.simd(a, r, low: 12, high: 243), out) }),
        QualityKernelEntry(name: "quality.absoluteDeviationSum.chroma",
                           scalar: { a, b, r, out in out[0] = AbsoluteDeviationSum.scalar(a, b, r, reference: (118, 141)) },
                           simd: { a, b, r, out in out[0] = AbsoluteDeviationSum.simd(a, b, r, reference: (118, 141)) }),
        QualityKernelEntry(name: "quality.absoluteDeviationSum.luma",
                           scalar: { a, _, r, out in out[0] = AbsoluteDeviationSum.scalar(a, a, r, reference: (90, 90)) },
                           simd: { a, _, r, out in out[0] = AbsoluteDeviationSum.simd(a, a, r, reference: (90, 90)) }),
        // `rect` shrunk by a pixel where it touches the plane's edge (the kernel reads around it).
        QualityKernelEntry(name: "quality.flatPixelCount",
                           scalar: { a, _, r, out in
                               store(FlatPixelCount.scalar(a, FlatPixelCount.inset(r, width: a.width, height: a.height),
                                                           threshold: 6, low: 12, high: 243), out) },
                           simd: { a, _, r, out in
                               store(FlatPixelCount.simd(a, FlatPixelCount.inset(r, width: a.width, height: a.height),
                                                         threshold: 6, low: 12, high: 243), out) }),
    ]

    static func store(_ f: FlatPixelCount.Result, _ out: UnsafeMutableBufferPointer<UInt32>) {
        out[0] = f.flat; out[1] = f.gradientSum
    }

    static func store(_ s: RegionSums, _ out: UnsafeMutableBufferPointer<UInt32>) {
        out[0] = s.count; out[1] = s.sum
        out[2] = UInt32(truncatingIfNeeded: s.sumOfSquares); out[3] = UInt32(truncatingIfNeeded: s.sumOfSquares >> 32)
        out[4] = s.low; out[5] = s.high
    }
}
