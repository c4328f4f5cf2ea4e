/// Pixel formats Booth moves between the camera, the vision stages and the screen.
///
/// Byte orders are those in memory:
/// - `gray8`: one luma byte per pixel.
/// - `i420`: three planes, Y full size, U then V at half width and half height (rounded up).
/// - `nv12`: two planes, Y full size, then interleaved U,V at half width and half height.
/// - `xrgb8888`: DRM's `DRM_FORMAT_XRGB8888`, a little-endian 32-bit word `0xXXRRGGBB`,
///   so bytes B, G, R, X in memory.
/// - `rgb888`: bytes R, G, B (TurboJPEG's `TJPF_RGB`, PNG's RGB).
public enum PixelFormat: UInt8, Sendable, Equatable, Hashable, CaseIterable {
    case gray8
    case i420
    case nv12
    case xrgb8888
    case rgb888

    /// Number of planes the format stores.
    @inlinable public var planeCount: Int {
        switch self {
        case .gray8, .xrgb8888, .rgb888: return 1
        case .nv12: return 2
        case .i420: return 3
        }
    }

    /// Bytes per pixel of plane `index` (a pixel of a chroma plane is one chroma sample or pair).
    @inlinable public func bytesPerPixel(plane index: Int) -> Int {
        switch self {
        case .gray8, .i420: return 1
        case .nv12: return index == 0 ? 1 : 2
        case .xrgb8888: return 4
        case .rgb888: return 3
        }
    }

    /// Size in pixels of plane `index` for an image of `width`×`height`.
    @inlinable public func planeSize(plane index: Int, width: Int, height: Int) -> (width: Int, height: Int) {
        switch self {
        case .gray8, .xrgb8888, .rgb888: return (width, height)
        case .i420, .nv12:
            return index == 0 ? (width, height) : ((width + 1) / 2, (height + 1) / 2)
        }
    }
}
