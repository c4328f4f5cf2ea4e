import ImageCore

/// How 8-bit samples become model input values: `value = sample · scale + offset`.
public struct TensorRange: Sendable, Equatable {
    public var scale: Float
    public var offset: Float
    public init(scale: Float, offset: Float) { self.scale = scale; self.offset = offset }
    /// [-1, 1], as MediaPipe feeds BlazeFace.
    public static let minusOneToOne = TensorRange(scale: 2 / 255, offset: -1)
    /// [0, 1], as MediaPipe feeds the face mesh and iris models.
    public static let zeroToOne = TensorRange(scale: 1 / 255, offset: 0)
}

/// What a sample outside the image reads.
public enum TensorBorder: Sendable, Equatable {
    /// Black (MediaPipe's BORDER_ZERO letterbox for the detector).
    case zero
    /// The nearest edge pixel (MediaPipe's BORDER_REPLICATE for landmark crops).
    case replicate
}

/// ImageCore's `YUVMatrix` (Q14 fixed point) as float coefficients, for the sampler's
/// per-sample conversion.
struct YCbCrFloat {
    var yOffset: Float, yGain: Float, rV: Float, gU: Float, gV: Float, bU: Float
    init(_ m: YUVMatrix) {
        let q: Float = 1.0 / 16384
        yOffset = Float(m.yOffset); yGain = Float(m.yGain) * q
        rV = Float(m.rV) * q; gU = Float(m.gU) * q; gV = Float(m.gV) * q; bU = Float(m.bU) * q
    }
}

/// The sampling grid of a tensor in image pixels: where the centre of tensor pixel (0, 0) lies
/// (`originX`, `originY`, pixel-centre coordinates: pixel k covers k...k+1), the image step per
/// tensor column (`ux`, `uy`) and per tensor row (`vx`, `vy`), and how many box-filter taps
/// each tensor pixel averages along each axis. `TensorSampler` (Vision) builds it from a
/// rotated region; the trigonometry stays there, out of the per-pixel kernel.
public struct TensorGrid: Sendable, Equatable {
    public var originX: Float, originY: Float
    public var ux: Float, uy: Float
    public var vx: Float, vy: Float
    public var tapsU: Int, tapsV: Int

    public init(originX: Float, originY: Float, ux: Float, uy: Float, vx: Float, vy: Float, tapsU: Int, tapsV: Int) {
        self.originX = originX; self.originY = originY
        self.ux = ux; self.uy = uy; self.vx = vx; self.vy = vy
        self.tapsU = tapsU; self.tapsV = tapsV
    }
}

/// Fills a model's NHWC float input from an affine grid over an image (`TensorGrid`): bilinear
/// sampling, box-averaged over `tapsU`×`tapsV` taps (so a 12 MP photo does not alias into the
/// 128×128 detector input), reading RGB888, XRGB8888, Gray8, I420 or NV12 directly. YCbCr frames
/// are interpolated as Y, Cb and Cr and converted to RGB once per tensor pixel with ImageCore's
/// `YUVMatrix` coefficients (the camera's stream says which matrix applies); the conversion is
/// affine, so this equals converting every sample read except where a sample's RGB would clip.
/// Outside the image a `.zero` border reads black (YCbCr black for YCbCr frames).
///
/// The per-pixel half of MediaPipe's ImageToTensor step (`TensorSampler` in Vision is the
/// whole step). Two variants with one result, bit for bit: `scalar`, one tensor pixel at a time,
/// and `simd`, eight tensor pixels of a row per step in `SIMD8<Float>` lanes (the four neighbours
/// of each lane are gathered one by one; the interpolation and conversion are in lanes). Both
/// advance a row's sample position by `u` pixel by pixel (the SIMD variant fills its eight lane
/// positions so), and the arithmetic is IEEE operations in one order without library calls or
/// contraction, so the result is the same on x86-64 and aarch64. Foundation-free; allocates nothing.
public enum TensorWarp {
    /// Samples with `variant` (the SIMD twin unless the scalar reference is asked for).
    /// - Parameters:
    ///   - tensor: `width × height × 3` floats, row-major, RGB.
    @inlinable
    public static func sample(
        _ image: Image, grid: TensorGrid, into tensor: UnsafeMutableBufferPointer<Float>,
        width: Int, height: Int, range: TensorRange, border: TensorBorder, matrix: YUVMatrix = .bt601Full,
        variant: KernelVariant = .simd
    ) {
        switch variant {
        case .scalar: scalar(image, grid: grid, into: tensor, width: width, height: height, range: range, border: border, matrix: matrix)
        case .simd: simd(image, grid: grid, into: tensor, width: width, height: height, range: range, border: border, matrix: matrix)
        }
    }

    /// The reference: one tensor pixel at a time.
    @inline(never)
    public static func scalar(
        _ image: Image, grid: TensorGrid, into tensor: UnsafeMutableBufferPointer<Float>,
        width: Int, height: Int, range: TensorRange, border: TensorBorder, matrix: YUVMatrix = .bt601Full
    ) {
        dispatch(image, grid, tensor, width, height, range, border, matrix, vector: false)
    }

    /// Eight tensor pixels per step in `SIMD8<Float>` lanes; a row's tail goes through the reference.
    @inline(never)
    public static func simd(
        _ image: Image, grid: TensorGrid, into tensor: UnsafeMutableBufferPointer<Float>,
        width: Int, height: Int, range: TensorRange, border: TensorBorder, matrix: YUVMatrix = .bt601Full
    ) {
        dispatch(image, grid, tensor, width, height, range, border, matrix, vector: true)
    }

