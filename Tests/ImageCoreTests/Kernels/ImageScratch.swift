import ImageCore

/// Keeps test images' memory alive: `Image` is a non-owning view, so the `ImageBuffer` behind
/// it must outlive every use. The scratch owns its buffers (the case `unsafeImage()` is for) and
/// tests end with `scratch.keepAlive()` (an optimiser barrier).
final class ImageScratch {
    private var buffers: [ImageBuffer] = []

    func image(_ format: PixelFormat, _ width: Int, _ height: Int) -> Image {
        let b = ImageBuffer(format: format, width: width, height: height)
        buffers.append(b)
        return b.unsafeImage()
    }

    /// A Gray8 image with `value(x, y)` in every pixel.
    func gray(_ width: Int, _ height: Int, _ value: (Int, Int) -> UInt8) -> Image {
        let image = self.image(.gray8, width, height)
        for y in 0..<height { for x in 0..<width { image.luma.row(y)[x] = value(x, y) } }
        return image
    }

    func keepAlive() { withExtendedLifetime(self) {} }
}
