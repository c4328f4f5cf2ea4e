import ImageCore
import VisionKernels

/// Adapters from Vision's per-frame kernels (the VisionKernels target) to conformance kernels.
///
/// The capture-quality kernels (`QualityKernelTable.all`), the tensor warp and the mask warp
/// have a scalar reference and a SIMD variant that must agree bit for bit, the model-input sampler a
/// table-driven twin that must too. The others have one implementation each and are checked
/// by checksum only: the golden file holds the x86-64 result and aarch64 must reproduce it, which
/// covers their float arithmetic too (IEEE operations only, no library calls, no contraction).
public enum VisionKernelsConformance {
    public static var conformance: [ConformanceKernel] {
        QualityKernelTable.all.map { quality($0) }
            + [guidedFilter, maskWarp, modelInputSampler, tensorWarp, temporalStabilizer, lumaSampler, boxBlur,
               colorGuidedFilter]
    }

    static func words(_ p: Plane) -> UnsafeMutableBufferPointer<UInt32> {
        UnsafeMutableBufferPointer(start: p.base.assumingMemoryBound(to: UInt32.self), count: p.width)
    }

    static func bytes(_ p: Plane) -> UnsafeMutablePointer<UInt8> { p.base.assumingMemoryBound(to: UInt8.self) }

    static func floats(_ p: Plane) -> UnsafeMutableBufferPointer<Float> {
        UnsafeMutableBufferPointer(start: p.base.assumingMemoryBound(to: Float.self), count: p.width)
    }

    static let formats: [PixelFormat] = [.rgb888, .xrgb8888, .gray8, .i420, .nv12]

    /// Seeded planes of a `width`×`height` image of `format`.
    static func image(_ format: PixelFormat, _ width: Int, _ height: Int, slack: Int,
                      _ random: inout ConformanceRandom) -> (planes: [TestPlane], image: Image) {
        let planes = ImageCoreKernels.planes(format, width, height, slack: slack, &random)
        return (planes, ImageCoreKernels.image(format, width, height, planes.map { $0.plane }, from: 0))
    }

    static func copy(_ from: Plane, _ to: Plane) {
        for y in 0..<from.height { to.row(y).update(from: from.row(y), count: from.rowBytes) }
    }

    // MARK: Capture quality (scalar reference + SIMD)

    /// Two Gray8 planes, a rectangle inside them (away from the borders where there is room),
    /// one output row of words. LaplacianBlocks takes whole planes whose sides are multiples of 8.
    static func quality(_ entry: QualityKernelEntry) -> ConformanceKernel {
        let blocks = entry.name.utf8.elementsEqual("quality.laplacianBlocks".utf8)
        var cases: [ConformanceCase] = []
        if blocks {
            for (w, h) in [(16, 16), (24, 16), (40, 24), (64, 48), (136, 24), (648, 16)] {
                cases.append(ConformanceCase(width: w, height: h, slack: 0))
                cases.append(ConformanceCase(width: w, height: h, slack: 7))
            }
        } else {
            cases = ConformanceCase.standard
            cases.append(ConformanceCase(width: 200, height: 150, slack: 3))
            // Rows of more than 128 16-pixel steps (AbsoluteDeviationSum's UInt16 partial sums flush).
            cases.append(ConformanceCase(width: 2100, height: 3, slack: 1))
        }
        let rect: @Sendable (Int, Int) -> PixelRect = { w, h in
            let x0 = w > 2 ? 1 : 0, y0 = h > 2 ? 1 : 0
            let x1 = w > 3 ? w - 1 : w
            let y1 = min(h, y0 + (1 << 16) / max(1, x1 - x0))
            return PixelRect(x0: x0, y0: y0, x1: x1, y1: y1)
        }
        return ConformanceKernel(name: entry.name, cases: cases, benchCase: ConformanceCase(width: 320, height: 240, slack: 0),
                                 variantNames: ["scalar", "simd"]) { c, r in
            let a = TestPlane(width: c.width, height: c.height, bytesPerPixel: 1, slack: c.slack, random: &r)
            let b = TestPlane(width: c.width, height: c.height, bytesPerPixel: 1, slack: c.slack + 1, random: &r)
            let out = PlaneShape(width: QualityKernelEntry.outputCount(width: c.width, height: c.height), height: 1, bytesPerPixel: 4)
            let region = rect(c.width, c.height)
            func call(_ variant: KernelVariant, _ name: String) -> ConformanceVariant {
                ConformanceVariant(name: name) { i, o in entry.run(variant, i[0], i[1], region, words(o[0])) }
            }
            return ConformanceInstance(inputs: [a, b], outputs: [out], reference: call(.scalar, "scalar"),
                                       variants: [call(.simd, "simd")])
        }
    }