    @inline(__always)
    static func dispatch(
        _ image: Image, _ grid: TensorGrid, _ tensor: UnsafeMutableBufferPointer<Float>, _ width: Int, _ height: Int,
        _ range: TensorRange, _ border: TensorBorder, _ matrix: YUVMatrix, vector: Bool
    ) {
        precondition(tensor.count >= width * height * 3, "tensor smaller than width x height x 3")
        precondition(grid.tapsU >= 1 && grid.tapsV >= 1, "tensor grid without taps")
        guard let base = tensor.baseAddress, width > 0, height > 0 else { return }
        switch image.format {
        case .rgb888:
            let s = PackedSource(plane: image.luma, r: 0, g: 1, b: 2)
            vector ? warpSIMD(s, image, grid, base, width, height, range, border) : warp(s, image, grid, base, width, height, range, border)
        case .xrgb8888:
            let s = PackedSource(plane: image.luma, r: 2, g: 1, b: 0)
            vector ? warpSIMD(s, image, grid, base, width, height, range, border) : warp(s, image, grid, base, width, height, range, border)
        case .gray8:
            let s = GraySource(plane: image.luma)
            vector ? warpSIMD(s, image, grid, base, width, height, range, border) : warp(s, image, grid, base, width, height, range, border)
        case .i420:
            let s = YUVSource(y: image.planes.0, u: image.planes.1, v: image.planes.2, chromaStep: 1, vOffset: 0,
                              matrix: YCbCrFloat(matrix))
            vector ? warpSIMD(s, image, grid, base, width, height, range, border) : warp(s, image, grid, base, width, height, range, border)
        case .nv12:
            let s = YUVSource(y: image.planes.0, u: image.planes.1, v: image.planes.1, chromaStep: 2, vOffset: 1,
                              matrix: YCbCrFloat(matrix))
            vector ? warpSIMD(s, image, grid, base, width, height, range, border) : warp(s, image, grid, base, width, height, range, border)
        }
    }

    /// The tap offsets (in grid steps) and the averaging factor of a grid.
    @inline(always)
    static func tapOffset(_ t: Int, _ taps: Int) -> Float { (Float(t) + 0.5) / Float(taps) - 0.5 }

    /// Tensor pixels `x0..<x1` of a row, one at a time, from the running position `(px, py)` of
    /// pixel `x0` (advanced by `(ux, uy)` per pixel). Inlined into the SIMD loop too, for its row
    /// tail: no call inside a kernel's loops.
    @inline(always)
    static func warpRow<S: PixelSource>(
        _ source: S, _ grid: TensorGrid, _ out: UnsafeMutablePointer<Float>, px: inout Float, py: inout Float,
        from x0: Int, to x1: Int, _ maxX: Int, _ maxY: Int, _ range: TensorRange, _ zero: Bool
    ) {
        let tapsU = grid.tapsU, tapsV = grid.tapsV
        let inv = 1 / Float(tapsU * tapsV)
        var j = x0
        while j < x1 {
            var acc = SIMD3<Float>(repeating: 0)
            for tv in 0..<tapsV {
                for tu in 0..<tapsU {
                    let d = tapStep(grid, tu, tv)
                    acc += bilinear(source, px + d.ux + d.vx, py + d.uy + d.vy, maxX, maxY, zero)
                }
            }
            let rgb = source.rgb(acc * inv)
            let o = out + 3 * j
            o[0] = rgb.x * range.scale + range.offset
            o[1] = rgb.y * range.scale + range.offset
            o[2] = rgb.z * range.scale + range.offset
            px += grid.ux
            py += grid.uy
            j += 1
        }
    }

    /// Box-filter tap `(tu, tv)`'s offset from a pixel's position: `(fu·ux, fu·uy, fv·vx, fv·vy)`;
    /// the sample is at `(p.x + fu·ux) + fv·vx`, `(p.y + fu·uy) + fv·vy`.
    @inline(always)
    static func tapStep(_ grid: TensorGrid, _ tu: Int, _ tv: Int) -> (ux: Float, uy: Float, vx: Float, vy: Float) {
        tapStep(grid, tu, tv, grid.tapsU, grid.tapsV)
    }

    /// `tapStep` with the grid's tap counts given (`tapsU` = `grid.tapsU`, `tapsV` = `grid.tapsV`).
    @inline(always)
    static func tapStep(_ grid: TensorGrid, _ tu: Int, _ tv: Int, _ tapsU: Int, _ tapsV: Int) -> (ux: Float, uy: Float, vx: Float, vy: Float) {
        let fu = tapOffset(tu, tapsU), fv = tapOffset(tv, tapsV)
        return (fu * grid.ux, fu * grid.uy, fv * grid.vx, fv * grid.vy)
    }

    /// A row's starting position: the centre of tensor pixel (0, i) in pixel-corner coordinates.
    @inline(always)
    static func rowStart(_ grid: TensorGrid, _ i: Int) -> (Float, Float) {
        (grid.originX + Float(i) * grid.vx - 0.5, grid.originY + Float(i) * grid.vy - 0.5)
    }

    @inline(__always)
    static func warp<S: PixelSource>(
        _ source: S, _ image: Image, _ grid: TensorGrid, _ base: UnsafeMutablePointer<Float>,
        _ width: Int, _ height: Int, _ range: TensorRange, _ border: TensorBorder
    ) {
        let maxX = image.width - 1, maxY = image.height - 1
        for i in 0..<height {
            var (px, py) = rowStart(grid, i)
            warpRow(source, grid, base + i * width * 3, px: &px, py: &py, from: 0, to: width, maxX, maxY, range, border == .zero)
        }
    }

