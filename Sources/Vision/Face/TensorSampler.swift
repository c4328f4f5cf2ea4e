import ImageCore
import VisionKernels

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Fills a model's NHWC float input from a rotated region of an image: an affine warp with
/// bilinear sampling, box-averaged over up to 4×4 taps when the region is shrunk by more than
/// 1.5× per axis (so a 12 MP photo does not alias into the 128×128 detector input), reading
/// RGB888, XRGB8888, Gray8, I420 or NV12 directly (YCbCr converted per sample read with
/// ImageCore's `YUVMatrix` coefficients; the camera's stream says which matrix applies).
///
/// This is MediaPipe's ImageToTensor step: the region's geometry (one sine and cosine per call)
/// here, the per-pixel work in VisionKernels' `TensorWarp` (Embedded-clean, checked on aarch64).
/// Foundation-free; allocates nothing.
public enum TensorSampler {
    /// - Parameters:
    ///   - region: the image area that becomes the whole tensor (see `RotatedRect`).
    ///   - tensor: `width × height × 3` floats, row-major, RGB.
    ///   - flipHorizontally: mirror the tensor (MediaPipe flips right eyes for the iris model).
    public static func sample(
        _ image: Image, region: RotatedRect, into tensor: UnsafeMutableBufferPointer<Float>,
        width: Int, height: Int, range: TensorRange, border: TensorBorder,
        flipHorizontally: Bool = false, matrix: YUVMatrix = .bt601Full
    ) {
        TensorWarp.sample(image, grid: grid(region, width: width, height: height, flipHorizontally: flipHorizontally),
                          into: tensor, width: width, height: height, range: range, border: border, matrix: matrix)
    }

    /// The sampling grid of `region` over a `width`×`height` tensor.
    public static func grid(_ region: RotatedRect, width: Int, height: Int, flipHorizontally flip: Bool = false) -> TensorGrid {
        let c = cosf(region.rotation), s = sinf(region.rotation)
        // Source step per destination pixel along the tensor's x and y.
        let sxu = region.width / Float(width), syv = region.height / Float(height)
        var ux = c * sxu, uy = s * sxu
        let vx = -s * syv, vy = c * syv
        // Source position (pixel-centre coordinates: pixel k covers k...k+1, centre k + 0.5)
        // of the tensor's pixel (0, 0) centre.
        let u0: Float = flip ? (Float(width) - 0.5) / Float(width) : 0.5 / Float(width)
        let v0: Float = 0.5 / Float(height)
        let p0 = region.imagePoint(u: u0, v: v0)
        if flip { ux = -ux; uy = -uy }
        return TensorGrid(originX: p0.x, originY: p0.y, ux: ux, uy: uy, vx: vx, vy: vy,
                          tapsU: TensorWarp.taps(sxu), tapsV: TensorWarp.taps(syv))
    }
}
