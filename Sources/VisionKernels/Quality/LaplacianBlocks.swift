import ImageCore

/// Laplacian energy per 8×8 block of a Gray8 plane, the measurement behind sharpness and noise.
///
/// `L(x, y) = 4 p(x, y) − p(x−1, y) − p(x+1, y) − p(x, y−1) − p(x, y+1)` at interior pixels
/// (1 ≤ x ≤ W−2, 1 ≤ y ≤ H−2); border pixels contribute nothing. Block `(bx, by)` receives
/// `Σ L²` over its pixels `[8bx, 8bx+8) × [8by, 8by+8)`, written to
/// `blocks[by * (W/8) + bx]` (row-major). |L| ≤ 1020, so L² ≤ 1 040 400 and a block sum
/// (≤ 64 terms) fits a UInt32 exactly — the SIMD variant equals the reference bit for bit.
///
/// Contract: W and H are multiples of 8 and at least 16; `blocks` holds at least (W/8)·(H/8)
/// values. Reads only pixels inside the plane; writes only `blocks`. Allocates nothing.
public enum LaplacianBlocks {
    public static let blockSize = 8

    @inlinable
    public static func run(_ plane: Plane, _ blocks: UnsafeMutableBufferPointer<UInt32>, variant: KernelVariant = .simd) {
        switch variant {
        case .scalar: scalar(plane, blocks)
        case .simd: simd(plane, blocks)
        }
    }

    static func check(_ plane: Plane, _ blocks: UnsafeMutableBufferPointer<UInt32>) -> Int {
        precondition(plane.bytesPerPixel == 1, "LaplacianBlocks: Gray8 plane expected")
        precondition(plane.width % 8 == 0 && plane.height % 8 == 0 && plane.width >= 16 && plane.height >= 16,
                     "LaplacianBlocks: size must be a multiple of 8, at least 16")
        let columns = plane.width / 8
        precondition(blocks.count >= columns * (plane.height / 8), "LaplacianBlocks: block buffer too small")
        for i in 0..<(columns * (plane.height / 8)) { blocks[i] = 0 }
        return columns
    }

    /// Plain loops, one pixel at a time.
    public static func scalar(_ plane: Plane, _ blocks: UnsafeMutableBufferPointer<UInt32>) {
        let columns = check(plane, blocks)
        for y in 1..<(plane.height - 1) {
            let up = plane.row(y - 1), row = plane.row(y), down = plane.row(y + 1)
            let blockRow = (y / 8) * columns
            for x in 1..<(plane.width - 1) {
                let l = 4 * Int32(row[x]) - Int32(row[x - 1]) - Int32(row[x + 1]) - Int32(up[x]) - Int32(down[x])
                blocks[blockRow + x / 8] &+= UInt32(l * l)
            }
        }
    }

    /// One block row segment (8 pixels) per step in `SIMD8<Int16>` lanes (squares in Int32);
    /// the first and last block of each row, which touch the border, take the scalar loop.
    @inline(never)
    public static func simd(_ plane: Plane, _ blocks: UnsafeMutableBufferPointer<UInt32>) {
        let columns = check(plane, blocks)
        for y in 1..<(plane.height - 1) {
            let up = plane.row(y - 1), row = plane.row(y), down = plane.row(y + 1)
            let blockRow = (y / 8) * columns
            // First block: x = 1..7.
            for x in 1..<8 {
                let l = 4 * Int32(row[x]) - Int32(row[x - 1]) - Int32(row[x + 1]) - Int32(up[x]) - Int32(down[x])
                blocks[blockRow] &+= UInt32(l * l)
            }
            var bx = 1
            while bx < columns - 1 {
                let x = bx * 8
                let c = SIMD8<Int16>(truncatingIfNeeded: load8(row + x))
                let w = SIMD8<Int16>(truncatingIfNeeded: load8(row + x - 1))
                let e = SIMD8<Int16>(truncatingIfNeeded: load8(row + x + 1))
                let n = SIMD8<Int16>(truncatingIfNeeded: load8(up + x))
                let s = SIMD8<Int16>(truncatingIfNeeded: load8(down + x))
                let l = SIMD8<Int32>(truncatingIfNeeded: (c &<< 2) &- w &- e &- n &- s)
                let sq = SIMD8<UInt32>(truncatingIfNeeded: l &* l)
                blocks[blockRow + bx] &+= sq.wrappedSum()
                bx += 1
            }
            // Last block: x = W-8 ..< W-1.
            for x in (plane.width - 8)..<(plane.width - 1) {
                let l = 4 * Int32(row[x]) - Int32(row[x - 1]) - Int32(row[x + 1]) - Int32(up[x]) - Int32(down[x])
                blocks[blockRow + columns - 1] &+= UInt32(l * l)
            }
        }
    }

    @inline(__always)
    static func load8(_ p: UnsafeMutablePointer<UInt8>) -> SIMD8<UInt8> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt8>.self)
    }
}