    /// The SIMD variant, with the live cases' tap counts as constants (1×1: a face region up to
    /// 1.5 × the tensor side; 2×2: up to 2×), so their tap loops and offsets fold away; other
    /// counts run the same code with them as variables. The same operations either way.
    @inline(never)
    static func warpSIMD<S: PixelSource>(
        _ source: S, _ image: Image, _ grid: TensorGrid, _ base: UnsafeMutablePointer<Float>,
        _ width: Int, _ height: Int, _ range: TensorRange, _ border: TensorBorder
    ) {
        switch (grid.tapsU, grid.tapsV) {
        case (1, 1): warpRowsSIMD(source, image, grid, base, width, height, range, border, tapsU: 1, tapsV: 1)
        case (2, 2): warpRowsSIMD(source, image, grid, base, width, height, range, border, tapsU: 2, tapsV: 2)
        default: warpRowsSIMD(source, image, grid, base, width, height, range, border, tapsU: grid.tapsU, tapsV: grid.tapsV)
        }
    }

    @inline(__always)
    static func warpRowsSIMD<S: PixelSource>(
        _ source: S, _ image: Image, _ grid: TensorGrid, _ base: UnsafeMutablePointer<Float>,
        _ width: Int, _ height: Int, _ range: TensorRange, _ border: TensorBorder, tapsU: Int, tapsV: Int
    ) {
        let maxX = image.width - 1, maxY = image.height - 1
        let zero = border == .zero
        let inv = SIMD8<Float>(repeating: 1 / Float(tapsU * tapsV))
        let scale = SIMD8<Float>(repeating: range.scale), offset = SIMD8<Float>(repeating: range.offset)
        // The step in lanes j and up, 0 below (`lanesFrom`).
        let sx1 = lanesFrom(1, grid.ux), sx2 = lanesFrom(2, grid.ux), sx3 = lanesFrom(3, grid.ux), sx4 = lanesFrom(4, grid.ux)
        let sx5 = lanesFrom(5, grid.ux), sx6 = lanesFrom(6, grid.ux), sx7 = lanesFrom(7, grid.ux)
        let sy1 = lanesFrom(1, grid.uy), sy2 = lanesFrom(2, grid.uy), sy3 = lanesFrom(3, grid.uy), sy4 = lanesFrom(4, grid.uy)
        let sy5 = lanesFrom(5, grid.uy), sy6 = lanesFrom(6, grid.uy), sy7 = lanesFrom(7, grid.uy)
        for i in 0..<height {
            let out = base + i * width * 3
            var (px, py) = rowStart(grid, i)
            var j = 0
            while j + 8 <= width {
                // The eight running positions, advanced one pixel at a time as the reference does:
                // seven vector adds, the j-th adding the step to lanes j and up (lane k gets k
                // additions in order; adding 0 leaves a position as it is), not eight lane inserts.
                var lx = SIMD8<Float>(repeating: px), ly = SIMD8<Float>(repeating: py)
                lx += sx1; ly += sy1; lx += sx2; ly += sy2; lx += sx3; ly += sy3; lx += sx4; ly += sy4
                lx += sx5; ly += sy5; lx += sx6; ly += sy6; lx += sx7; ly += sy7
                px = lx[7] + grid.ux; py = ly[7] + grid.uy
                var a0 = SIMD8<Float>(repeating: 0), a1 = a0, a2 = a0
                for tv in 0..<tapsV {
                    for tu in 0..<tapsU {
                        let d = tapStep(grid, tu, tv, tapsU, tapsV)
                        let s = bilinear8(source, lx + d.ux + d.vx, ly + d.uy + d.vy, maxX, maxY, zero)
                        a0 += s.0; a1 += s.1; a2 += s.2
                    }
                }
                let rgb = source.rgb8(a0 * inv, a1 * inv, a2 * inv)
                let r = rgb.0 * scale + offset, g = rgb.1 * scale + offset, b = rgb.2 * scale + offset
                let o = UnsafeMutableRawPointer(out + 3 * j)
                #if arch(x86_64)
                // x86-64: the eight pixels' R, G and B vectors stored as they are, where their 24
                // interleaved values go; `interleaveInPlace` reorders them after the row. Shuffled
                // here, LLVM pushed the shuffles back through the interpolation and conversion
                // (much of it then on single lanes); across the store and reload it cannot.
                o.storeBytes(of: r, as: SIMD8<Float>.self)
                o.storeBytes(of: g, toByteOffset: 32, as: SIMD8<Float>.self)
                o.storeBytes(of: b, toByteOffset: 64, as: SIMD8<Float>.self)
                #else
                // RGB interleaved by constant-index lane constructors (vector shuffles), three stores.
                o.storeBytes(of: SIMD8(r[0], g[0], b[0], r[1], g[1], b[1], r[2], g[2]), as: SIMD8<Float>.self)
                o.storeBytes(of: SIMD8(b[2], r[3], g[3], b[3], r[4], g[4], b[4], r[5]), toByteOffset: 32, as: SIMD8<Float>.self)
                o.storeBytes(of: SIMD8(g[5], b[5], r[6], g[6], b[6], r[7], g[7], b[7]), toByteOffset: 64, as: SIMD8<Float>.self)
                #endif
                j += 8
            }
            #if arch(x86_64)
            interleaveInPlace(out, pixels: j)
            #endif
            warpRow(source, grid, out, px: &px, py: &py, from: j, to: width, maxX, maxY, range, zero)
        }
    }

