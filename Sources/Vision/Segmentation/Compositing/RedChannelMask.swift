import ImageCore

/// Masks stored in the red channel of an RGB image (as Core Image's person-segmentation filter
/// produces them): the red bytes become a Gray8 mask plane. Allocates nothing.
public enum RedChannelMask {
    /// Copies the red channel of `image` (RGB888 or XRGB8888) into `mask` (same size, 1 byte per pixel).
    public static func extract(_ image: Image, into mask: Plane) {
        precondition(image.width == mask.width && image.height == mask.height && mask.bytesPerPixel == 1, "red mask: sizes differ")
        let (bpp, red): (Int, Int)
        switch image.format {
        case .rgb888: (bpp, red) = (3, 0)
        case .xrgb8888: (bpp, red) = (4, 2)
        case .gray8: (bpp, red) = (1, 0)
        default: preconditionFailure("red mask: needs an RGB888, XRGB8888 or Gray8 image")
        }
        for y in 0..<image.height {
            let s = image.planes.0.row(y), d = mask.row(y)
            for x in 0..<image.width { d[x] = s[x * bpp + red] }
        }
    }
}