    // MARK: Segmentation

    /// Guide and mask (Gray8) → filtered mask; `extra` picks radius and ε.
    static var guidedFilter: ConformanceKernel {
        let settings = [(1, 10), (4, 50), (8, 100), (16, 400)]
        var cases: [ConformanceCase] = []
        for (w, h, slack) in [(1, 1, 0), (7, 5, 3), (33, 17, 0), (64, 48, 5), (160, 120, 0)] {
            for e in 0..<settings.count {
                cases.append(ConformanceCase(label: "\(w)x\(h)+\(slack)r\(settings[e].0)", width: w, height: h, slack: slack, extra: e))
            }
        }
        return ConformanceKernel(name: "vision.guidedFilter", cases: cases,
                                 benchCase: ConformanceCase(label: "160x120r8", width: 160, height: 120, extra: 2),
                                 variantNames: ["reference"]) { c, r in
            let guide = TestPlane(width: c.width, height: c.height, bytesPerPixel: 1, slack: c.slack, random: &r)
            let mask = TestPlane(width: c.width, height: c.height, bytesPerPixel: 1, slack: c.slack + 2, random: &r)
            let (radius, epsilon) = settings[c.extra]
            let filter = GuidedFilter(maxWidth: c.width, maxHeight: c.height, radius: radius, epsilon: epsilon)
            let run = ConformanceVariant(name: "reference") { i, o in filter.run(guide: i[0], input: i[1], output: o[0]) }
            return ConformanceInstance(inputs: [guide, mask], outputs: [PlaneShape(width: c.width, height: c.height, bytesPerPixel: 1)],
                                       outputSlack: c.slack, reference: run, variants: [])
        }
    }

    /// A 32×24 model mask warped onto a frame of the case's size; `extra`: rotation (0–3) and
    /// fit (stretch, letterbox) of the mapping.
    static var maskWarp: ConformanceKernel {
        var cases: [ConformanceCase] = []
        for (w, h, slack) in [(1, 1, 0), (9, 7, 3), (48, 32, 0), (100, 75, 5)] {
            for e in 0..<8 { cases.append(ConformanceCase(label: "\(w)x\(h)+\(slack)m\(e)", width: w, height: h, slack: slack, extra: e)) }
        }
        return ConformanceKernel(name: "vision.maskWarp", cases: cases,
                                 benchCase: ConformanceCase(label: "320x240m0", width: 320, height: 240),
                                 variantNames: ["scalar", "simd"]) { c, r in
            let mask = TestPlane(width: 32, height: 24, bytesPerPixel: 1, slack: 0, random: &r)
            let mapping = MaskMapping(frameWidth: c.width, frameHeight: c.height, rotation: FrameRotation.allCases[c.extra % 4],
                                      modelWidth: 32, modelHeight: 24, fit: c.extra < 4 ? .stretch : .letterbox)
            let warp = MaskWarp(maxSide: max(c.width, c.height))
            let scalar = ConformanceVariant(name: "scalar") { i, o in
                warp.scalar(bytes(i[0]), maskStride: i[0].stride, mapping: mapping, into: o[0], xRange: 0..<c.width, yRange: 0..<c.height)
            }
            let simd = ConformanceVariant(name: "simd") { i, o in
                warp.simd(bytes(i[0]), maskStride: i[0].stride, mapping: mapping, into: o[0], xRange: 0..<c.width, yRange: 0..<c.height)
            }
            return ConformanceInstance(inputs: [mask], outputs: [PlaneShape(width: c.width, height: c.height, bytesPerPixel: 1)],
                                       outputSlack: c.slack, reference: scalar, variants: [simd])
        }
    }