    /// Pixels `0..<pixels` (a multiple of 8) of a row stored as blocks of eight R, eight G and eight
    /// B floats, each block rewritten in place as the eight pixels' interleaved RGB.
    @inline(__always)
    static func interleaveInPlace(_ out: UnsafeMutablePointer<Float>, pixels: Int) {
        var j = 0
        while j < pixels {
            let o = UnsafeMutableRawPointer(out + 3 * j)
            let r = o.loadUnaligned(as: SIMD8<Float>.self), g = o.loadUnaligned(fromByteOffset: 32, as: SIMD8<Float>.self)
            let b = o.loadUnaligned(fromByteOffset: 64, as: SIMD8<Float>.self)
            o.storeBytes(of: SIMD8(r[0], g[0], b[0], r[1], g[1], b[1], r[2], g[2]), as: SIMD8<Float>.self)
            o.storeBytes(of: SIMD8(b[2], r[3], g[3], b[3], r[4], g[4], b[4], r[5]), toByteOffset: 32, as: SIMD8<Float>.self)
            o.storeBytes(of: SIMD8(g[5], b[5], r[6], g[6], b[6], r[7], g[7], b[7]), toByteOffset: 64, as: SIMD8<Float>.self)
            j += 8
        }
    }

    /// `v` in lanes `j` and up, 0 in the lanes below.
    @inline(__always)
    static func lanesFrom(_ j: Int, _ v: Float) -> SIMD8<Float> {
        var r = SIMD8<Float>(repeating: v)
        for k in 0..<j { r[k] = 0 }
        return r
    }

    /// Box-filter taps along an axis whose image step per tensor pixel is `step`: 1 up to 1.5×
    /// shrink, then ⌈step⌉, at most 4.
    @inline(__always) public static func taps(_ step: Float) -> Int {
        step <= 1.5 ? 1 : min(4, Int(step.rounded(.up)))
    }

    /// The four neighbours of `(x, y)` (the pixel at or left/above of it, then right, below,
    /// below-right) and the fractions; far outside the image all four are one border pixel.
    @inline(always)
    static func neighbours<S: PixelSource>(_ source: S, _ x: Float, _ y: Float, _ maxX: Int, _ maxY: Int, _ zero: Bool)
        -> (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>, SIMD3<Float>, Float, Float) {
        let fx = x.rounded(.down), fy = y.rounded(.down)
        let ax = x - fx, ay = y - fy
        // Far outside: avoid Int overflow on absurd regions.
        guard fx > -2, fy > -2, fx < Float(maxX + 2), fy < Float(maxY + 2) else {
            let p = zero ? source.black
                : source.fetch(min(max(Int(max(min(fx, 1e7), -1e7)), 0), maxX), min(max(Int(max(min(fy, 1e7), -1e7)), 0), maxY))
            return (p, p, p, p, 0, 0)
        }
        let x0 = Int(fx), y0 = Int(fy)
        return (fetch(source, x0, y0, maxX, maxY, zero), fetch(source, x0 + 1, y0, maxX, maxY, zero),
                fetch(source, x0, y0 + 1, maxX, maxY, zero), fetch(source, x0 + 1, y0 + 1, maxX, maxY, zero), ax, ay)
    }

    @inline(always)
    static func bilinear<S: PixelSource>(_ source: S, _ x: Float, _ y: Float, _ maxX: Int, _ maxY: Int, _ zero: Bool) -> SIMD3<Float> {
        let (p00, p10, p01, p11, ax, ay) = neighbours(source, x, y, maxX, maxY, zero)
        let top = p00 + (p10 - p00) * ax
        let bottom = p01 + (p11 - p01) * ax
        return top + (bottom - top) * ay
    }

