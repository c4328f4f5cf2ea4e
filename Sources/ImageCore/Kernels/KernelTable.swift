/// Every image kernel, with both variants, in one list that the tests (bit-exactness) and the
/// benchmarks (throughput) iterate.
public enum KernelTable {
    public static let all: [KernelEntry] = yuvToRGB + colour + resize + geometry + compositing

    /// YUV 4:2:0 → RGB for both layouts, both outputs and the three matrices; and mirrored (the
    /// preview's conversion) for both layouts and outputs.
    static let yuvToRGB: [KernelEntry] = {
        var list: [KernelEntry] = []
        let matrices: [(String, YUVMatrix)] = [("bt601Limited", .bt601Limited), ("bt601Full", .bt601Full),
                                               ("bt709Limited", .bt709Limited)]
        for source in [PixelFormat.i420, .nv12] {
            for destination in [PixelFormat.rgb888, .xrgb8888] {
                for (label, matrix) in matrices {
                    list.append(KernelEntry(
                        name: "yuv.\(source.name)→\(destination.name).\(label)", source: source, destination: destination,
                        scalar: { YUVToRGB.scalar($0.source, $0.destination, matrix: matrix) },
                        simd: { YUVToRGB.simd($0.source, $0.destination, matrix: matrix) }))
                }
                list.append(KernelEntry(
                    name: "yuv.\(source.name)→\(destination.name).bt601Full.mirrored", source: source, destination: destination,
                    scalar: { YUVToRGB.scalar($0.source, $0.destination, matrix: .bt601Full, mirrored: true) },
                    simd: { YUVToRGB.simd($0.source, $0.destination, matrix: .bt601Full, mirrored: true) }))
            }
        }
        return list
    }()

    static let colour: [KernelEntry] = [PixelFormat.rgb888, .xrgb8888].flatMap { source in
        [
            KernelEntry(name: "gray.\(source.name)→gray8", source: source, destination: .gray8,
                        scalar: { RGBToGray.scalar($0.source, $0.destination) },
                        simd: { RGBToGray.simd($0.source, $0.destination) }),
            KernelEntry(name: "i420.\(source.name)→i420", source: source, destination: .i420,
                        scalar: { RGBToI420.scalar($0.source, $0.destination) },
                        simd: { RGBToI420.simd($0.source, $0.destination) }),
        ]
    }

    /// 5/8 reductions (non-integer ratio: the general path), a 3/2 bilinear enlargement and 1/2 area reductions
    /// (NV12: the general path for its two-byte chroma; I420 and Gray8: the exact-halving rows).
    static let resize: [KernelEntry] = {
        let down: @Sendable (Int, Int) -> (width: Int, height: Int) = { (max(1, $0 * 5 / 8), max(1, $1 * 5 / 8)) }
        let up: @Sendable (Int, Int) -> (width: Int, height: Int) = { ($0 * 3 / 2 + 1, $1 * 3 / 2 + 1) }
        let half: @Sendable (Int, Int) -> (width: Int, height: Int) = { (max(1, $0 / 2), max(1, $1 / 2)) }
        var list: [KernelEntry] = []
        for format in [PixelFormat.gray8, .rgb888, .xrgb8888, .i420] {
            list.append(KernelEntry(name: "resize.bilinear.5/8.\(format.name)", source: format, destination: format,
                                    destinationSize: down,
                                    scalar: { ResizeBilinear.scalar($0.source, $0.destination) },
                                    simd: { ResizeBilinear.simd($0.source, $0.destination) }))
            list.append(KernelEntry(name: "resize.area.5/8.\(format.name)", source: format, destination: format,
                                    destinationSize: down,
                                    scalar: { ResizeArea.scalar($0.source, $0.destination) },
                                    simd: { ResizeArea.simd($0.source, $0.destination) }))
        }
        list.append(KernelEntry(name: "resize.bilinear.3/2.gray8", source: .gray8, destination: .gray8, destinationSize: up,
                                scalar: { ResizeBilinear.scalar($0.source, $0.destination) },
                                simd: { ResizeBilinear.simd($0.source, $0.destination) }))
        list.append(KernelEntry(name: "resize.area.1/2.nv12", source: .nv12, destination: .nv12, destinationSize: half,
                                scalar: { ResizeArea.scalar($0.source, $0.destination) },
                                simd: { ResizeArea.simd($0.source, $0.destination) }))
        // A 1/9 reduction: 10 taps a column, over `ResizeArea`'s strip limit (7), so its row path.
        let ninth: @Sendable (Int, Int) -> (width: Int, height: Int) = { (max(1, $0 / 9), max(1, $1 / 9)) }
        list.append(KernelEntry(name: "resize.area.1/9.gray8", source: .gray8, destination: .gray8, destinationSize: ninth,
                                scalar: { ResizeArea.scalar($0.source, $0.destination) },
                                simd: { ResizeArea.simd($0.source, $0.destination) }))
        // Exact halvings of one-byte planes (the live mesh's half-resolution frame) take their own SIMD rows.
        for format in [PixelFormat.i420, .gray8] {
            list.append(KernelEntry(name: "resize.area.1/2.\(format.name)", source: format, destination: format, destinationSize: half,
                                    scalar: { ResizeArea.scalar($0.source, $0.destination) },
                                    simd: { ResizeArea.simd($0.source, $0.destination) }))
        }
        return list
    }()