    /// A frame of the case's size and format (`extra % 5`) sampled into a 16×12 float input and
    /// its luma; `extra / 5`: rotation, fit, taps, YUV range.
    static var modelInputSampler: ConformanceKernel {
        var cases: [ConformanceCase] = []
        for (w, h, slack) in [(2, 2, 0), (9, 7, 3), (40, 30, 0), (100, 75, 5)] {
            for e in 0..<20 { cases.append(ConformanceCase(label: "\(w)x\(h)+\(slack)m\(e)", width: w, height: h, slack: slack, extra: e)) }
        }
        return ConformanceKernel(name: "vision.modelInputSampler", cases: cases,
                                 benchCase: ConformanceCase(label: "320x240m3", width: 320, height: 240, extra: 3),
                                 variantNames: ["reference", "tabled"]) { c, r in
            let format = formats[c.extra % 5], setting = c.extra / 5
            let frame = image(format, c.width, c.height, slack: c.slack, &r)
            let mapping = MaskMapping(frameWidth: c.width, frameHeight: c.height, rotation: FrameRotation.allCases[setting],
                                      modelWidth: 16, modelHeight: 12, fit: setting % 2 == 0 ? .stretch : .letterbox)
            let run = ConformanceVariant(name: "reference") { _, o in
                ModelInputSampler.fill(floats(o[0]), luma: bytes(o[1]), from: frame.image, mapping: mapping,
                                       taps: setting < 2 ? 1 : 3, yuvFullRange: setting != 3)
            }
            // The live segmenter's table-driven twin (I420/NV12; other formats fall through to `fill`).
            let tables = ModelInputTables(maxSide: 16, maxTaps: 4)
            let tabled = ConformanceVariant(name: "tabled") { _, o in
                ModelInputSampler.fillTabled(floats(o[0]), luma: bytes(o[1]), from: frame.image, mapping: mapping,
                                             taps: setting < 2 ? 1 : 3, yuvFullRange: setting != 3, tables: tables)
            }
            return ConformanceInstance(inputs: frame.planes,
                                       outputs: [PlaneShape(width: 16 * 12 * 3, height: 1, bytesPerPixel: 4),
                                                 PlaneShape(width: 16 * 12, height: 1, bytesPerPixel: 1)],
                                       reference: run, variants: [tabled])
        }
    }