    /// `bilinear` for eight positions: neighbours gathered lane by lane, the interpolation in lanes
    /// (the same operations in the same order, so each lane equals `bilinear`).
    @inline(always)
    static func bilinear8<S: PixelSource>(_ source: S, _ x: SIMD8<Float>, _ y: SIMD8<Float>, _ maxX: Int, _ maxY: Int, _ zero: Bool)
        -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
        var p00 = (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>()), p10 = p00, p01 = p00, p11 = p00
        var ax = SIMD8<Float>(), ay = SIMD8<Float>()
        let fx = x.rounded(.down), fy = y.rounded(.down)
        // All eight 2×2 neighbourhoods inside the image (the usual case): no border checks, and
        // the fractions and indices in lanes; the same values `neighbours` gives.
        let inside = (fx .>= 0) .& (fx .< Float(maxX)) .& (fy .>= 0) .& (fy .< Float(maxY))
        if all(inside) {
            ax = x - fx
            ay = y - fy
            #if arch(arm64)
            if S.readsWords {
                // aarch64, YCbCr frames (the live mesh warp): `quad8` as on x86-64, its per-lane
                // word reads one `ld1` lane load each, the offsets in integer lanes without the
                // checked conversions and multiplies of `gatherBytes`: 7.00 → 4.69 M instructions
                // of the mesh warp per frame on cortex-a72 (FrameBench), against the byte gather.
                (p00, p10, p01, p11) = source.quad8(fx, fy)
            } else {
                // aarch64: the bytes gathered lane by lane with plain byte stores into 96 bytes of
                // stack (`QuadLanes.Bytes`), then loaded as byte vectors, widened and converted in
                // lanes: the same floats as converting each read. Inserting each read into a vector
                // lane compiles there to a spill of the vector, the byte store and a reload per read
                // (three memory operations instead of one): 8.99 → 7.27 M instructions of the mesh
                // warp per frame on cortex-a72 (FrameBench).
                var q: QuadLanes.Bytes = (SIMD32(), SIMD32(), SIMD32())
                withUnsafeMutableBytes(of: &q) { raw in
                    let b = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    for k in 0..<8 {
                        // Lane by lane: SIMD8<Int32>(fx) is a generic, per-element slow path in Swift 6.3.
                        source.gatherBytes(Int(fx[k]), Int(fy[k]), lane: k, into: b)
                    }
                    @inline(__always) func lanes(_ n: Int) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
                        (QuadLanes.floats(raw.loadUnaligned(fromByteOffset: 24 * n, as: SIMD8<UInt8>.self)),
                         QuadLanes.floats(raw.loadUnaligned(fromByteOffset: 24 * n + 8, as: SIMD8<UInt8>.self)),
                         QuadLanes.floats(raw.loadUnaligned(fromByteOffset: 24 * n + 16, as: SIMD8<UInt8>.self)))
                    }
                    p00 = lanes(0); p10 = lanes(1); p01 = lanes(2); p11 = lanes(3)
                }
            }
            #else
            // x86-64: `quad8` (RGB and gray: a byte insert per read, which x86 does from memory in
            // one instruction, byte stores and a vector reload measured slower there; YCbCr: one
            // 32-bit read per plane row and lane), widened and converted in lanes: the same floats
            // as converting each read.
            (p00, p10, p01, p11) = source.quad8(fx, fy)
            #endif
        } else {
            for k in 0..<8 {
                let n = neighbours(source, x[k], y[k], maxX, maxY, zero)
                p00.0[k] = n.0.x; p00.1[k] = n.0.y; p00.2[k] = n.0.z
                p10.0[k] = n.1.x; p10.1[k] = n.1.y; p10.2[k] = n.1.z
                p01.0[k] = n.2.x; p01.1[k] = n.2.y; p01.2[k] = n.2.z
                p11.0[k] = n.3.x; p11.1[k] = n.3.y; p11.2[k] = n.3.z
                ax[k] = n.4; ay[k] = n.5
            }
        }
        @inline(always) func lerp(_ a: SIMD8<Float>, _ b: SIMD8<Float>, _ c: SIMD8<Float>, _ d: SIMD8<Float>) -> SIMD8<Float> {
            let top = a + (b - a) * ax
            let bottom = c + (d - c) * ax
            return top + (bottom - top) * ay
        }
        return (lerp(p00.0, p10.0, p01.0, p11.0), lerp(p00.1, p10.1, p01.1, p11.1), lerp(p00.2, p10.2, p01.2, p11.2))
    }

    @inline(always)
    static func fetch<S: PixelSource>(_ source: S, _ x: Int, _ y: Int, _ maxX: Int, _ maxY: Int, _ zero: Bool) -> SIMD3<Float> {
        if x < 0 || y < 0 || x > maxX || y > maxY {
            if zero { return source.black }
            return source.fetch(min(max(x, 0), maxX), min(max(y, 0), maxY))
        }
        return source.fetch(x, y)
    }
}

/// Reads one pixel's channels as floats in 0...255 (RGB, or Y Cb Cr for YCbCr frames), and turns
/// averaged channels into RGB. Generic (not existential) so the warp specialises.
protocol PixelSource {
    func fetch(_ x: Int, _ y: Int) -> SIMD3<Float>
    /// `fetch` of (x, y), (x+1, y), (x, y+1), (x+1, y+1), all inside the image.
    func quad(_ x: Int, _ y: Int) -> (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)
    /// `quad`'s channel bytes into lane `k` of `q`.
    func gather(_ x: Int, _ y: Int, lane k: Int, into q: inout QuadLanes)
    /// `quad`'s channel bytes into lane `k` of `q` (`QuadLanes.Bytes`' layout: byte
    /// `24·neighbour + 8·channel + k`).
    func gatherBytes(_ x: Int, _ y: Int, lane k: Int, into q: UnsafeMutablePointer<UInt8>)
    /// `gather` of eight lanes at floored positions `(fx[k], fy[k])`, all with their 2×2
    /// neighbourhood inside the image.
    func gather8(_ fx: SIMD8<Float>, _ fy: SIMD8<Float>, into q: inout QuadLanes)
    /// x86-64: `gather8`'s four neighbours as floats (top-left, top-right, bottom-left,
    /// bottom-right; channels 0, 1, 2).
    func quad8(_ fx: SIMD8<Float>, _ fy: SIMD8<Float>) -> (Lanes3, Lanes3, Lanes3, Lanes3)
    /// The channels of black (a `.zero` border's pixel).
    var black: SIMD3<Float> { get }
    /// Whether `quad8` reads whole words per lane (YCbCr frames), so aarch64 uses it too: its
    /// lane loads (`ld1 {v.s}[k]`) are one instruction each there, where the byte gather is not.
    static var readsWords: Bool { get }
    /// RGB in 0...255 from channels `c`.
    func rgb(_ c: SIMD3<Float>) -> SIMD3<Float>
    /// `rgb` for eight pixels, lane by lane the same operations.
    func rgb8(_ c0: SIMD8<Float>, _ c1: SIMD8<Float>, _ c2: SIMD8<Float>) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)
}