    /// Crop (the centre 3/4, a view then a copy), mirror and the three rotations.
    static let geometry: [KernelEntry] = {
        let inner: @Sendable (Int, Int) -> (width: Int, height: Int) = { (max(1, $0 * 3 / 4), max(1, $1 * 3 / 4)) }
        var list: [KernelEntry] = []
        for format in [PixelFormat.gray8, .rgb888, .xrgb8888, .i420] {
            let crop: @Sendable (KernelArguments, KernelVariant) -> Void = { a, variant in
                let w = a.destination.width, h = a.destination.height
                let x = (a.source.width - w) / 2 & ~1, y = (a.source.height - h) / 2 & ~1
                let view = a.source.cropped(x: x, y: y, width: w, height: h)
                variant == .scalar ? CopyPlane.scalar(view, a.destination) : CopyPlane.simd(view, a.destination)
            }
            list.append(KernelEntry(name: "crop.copy.\(format.name)", source: format, destination: format, destinationSize: inner,
                                    scalar: { crop($0, .scalar) }, simd: { crop($0, .simd) }))
        }
        for format in [PixelFormat.gray8, .rgb888, .xrgb8888] {
            list.append(KernelEntry(name: "mirror.\(format.name)", source: format, destination: format,
                                    scalar: { Mirror.scalar($0.source, $0.destination) },
                                    simd: { Mirror.simd($0.source, $0.destination) }))
            for rotation in Rotation.allCases {
                list.append(KernelEntry(name: "rotate.\(rotation.rawValue).\(format.name)", source: format, destination: format,
                                        destinationSize: { rotation.rotatedSize(width: $0, height: $1) },
                                        scalar: { Rotate.scalar($0.source, $0.destination, rotation) },
                                        simd: { Rotate.simd($0.source, $0.destination, rotation) }))
            }
        }
        list.append(KernelEntry(name: "rotate.90.i420", source: .i420, destination: .i420,
                                destinationSize: { Rotation.degrees90.rotatedSize(width: $0, height: $1) },
                                scalar: { Rotate.scalar($0.source, $0.destination, .degrees90) },
                                simd: { Rotate.simd($0.source, $0.destination, .degrees90) }))
        return list
    }()

    /// Alpha blend (source over background through the mask) and fill (an arbitrary colour).
    static let compositing: [KernelEntry] = [PixelFormat.gray8, .rgb888, .xrgb8888].flatMap { format in
        [
            KernelEntry(name: "blend.\(format.name)", source: format, destination: format, usesBackgroundAndMask: true,
                        scalar: { blend($0, .scalar) }, simd: { blend($0, .simd) }),
            KernelEntry(name: "fill.\(format.name)", source: format, destination: format,
                        scalar: { Fill.scalar($0.destination.planes.0, value: 0xFF3C_A05A) },
                        simd: { Fill.simd($0.destination.planes.0, value: 0xFF3C_A05A) }),
        ]
    }

    static func blend(_ a: KernelArguments, _ variant: KernelVariant) {
        guard let background = a.background, let mask = a.mask else {
            preconditionFailure("blend needs a background and a mask")
        }
        switch variant {
        case .scalar: AlphaBlend.scalar(foreground: a.source, background: background, mask: mask, destination: a.destination)
        case .simd: AlphaBlend.simd(foreground: a.source, background: background, mask: mask, destination: a.destination)
        }
    }
}