    /// A frame of the case's size and format (`extra % 5`) warped into a 24×20 tensor through a
    /// rotated, scaled grid with seeded geometry (partly outside the frame); `extra / 5`: border,
    /// flip-like negative steps, box-filter taps.
    static var tensorWarp: ConformanceKernel {
        var cases: [ConformanceCase] = []
        for (w, h, slack) in [(1, 1, 0), (9, 7, 3), (40, 30, 0), (130, 90, 5)] {
            for e in 0..<20 { cases.append(ConformanceCase(label: "\(w)x\(h)+\(slack)t\(e)", width: w, height: h, slack: slack, extra: e)) }
        }
        return ConformanceKernel(name: "vision.tensorWarp", cases: cases,
                                 benchCase: ConformanceCase(label: "320x240t3", width: 320, height: 240, extra: 3),
                                 variantNames: ["scalar", "simd"]) { c, r in
            let format = formats[c.extra % 5], setting = c.extra / 5
            let frame = image(format, c.width, c.height, slack: c.slack, &r)
            // Rotation as a seeded unit vector (no trigonometry), scale around the frame size.
            let cs = Float.random(in: -1...1, using: &r), sn = (1 - cs * cs).squareRoot() * (r.next() & 1 == 0 ? 1 : -1)
            let scale = Float(max(c.width, c.height)) / 24 * Float.random(in: 0.6...(setting >= 2 ? 4 : 1.4), using: &r)
            let flip: Float = setting == 1 ? -1 : 1
            let grid = TensorGrid(originX: Float.random(in: -2...Float(c.width) + 2, using: &r),
                                  originY: Float.random(in: -2...Float(c.height) + 2, using: &r),
                                  ux: flip * cs * scale, uy: flip * sn * scale, vx: -sn * scale, vy: cs * scale,
                                  tapsU: TensorWarp.taps(scale), tapsV: TensorWarp.taps(scale))
            let range = setting % 2 == 0 ? TensorRange.minusOneToOne : TensorRange.zeroToOne
            let border: TensorBorder = setting == 0 || setting == 2 ? .zero : .replicate
            let matrix: YUVMatrix = setting == 3 ? .bt709Limited : .bt601Full
            let scalar = ConformanceVariant(name: "scalar") { _, o in
                TensorWarp.scalar(frame.image, grid: grid, into: floats(o[0]), width: 24, height: 20, range: range, border: border,
                                  matrix: matrix)
            }
            let simd = ConformanceVariant(name: "simd") { _, o in
                TensorWarp.simd(frame.image, grid: grid, into: floats(o[0]), width: 24, height: 20, range: range, border: border,
                                matrix: matrix)
            }
            return ConformanceInstance(inputs: frame.planes, outputs: [PlaneShape(width: 24 * 20 * 3, height: 1, bytesPerPixel: 4)],
                                       reference: scalar, variants: [simd])
        }
    }

    /// Two frames' masks and luma (`width` values each) through a fresh stabiliser: the second
    /// mask, stabilised against the first.
    static var temporalStabilizer: ConformanceKernel {
        var cases: [ConformanceCase] = []
        for n in [1, 7, 16, 33, 100, 1000] { cases.append(ConformanceCase(label: "n\(n)", width: n)) }
        return ConformanceKernel(name: "vision.temporalStabilizer", cases: cases,
                                 benchCase: ConformanceCase(label: "n36864", width: 256 * 144),
                                 variantNames: ["reference"]) { c, r in
            let n = c.width
            var inputs: [TestPlane] = []
            for _ in 0..<4 { inputs.append(TestPlane(count: n, elementSize: 1, random: &r)) }
            // Some pixels unchanged between the frames (where the history is kept most).
            for k in stride(from: 0, to: n, by: 3) {
                bytes(inputs[2].plane)[k] = bytes(inputs[0].plane)[k] &+ 3
                bytes(inputs[3].plane)[k] = bytes(inputs[1].plane)[k]
            }
            let stabilizer = TemporalStabilizer(count: n)
            let run = ConformanceVariant(name: "reference") { i, o in
                stabilizer.reset()
                copy(i[0], o[0])
                stabilizer.apply(mask: bytes(o[0]), luma: bytes(i[1]))
                copy(i[2], o[0])
                stabilizer.apply(mask: bytes(o[0]), luma: bytes(i[3]))
            }
            return ConformanceInstance(inputs: inputs, outputs: [PlaneShape(width: n, height: 1, bytesPerPixel: 1)],
                                       reference: run, variants: [])
        }
    }

