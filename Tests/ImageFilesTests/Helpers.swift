import ImageCore
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A smooth, asymmetric RGB test picture (JPEG-friendly) with a seeded noise component.
func testPicture(width: Int, height: Int, seed: UInt64 = 1) -> ImageBuffer {
    var rng = SeededGenerator(seed: seed)
    let buf = ImageBuffer(format: .rgb888, width: width, height: height)
    return buf.withImage { bufImage in
        let p = bufImage.luma
        for y in 0..<height {
            let row = p.row(y)
            for x in 0..<width {
                let n = Int(rng.next() % 9) - 4
                row[3 * x] = UInt8(clamping: x * 255 / max(width - 1, 1) + n)
                row[3 * x + 1] = UInt8(clamping: y * 255 / max(height - 1, 1) + n)
                row[3 * x + 2] = UInt8(clamping: (x + 2 * y) % 256 / 2 + 64 + n)
            }
        }
        return buf
    }
}

/// Mean absolute difference between two images of the same format and size, over all bytes.
func meanAbsDiff(_ a: Image, _ b: Image) -> Double {
    precondition(a.format == b.format && a.width == b.width && a.height == b.height)
    var sum = 0, n = 0
    for i in 0..<a.format.planeCount {
        let pa = a.plane(i), pb = b.plane(i)
        for y in 0..<pa.height {
            for x in 0..<pa.rowBytes { sum += abs(Int(pa.row(y)[x]) - Int(pb.row(y)[x])); n += 1 }
        }
    }
    return Double(sum) / Double(max(n, 1))
}

func temporaryDirectory() -> String {
    var template = Array("/tmp/booth-test-XXXXXX".utf8CString)
    let p = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    return String(cString: p!)
}

func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }
