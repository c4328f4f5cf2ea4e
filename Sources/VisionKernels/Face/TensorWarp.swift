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
/// 128×128 detector input), reading RGB888, XRGB8888, Gray8, I420 or NV12 directly (YCbCr
/// converted per sample read with ImageCore's `YUVMatrix` coefficients; the camera's stream
/// says which matrix applies).
///
/// The per-pixel half of MediaPipe's ImageToTensor step (`TensorSampler` in Vision is the
/// whole step). Float arithmetic without library calls (the same result on x86-64 and aarch64);
/// Foundation-free; allocates nothing.
public enum TensorWarp {
    /// - Parameters:
    ///   - tensor: `width × height × 3` floats, row-major, RGB.
    @inline(never)
    public static func sample(
        _ image: Image, grid: TensorGrid, into tensor: UnsafeMutableBufferPointer<Float>,
        width: Int, height: Int, range: TensorRange, border: TensorBorder, matrix: YUVMatrix = .bt601Full
    ) {
        precondition(tensor.count >= width * height * 3, "tensor smaller than width x height x 3")
        precondition(grid.tapsU >= 1 && grid.tapsV >= 1, "tensor grid without taps")
        switch image.format {
        case .rgb888:
            warp(PackedSource(plane: image.luma, r: 0, g: 1, b: 2), image, grid, tensor, width, height, range, border)
        case .xrgb8888:
            warp(PackedSource(plane: image.luma, r: 2, g: 1, b: 0), image, grid, tensor, width, height, range, border)
        case .gray8:
            warp(GraySource(plane: image.luma), image, grid, tensor, width, height, range, border)
        case .i420:
            warp(YUVSource(y: image.planes.0, u: image.planes.1, v: image.planes.2, chromaStep: 1, vOffset: 0, matrix: YCbCrFloat(matrix)),
                 image, grid, tensor, width, height, range, border)
        case .nv12:
            warp(YUVSource(y: image.planes.0, u: image.planes.1, v: image.planes.1, chromaStep: 2, vOffset: 1, matrix: YCbCrFloat(matrix)),
                 image, grid, tensor, width, height, range, border)
        }
    }

    @inline(__always)
    static func warp<S: PixelSource>(
        _ source: S, _ image: Image, _ grid: TensorGrid, _ tensor: UnsafeMutableBufferPointer<Float>,
        _ width: Int, _ height: Int, _ range: TensorRange, _ border: TensorBorder
    ) {
        let ux = grid.ux, uy = grid.uy, vx = grid.vx, vy = grid.vy
        let tapsU = grid.tapsU, tapsV = grid.tapsV
        let inv = 1 / Float(tapsU * tapsV)
        let maxX = image.width - 1, maxY = image.height - 1
        let zero = border == .zero
        let base = tensor.baseAddress!
        for i in 0..<height {
            var px = grid.originX + Float(i) * vx - 0.5
            var py = grid.originY + Float(i) * vy - 0.5
            var out = base + i * width * 3
            for _ in 0..<width {
                var acc = SIMD3<Float>(repeating: 0)
                for tv in 0..<tapsV {
                    let fv = (Float(tv) + 0.5) / Float(tapsV) - 0.5
                    for tu in 0..<tapsU {
                        let fu = (Float(tu) + 0.5) / Float(tapsU) - 0.5
                        let x = px + fu * ux + fv * vx
                        let y = py + fu * uy + fv * vy
                        acc += bilinear(source, x, y, maxX, maxY, zero)
                    }
                }
                acc *= inv
                out[0] = acc.x * range.scale + range.offset
                out[1] = acc.y * range.scale + range.offset
                out[2] = acc.z * range.scale + range.offset
                out += 3
                px += ux
                py += uy
            }
        }
    }

    /// Box-filter taps along an axis whose image step per tensor pixel is `step`: 1 up to 1.5×
    /// shrink, then ⌈step⌉, at most 4.
    @inline(__always) public static func taps(_ step: Float) -> Int {
        step <= 1.5 ? 1 : min(4, Int(step.rounded(.up)))
    }

    @inline(__always)
    static func bilinear<S: PixelSource>(_ source: S, _ x: Float, _ y: Float, _ maxX: Int, _ maxY: Int, _ zero: Bool) -> SIMD3<Float> {
        let fx = x.rounded(.down), fy = y.rounded(.down)
        let ax = x - fx, ay = y - fy
        // Far outside: avoid Int overflow on absurd regions.
        guard fx > -2, fy > -2, fx < Float(maxX + 2), fy < Float(maxY + 2) else {
            if zero { return SIMD3(repeating: 0) }
            return source.fetch(min(max(Int(max(min(fx, 1e7), -1e7)), 0), maxX), min(max(Int(max(min(fy, 1e7), -1e7)), 0), maxY))
        }
        let x0 = Int(fx), y0 = Int(fy)
        let p00 = fetch(source, x0, y0, maxX, maxY, zero)
        let p10 = fetch(source, x0 + 1, y0, maxX, maxY, zero)
        let p01 = fetch(source, x0, y0 + 1, maxX, maxY, zero)
        let p11 = fetch(source, x0 + 1, y0 + 1, maxX, maxY, zero)
        let top = p00 + (p10 - p00) * ax
        let bottom = p01 + (p11 - p01) * ax
        return top + (bottom - top) * ay
    }

    @inline(__always)
    static func fetch<S: PixelSource>(_ source: S, _ x: Int, _ y: Int, _ maxX: Int, _ maxY: Int, _ zero: Bool) -> SIMD3<Float> {
        if x < 0 || y < 0 || x > maxX || y > maxY {
            if zero { return SIMD3(repeating: 0) }
            return source.fetch(min(max(x, 0), maxX), min(max(y, 0), maxY))
        }
        return source.fetch(x, y)
    }
}

/// Reads one pixel as RGB floats in 0...255. Generic (not existential) so the warp specialises.
protocol PixelSource {
    func fetch(_ x: Int, _ y: Int) -> SIMD3<Float>
}

struct PackedSource: PixelSource {
    let plane: Plane
    let r: Int, g: Int, b: Int
    @inline(__always) func fetch(_ x: Int, _ y: Int) -> SIMD3<Float> {
        let p = plane.row(y) + x * plane.bytesPerPixel
        return SIMD3(Float(p[r]), Float(p[g]), Float(p[b]))
    }
}

struct GraySource: PixelSource {
    let plane: Plane
    @inline(__always) func fetch(_ x: Int, _ y: Int) -> SIMD3<Float> {
        SIMD3(repeating: Float(plane.row(y)[x]))
    }
}

struct YUVSource: PixelSource {
    let y: Plane, u: Plane, v: Plane
    let chromaStep: Int, vOffset: Int
    let matrix: YCbCrFloat
    @inline(__always) func fetch(_ px: Int, _ py: Int) -> SIMD3<Float> {
        let luma = (Float(y.row(py)[px]) - matrix.yOffset) * matrix.yGain
        let cx = (px >> 1) * chromaStep, cy = py >> 1
        let cb = Float(u.row(cy)[cx]) - 128
        let cr = Float(v.row(cy)[cx + vOffset]) - 128
        let r = luma + matrix.rV * cr
        let g = luma - matrix.gU * cb - matrix.gV * cr
        let b = luma + matrix.bU * cb
        return SIMD3(min(max(r, 0), 255), min(max(g, 0), 255), min(max(b, 0), 255))
    }
}
