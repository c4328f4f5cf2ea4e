import ImageCore

extension Plane {
    /// This one-byte plane seen as a Gray8 `Image`, for ImageCore's image kernels.
    var grayImage: Image {
        precondition(bytesPerPixel == 1, "not a one-byte plane")
        return Image(format: .gray8, width: width, height: height, planes: (self, self, self))
    }
}