/// Three channels in eight lanes.
typealias Lanes3 = (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)

extension PixelSource {
    static var readsWords: Bool { false }

    /// Lane by lane (`SIMD8<Int32>(fx)` is a generic, per-element slow path in Swift 6.3).
    @inline(always) func gather8(_ fx: SIMD8<Float>, _ fy: SIMD8<Float>, into q: inout QuadLanes) {
        for k in 0..<8 { gather(Int(fx[k]), Int(fy[k]), lane: k, into: &q) }
    }

    /// The bytes gathered lane by lane into byte vectors (one insert per read, which x86 does from
    /// memory in one instruction), then widened and converted in lanes: the same floats as
    /// converting each read.
    @inline(always) func quad8(_ fx: SIMD8<Float>, _ fy: SIMD8<Float>) -> (Lanes3, Lanes3, Lanes3, Lanes3) {
        var q = QuadLanes()
        gather8(fx, fy, into: &q)
        return ((QuadLanes.floats(q.c00.0), QuadLanes.floats(q.c00.1), QuadLanes.floats(q.c00.2)),
                (QuadLanes.floats(q.c10.0), QuadLanes.floats(q.c10.1), QuadLanes.floats(q.c10.2)),
                (QuadLanes.floats(q.c01.0), QuadLanes.floats(q.c01.1), QuadLanes.floats(q.c01.2)),
                (QuadLanes.floats(q.c11.0), QuadLanes.floats(q.c11.1), QuadLanes.floats(q.c11.2)))
    }
}

/// Whole non-negative floats below 2^23 as integers, in lanes: the float plus 2^23 holds the
/// integer in its low mantissa bits (exact), one add and one mask instead of eight conversions.
@inline(always)
func wholeLanes(_ v: SIMD8<Float>) -> SIMD8<UInt32> {
    unsafeBitCast(v + SIMD8<Float>(repeating: 8_388_608), to: SIMD8<UInt32>.self) & SIMD8<UInt32>(repeating: 0x7F_FFFF)
}

struct PackedSource: PixelSource {
    let plane: Plane
    let r: Int, g: Int, b: Int
    @inline(always) func fetch(_ x: Int, _ y: Int) -> SIMD3<Float> {
        let p = plane.row(y) + x * plane.bytesPerPixel
        return SIMD3(Float(p[r]), Float(p[g]), Float(p[b]))
    }
    @inline(always) func quad(_ x: Int, _ y: Int) -> (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) {
        let n = plane.bytesPerPixel
        let a = plane.row(y) + x * n, c = plane.row(y + 1) + x * n
        return (SIMD3(Float(a[r]), Float(a[g]), Float(a[b])), SIMD3(Float(a[n + r]), Float(a[n + g]), Float(a[n + b])),
                SIMD3(Float(c[r]), Float(c[g]), Float(c[b])), SIMD3(Float(c[n + r]), Float(c[n + g]), Float(c[n + b])))
    }
    @inline(always) func gather(_ x: Int, _ y: Int, lane k: Int, into q: inout QuadLanes) {
        let n = plane.bytesPerPixel
        let a = plane.row(y) + x * n, c = plane.row(y + 1) + x * n
        q.c00.0[k] = a[r]; q.c00.1[k] = a[g]; q.c00.2[k] = a[b]
        q.c10.0[k] = a[n + r]; q.c10.1[k] = a[n + g]; q.c10.2[k] = a[n + b]
        q.c01.0[k] = c[r]; q.c01.1[k] = c[g]; q.c01.2[k] = c[b]
        q.c11.0[k] = c[n + r]; q.c11.1[k] = c[n + g]; q.c11.2[k] = c[n + b]
    }
    @inline(always) func gatherBytes(_ x: Int, _ y: Int, lane k: Int, into q: UnsafeMutablePointer<UInt8>) {
        let n = plane.bytesPerPixel
        let a = plane.row(y) + x * n, c = plane.row(y + 1) + x * n
        q[k] = a[r]; q[8 + k] = a[g]; q[16 + k] = a[b]
        q[24 + k] = a[n + r]; q[32 + k] = a[n + g]; q[40 + k] = a[n + b]
        q[48 + k] = c[r]; q[56 + k] = c[g]; q[64 + k] = c[b]
        q[72 + k] = c[n + r]; q[80 + k] = c[n + g]; q[88 + k] = c[n + b]
    }
    var black: SIMD3<Float> { SIMD3(repeating: 0) }
    @inline(always) func rgb(_ c: SIMD3<Float>) -> SIMD3<Float> { c }
    @inline(always) func rgb8(_ c0: SIMD8<Float>, _ c1: SIMD8<Float>, _ c2: SIMD8<Float>) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
        (c0, c1, c2)
    }
}

