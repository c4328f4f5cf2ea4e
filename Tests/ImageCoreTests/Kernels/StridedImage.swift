import ImageCore
import TestSupport

/// Test memory for an image whose planes have a chosen (possibly odd) row slack and exactly
/// `Plane.requiredPadding` bytes after the last row, so kernels are checked at strides
/// `ImageBuffer` never makes. Every byte starts as `fill` (a canary) or random.
final class StridedImage {
    let image: Image
    private let storage: UnsafeMutableRawPointer
    private let byteCount: Int
    /// (offset, plane) of each plane.
    private let layout: [(offset: Int, plane: Plane)]

    init(format: PixelFormat, width: Int, height: Int, slack: Int, canary: UInt8? = nil, random rng: inout SeededGenerator) {
        var planes: [(Int, Int, Int, Int, Int)] = []  // offset, width, height, stride, bpp
        var total = 0
        for i in 0..<format.planeCount {
            let size = format.planeSize(plane: i, width: width, height: height)
            let bpp = format.bytesPerPixel(plane: i)
            let stride = size.width * bpp + slack
            planes.append((total, size.width, size.height, stride, bpp))
            total += stride * (size.height - 1) + size.width * bpp + Plane.requiredPadding
        }
        byteCount = total
        storage = .allocate(byteCount: total, alignment: 1)
        let bytes = storage.assumingMemoryBound(to: UInt8.self)
        for i in 0..<total { bytes[i] = canary ?? UInt8.random(in: 0...255, using: &rng) }
        var made: [(offset: Int, plane: Plane)] = []
        for p in planes {
            made.append((p.0, Plane(base: storage + p.0, width: p.1, height: p.2, stride: p.3, bytesPerPixel: p.4,
                                    padding: Plane.requiredPadding)))
        }
        layout = made
        let empty = Plane(base: storage, width: 0, height: 0, stride: 0, bytesPerPixel: 1, padding: 0)
        image = Image(format: format, width: width, height: height,
                      planes: (made[0].plane, made.count > 1 ? made[1].plane : empty, made.count > 2 ? made[2].plane : empty))
    }

    deinit { storage.deallocate() }

    /// The pixel bytes of every plane, row by row (no slack, no padding).
    var pixels: [UInt8] {
        var out: [UInt8] = []
        for (_, p) in layout {
            for y in 0..<p.height { out.append(contentsOf: UnsafeBufferPointer(start: p.row(y), count: p.rowBytes)) }
        }
        return out
    }

    /// Every byte outside the pixels (row slack, gaps, padding).
    var outsidePixels: [UInt8] {
        let bytes = storage.assumingMemoryBound(to: UInt8.self)
        var inside = [Bool](repeating: false, count: byteCount)
        for (offset, p) in layout {
            for y in 0..<p.height {
                for x in 0..<p.rowBytes { inside[offset + y * p.stride + x] = true }
            }
        }
        return (0..<byteCount).filter { !inside[$0] }.map { bytes[$0] }
    }
}
