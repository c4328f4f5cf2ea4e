/// Means over (2r+1)² windows clipped at the image's borders, for several float quantities of a
/// `width`×`height` image, computed row by row: rows go in at the top (`push`), each is
/// box-averaged horizontally into a ring of 2r + 2 rows, and rows of means come out (`pop`) as
/// soon as the window below them is in, from per-column running sums (Double). Memory grows with
/// the width and the radius, not the height.
///
/// The arithmetic is that of a horizontal pass over the whole image followed by a vertical one
/// per column (`ColorGuidedFilter.boxMean`): the same additions and subtractions per column in
/// the same order, so the same bits.
package final class RunningBoxMean {
    let width: Int, height: Int, radius: Int, channels: Int
    /// Rows in the ring: the window's 2r + 1 and the row leaving it.
    let ringRows: Int
    /// channels × ringRows × width horizontal means.
    let ring: ScratchBuffer<Float>
    /// channels × width running vertical sums.
    let sums: ScratchBuffer<Double>
    /// channels × width: the last row of means popped.
    let out: ScratchBuffer<Float>
    /// Rows pushed and rows popped so far.
    package private(set) var rowsIn = 0
    package private(set) var rowsOut = 0

    package init(width: Int, height: Int, radius: Int, channels: Int) {
        precondition(width > 0 && height > 0 && radius >= 0 && channels > 0, "box mean: size, radius and channels")
        self.width = width
        self.height = height
        self.radius = radius
        self.channels = channels
        ringRows = RunningBoxMean.ringRows(height: height, radius: radius)
        ring = ScratchBuffer(count: channels * ringRows * width)
        sums = ScratchBuffer(count: channels * width)
        out = ScratchBuffer(count: channels * width)
    }

    /// Bytes held for these dimensions.
    package static func byteCount(width: Int, height: Int, radius: Int, channels: Int) -> Int {
        let w = max(width, 1)
        return channels * w * (ringRows(height: height, radius: radius) * MemoryLayout<Float>.stride
            + MemoryLayout<Double>.stride + MemoryLayout<Float>.stride)
    }

    static func ringRows(height: Int, radius: Int) -> Int { min(2 * radius + 2, max(height, 1)) }

    func ringRow(_ c: Int, _ y: Int) -> UnsafeMutablePointer<Float> { ring.pointer + (c * ringRows + y % ringRows) * width }

    /// Row `c` of the means last popped (valid until the next `pop`).
    package func output(_ c: Int) -> UnsafeMutablePointer<Float> { out.pointer + c * width }

    /// Adds image row `rowsIn`: `row(c)` gives quantity `c`'s `width` values.
    package func push(_ row: (Int) -> UnsafeMutablePointer<Float>) {
        precondition(rowsIn < height, "box mean: more rows than the height")
        precondition(rowsIn < ringRows || rowsIn - rowsOut <= radius, "box mean: row pushed over one not yet read")
        let y = rowsIn
        for c in 0..<channels {
            let src = row(c), dst = ringRow(c, y)
            RunningBoxMean.horizontal(width, radius, into: dst) { src[$0] }
            // The first r rows start the sums, as the vertical pass does before its first output.
            if y < radius {
                let s = sums.pointer + c * width
                for x in 0..<width { s[x] += Double(dst[x]) }
            }
        }
        rowsIn += 1
    }

    /// Computes image row `rowsOut` of means into `output`; needs rows up to rowsOut + r pushed
    /// (or all of them).
    package func pop() {
        let y = rowsOut, r = radius, h = height, w = width
        precondition(y < h && rowsIn >= min(h, y + r + 1), "box mean: the window's rows are not all pushed")
        let cnt = Double(min(h - 1, y + r) - max(0, y - r) + 1)
        for c in 0..<channels {
            let s = sums.pointer + c * w, o = output(c)
            if y + r < h {
                let add = ringRow(c, y + r)
                for x in 0..<w { s[x] += Double(add[x]) }
            }
            if y - r - 1 >= 0 {
                let sub = ringRow(c, y - r - 1)
                for x in 0..<w { s[x] -= Double(sub[x]) }
            }
            for x in 0..<w { o[x] = Float(s[x] / cnt) }
        }
        rowsOut += 1
    }

    /// Means of `f(0..<w)` over windows of 2r + 1 clipped at the ends, into `dst` (a running sum
    /// in Double).
    @inline(__always)
    static func horizontal(_ w: Int, _ r: Int, into dst: UnsafeMutablePointer<Float>, _ f: (Int) -> Float) {
        var s: Double = 0
        for x in 0..<min(r, w) { s += Double(f(x)) }
        for x in 0..<w {
            if x + r < w { s += Double(f(x + r)) }
            if x - r - 1 >= 0 { s -= Double(f(x - r - 1)) }
            let cnt = min(w - 1, x + r) - max(0, x - r) + 1
            dst[x] = Float(s / Double(cnt))
        }
    }
}