struct GraySource: PixelSource {
    let plane: Plane
    @inline(always) func fetch(_ x: Int, _ y: Int) -> SIMD3<Float> {
        SIMD3(repeating: Float(plane.row(y)[x]))
    }
    @inline(always) func quad(_ x: Int, _ y: Int) -> (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) {
        let a = plane.row(y) + x, c = plane.row(y + 1) + x
        return (SIMD3(repeating: Float(a[0])), SIMD3(repeating: Float(a[1])), SIMD3(repeating: Float(c[0])), SIMD3(repeating: Float(c[1])))
    }
    @inline(always) func gather(_ x: Int, _ y: Int, lane k: Int, into q: inout QuadLanes) {
        let a = plane.row(y) + x, c = plane.row(y + 1) + x
        q.c00.0[k] = a[0]; q.c10.0[k] = a[1]; q.c01.0[k] = c[0]; q.c11.0[k] = c[1]
        q.c00.1[k] = a[0]; q.c10.1[k] = a[1]; q.c01.1[k] = c[0]; q.c11.1[k] = c[1]
        q.c00.2[k] = a[0]; q.c10.2[k] = a[1]; q.c01.2[k] = c[0]; q.c11.2[k] = c[1]
    }
    @inline(always) func gatherBytes(_ x: Int, _ y: Int, lane k: Int, into q: UnsafeMutablePointer<UInt8>) {
        let a = plane.row(y) + x, c = plane.row(y + 1) + x
        let a0 = a[0], a1 = a[1], c0 = c[0], c1 = c[1]
        q[k] = a0; q[8 + k] = a0; q[16 + k] = a0
        q[24 + k] = a1; q[32 + k] = a1; q[40 + k] = a1
        q[48 + k] = c0; q[56 + k] = c0; q[64 + k] = c0
        q[72 + k] = c1; q[80 + k] = c1; q[88 + k] = c1
    }
    var black: SIMD3<Float> { SIMD3(repeating: 0) }
    @inline(always) func rgb(_ c: SIMD3<Float>) -> SIMD3<Float> { c }
    @inline(always) func rgb8(_ c0: SIMD8<Float>, _ c1: SIMD8<Float>, _ c2: SIMD8<Float>) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
        (c0, c1, c2)
    }
}