    /// A frame of the case's size and format (`extra`) reduced to its luma at about 2/3 size.
    static var lumaSampler: ConformanceKernel {
        var cases: [ConformanceCase] = []
        for (w, h, slack) in [(1, 1, 0), (9, 7, 3), (40, 30, 0), (100, 75, 5)] {
            for e in 0..<5 { cases.append(ConformanceCase(label: "\(w)x\(h)+\(slack)f\(e)", width: w, height: h, slack: slack, extra: e)) }
        }
        return ConformanceKernel(name: "vision.lumaSampler", cases: cases,
                                 benchCase: ConformanceCase(label: "320x240f3", width: 320, height: 240, extra: 3),
                                 variantNames: ["reference"]) { c, r in
            let frame = image(formats[c.extra], c.width, c.height, slack: c.slack, &r)
            let run = ConformanceVariant(name: "reference") { _, o in LumaSampler.fill(o[0], from: frame.image) }
            return ConformanceInstance(inputs: frame.planes,
                                       outputs: [PlaneShape(width: max(1, c.width * 2 / 3), height: max(1, c.height * 2 / 3), bytesPerPixel: 1)],
                                       outputSlack: c.slack, reference: run, variants: [])
        }
    }

    /// A 1–4 channel plane (`extra % 4 + 1`) blurred in place; `extra / 4` picks the radius.
    static var boxBlur: ConformanceKernel {
        var cases: [ConformanceCase] = []
        for (w, h, slack) in [(1, 1, 0), (9, 7, 3), (40, 30, 0)] {
            for e in 0..<8 { cases.append(ConformanceCase(label: "\(w)x\(h)+\(slack)b\(e)", width: w, height: h, slack: slack, extra: e)) }
        }
        return ConformanceKernel(name: "vision.boxBlur", cases: cases,
                                 benchCase: ConformanceCase(label: "160x120b7", width: 160, height: 120, extra: 7),
                                 variantNames: ["reference"]) { c, r in
            let channels = c.extra % 4 + 1, radius = c.extra < 4 ? 1 : 6
            let input = TestPlane(width: c.width, height: c.height, bytesPerPixel: channels, slack: c.slack, random: &r)
            let scratch = TestPlane(count: max(c.width, c.height) * 4, elementSize: 1, random: &r)
            let run = ConformanceVariant(name: "reference") { i, o in
                copy(i[0], o[0])
                BoxBlur.run(o[0], radius: radius, passes: 3, scratch: bytes(scratch.plane))
            }
            return ConformanceInstance(inputs: [input], outputs: [PlaneShape(width: c.width, height: c.height, bytesPerPixel: channels)],
                                       outputSlack: c.slack, reference: run, variants: [])
        }
    }

    /// The still path's colour guided filter (not per frame, but it shares the frame sampling):
    /// an RGB888/XRGB8888/I420 frame and a mask at half size → a full-size mask.
    static var colorGuidedFilter: ConformanceKernel {
        var cases: [ConformanceCase] = []
        for (w, h, slack) in [(2, 2, 0), (9, 7, 3), (40, 30, 0)] {
            for e in 0..<3 { cases.append(ConformanceCase(label: "\(w)x\(h)+\(slack)f\(e)", width: w, height: h, slack: slack, extra: e)) }
        }
        return ConformanceKernel(name: "vision.colorGuidedFilter", cases: cases,
                                 benchCase: ConformanceCase(label: "160x120f2", width: 160, height: 120, extra: 2),
                                 variantNames: ["reference"]) { c, r in
            let format: PixelFormat = [.rgb888, .xrgb8888, .i420][c.extra]
            let frame = image(format, c.width, c.height, slack: c.slack, &r)
            let mask = TestPlane(width: max(1, c.width / 2), height: max(1, c.height / 2), bytesPerPixel: 1, slack: 1, random: &r)
            let run = ConformanceVariant(name: "reference") { _, o in
                ColorGuidedFilter.run(frame: frame.image, mask: mask.plane, destination: o[0], radius: 2, epsilon: 0.01)
            }
            return ConformanceInstance(inputs: frame.planes + [mask],
                                       outputs: [PlaneShape(width: c.width, height: c.height, bytesPerPixel: 1)],
                                       outputSlack: c.slack, reference: run, variants: [])
        }
    }
}