/// Y, Cb, Cr (Cb and Cr of the 2×2 block the pixel is in); converted after interpolation.
struct YUVSource: PixelSource {
    static var readsWords: Bool { true }
    let y: Plane, u: Plane, v: Plane
    let chromaStep: Int, vOffset: Int
    let matrix: YCbCrFloat
    @inline(always) func fetch(_ px: Int, _ py: Int) -> SIMD3<Float> {
        let cx = (px >> 1) * chromaStep, cy = py >> 1
        return SIMD3(Float(y.row(py)[px]), Float(u.row(cy)[cx]), Float(v.row(cy)[cx + vOffset]))
    }
    @inline(always) func quad(_ px: Int, _ py: Int) -> (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) {
        let y0 = y.row(py) + px, y1 = y.row(py + 1) + px
        let c0 = (px >> 1) * chromaStep, c1 = ((px + 1) >> 1) * chromaStep
        let u0 = u.row(py >> 1), u1 = u.row((py + 1) >> 1)
        let v0 = v.row(py >> 1) + vOffset, v1 = v.row((py + 1) >> 1) + vOffset
        return (SIMD3(Float(y0[0]), Float(u0[c0]), Float(v0[c0])), SIMD3(Float(y0[1]), Float(u0[c1]), Float(v0[c1])),
                SIMD3(Float(y1[0]), Float(u1[c0]), Float(v1[c0])), SIMD3(Float(y1[1]), Float(u1[c1]), Float(v1[c1])))
    }
    @inline(always) func gather(_ px: Int, _ py: Int, lane k: Int, into q: inout QuadLanes) {
        let y0 = y.row(py) + px, y1 = y.row(py + 1) + px
        let c0 = (px >> 1) * chromaStep, c1 = ((px + 1) >> 1) * chromaStep
        let u0 = u.row(py >> 1), u1 = u.row((py + 1) >> 1)
        let v0 = v.row(py >> 1) + vOffset, v1 = v.row((py + 1) >> 1) + vOffset
        q.c00.0[k] = y0[0]; q.c10.0[k] = y0[1]; q.c01.0[k] = y1[0]; q.c11.0[k] = y1[1]
        q.c00.1[k] = u0[c0]; q.c10.1[k] = u0[c1]; q.c01.1[k] = u1[c0]; q.c11.1[k] = u1[c1]
        q.c00.2[k] = v0[c0]; q.c10.2[k] = v0[c1]; q.c01.2[k] = v1[c0]; q.c11.2[k] = v1[c1]
    }
    @inline(always) func gatherBytes(_ px: Int, _ py: Int, lane k: Int, into q: UnsafeMutablePointer<UInt8>) {
        let y0 = y.row(py) + px, y1 = y.row(py + 1) + px
        let c0 = (px >> 1) * chromaStep, c1 = ((px + 1) >> 1) * chromaStep
        let u0 = u.row(py >> 1), u1 = u.row((py + 1) >> 1)
        let v0 = v.row(py >> 1) + vOffset, v1 = v.row((py + 1) >> 1) + vOffset
        q[k] = y0[0]; q[24 + k] = y0[1]; q[48 + k] = y1[0]; q[72 + k] = y1[1]
        q[8 + k] = u0[c0]; q[32 + k] = u0[c1]; q[56 + k] = u1[c0]; q[80 + k] = u1[c1]
        q[16 + k] = v0[c0]; q[40 + k] = v0[c1]; q[64 + k] = v1[c0]; q[88 + k] = v1[c1]
    }
    /// Per lane one 32-bit load per plane row read instead of a byte insert per read (the
    /// lane's two bytes along x are in one word: luma at `a`, `a + 1`; I420 chroma at `c0`,
    /// `c0 + d` with `d` 0 or 1; NV12's U V U V at `c0`), the bytes picked in lanes by masks and
    /// shifts (`d` as a per-lane shift). Reads up to 3 bytes past a lane's last byte, inside the
    /// row slack / `Plane.requiredPadding`. The same bytes as `gather8`, so the same floats.
    @inline(always) func quad8(_ fx: SIMD8<Float>, _ fy: SIMD8<Float>) -> (Lanes3, Lanes3, Lanes3, Lanes3) {
        let x = wholeLanes(fx), yy = wholeLanes(fy)
        let ys = UInt32(truncatingIfNeeded: y.stride), us = UInt32(truncatingIfNeeded: u.stride), vs = UInt32(truncatingIfNeeded: v.stride)
        let step = UInt32(truncatingIfNeeded: chromaStep)
        let cy0 = yy &>> 1, cy1 = (yy &+ 1) &>> 1
        let c0 = (x &>> 1) &* step, c1 = ((x &+ 1) &>> 1) &* step
        let oy = yy &* ys &+ x
        let ou0 = cy0 &* us &+ c0, ou1 = cy1 &* us &+ c0
        let ov0 = cy0 &* vs &+ c0, ov1 = cy1 &* vs &+ c0
        // The second chroma byte's shift: 8·d (I420: d is 0 or 1; NV12: 0 or 2, so 0 or 16).
        let shift = (c1 &- c0) &* 8
        let yb = UnsafeRawPointer(y.base), yb1 = yb + y.stride
        let ub = UnsafeRawPointer(u.base), vb = UnsafeRawPointer(v.base)
        let planar = chromaStep == 1
        var ly0 = SIMD8<UInt32>(), ly1 = ly0, lu0 = ly0, lu1 = ly0, lv0 = ly0, lv1 = ly0
        // Lanes with constant indices (a lane insert at a variable index goes through memory).
        @inline(__always) func lane(_ k: Int) {
            let a = Int(oy[k]), t0 = Int(ou0[k]), t1 = Int(ou1[k])
            ly0[k] = yb.loadUnaligned(fromByteOffset: a, as: UInt32.self)
            ly1[k] = yb1.loadUnaligned(fromByteOffset: a, as: UInt32.self)
            lu0[k] = ub.loadUnaligned(fromByteOffset: t0, as: UInt32.self)
            lu1[k] = ub.loadUnaligned(fromByteOffset: t1, as: UInt32.self)
            if planar {
                lv0[k] = vb.loadUnaligned(fromByteOffset: Int(ov0[k]), as: UInt32.self)
                lv1[k] = vb.loadUnaligned(fromByteOffset: Int(ov1[k]), as: UInt32.self)
            }
        }
        lane(0); lane(1); lane(2); lane(3); lane(4); lane(5); lane(6); lane(7)
        #if _endian(big)
        #error("TensorWarp's YUV word reads assume little-endian byte order")
        #endif
        let m = SIMD8<UInt32>(repeating: 0xFF)
        @inline(always) func f(_ v: SIMD8<UInt32>) -> SIMD8<Float> {
            let b = v & m
            return SIMD8(Float(Int32(bitPattern: b[0])), Float(Int32(bitPattern: b[1])), Float(Int32(bitPattern: b[2])),
                         Float(Int32(bitPattern: b[3])), Float(Int32(bitPattern: b[4])), Float(Int32(bitPattern: b[5])),
                         Float(Int32(bitPattern: b[6])), Float(Int32(bitPattern: b[7])))
        }
        let y00 = f(ly0), y10 = f(ly0 &>> 8), y01 = f(ly1), y11 = f(ly1 &>> 8)
        let u00 = f(lu0), u10 = f(lu0 &>> shift), u01 = f(lu1), u11 = f(lu1 &>> shift)
        let v00: SIMD8<Float>, v10: SIMD8<Float>, v01: SIMD8<Float>, v11: SIMD8<Float>
        if planar {
            v00 = f(lv0); v10 = f(lv0 &>> shift); v01 = f(lv1); v11 = f(lv1 &>> shift)
        } else {
            let vshift = shift &+ 8
            v00 = f(lu0 &>> 8); v10 = f(lu0 &>> vshift); v01 = f(lu1 &>> 8); v11 = f(lu1 &>> vshift)
        }
        return ((y00, u00, v00), (y10, u10, v10), (y01, u01, v01), (y11, u11, v11))
    }

    var black: SIMD3<Float> { SIMD3(matrix.yOffset, 128, 128) }
    @inline(always) func rgb(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let luma = (c.x - matrix.yOffset) * matrix.yGain
        let cb = c.y - 128, cr = c.z - 128
        let r = luma + matrix.rV * cr
        let g = luma - matrix.gU * cb - matrix.gV * cr
        let b = luma + matrix.bU * cb
        return SIMD3(min(max(r, 0), 255), min(max(g, 0), 255), min(max(b, 0), 255))
    }
    @inline(always) func rgb8(_ c0: SIMD8<Float>, _ c1: SIMD8<Float>, _ c2: SIMD8<Float>) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
        let m = matrix
        let luma = (c0 - m.yOffset) * m.yGain
        let cb = c1 - 128, cr = c2 - 128
        let r = luma + m.rV * cr
        let g = luma - m.gU * cb - m.gV * cr
        let b = luma + m.bU * cb
        // min(max(v, 0), 255) lane by lane, as the reference, with lane selects (no generic calls).
        @inline(always) func clamp(_ v: SIMD8<Float>) -> SIMD8<Float> {
            let low = v.replacing(with: 0, where: v .< 0)
            return low.replacing(with: 255, where: low .> 255)
        }
        return (clamp(r), clamp(g), clamp(b))
    }
}
