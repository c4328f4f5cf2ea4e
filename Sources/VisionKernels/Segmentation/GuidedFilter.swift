import ImageCore

/// Edge-aware smoothing of a mask guided by an image's luma (He, Sun and Tang's guided filter),
/// in fixed point: for each pixel, over a (2r+1)² window clipped at the borders,
/// `a = cov(I, p) / (var(I) + ε)` (Q12, clamped to ±8), `b = mean(p) − a·mean(I)` (Q12), then
/// `q = mean(a)·I + mean(b)`, rounded and clamped to 0…255.
///
/// Box sums are running sums (column sums updated per row, a prefix over the columns), so the
/// cost does not depend on r. Integer arithmetic only (window sums fit Int32 for r ≤ 32; the
/// Q12 sums of b use Int64). All storage is allocated once for a maximum size; `run` allocates nothing.
public final class GuidedFilter {
    public let maxWidth: Int
    public let maxHeight: Int
    public var radius: Int
    /// ε in luma units squared (0…255²): larger smooths more, smaller follows edges more closely.
    public var epsilon: Int

    private let a: ScratchBuffer<Int32>, b: ScratchBuffer<Int32>
    private let colI: ScratchBuffer<Int32>, colP: ScratchBuffer<Int32>, colII: ScratchBuffer<Int32>, colIP: ScratchBuffer<Int32>
    private let colA: ScratchBuffer<Int32>, colB: ScratchBuffer<Int64>
    private let preI: ScratchBuffer<Int32>, preP: ScratchBuffer<Int32>, preII: ScratchBuffer<Int32>, preIP: ScratchBuffer<Int32>
    private let preA: ScratchBuffer<Int32>, preB: ScratchBuffer<Int64>

    public init(maxWidth: Int, maxHeight: Int, radius: Int, epsilon: Int) {
        precondition(radius >= 1 && radius <= 32, "guided filter radius must be 1…32")
        self.maxWidth = maxWidth; self.maxHeight = maxHeight
        self.radius = radius; self.epsilon = epsilon
        a = ScratchBuffer(count: maxWidth * maxHeight); b = ScratchBuffer(count: maxWidth * maxHeight)
        colI = ScratchBuffer(count: maxWidth); colP = ScratchBuffer(count: maxWidth)
        colII = ScratchBuffer(count: maxWidth); colIP = ScratchBuffer(count: maxWidth)
        colA = ScratchBuffer(count: maxWidth); colB = ScratchBuffer(count: maxWidth)
        preI = ScratchBuffer(count: maxWidth + 1); preP = ScratchBuffer(count: maxWidth + 1)
        preII = ScratchBuffer(count: maxWidth + 1); preIP = ScratchBuffer(count: maxWidth + 1)
        preA = ScratchBuffer(count: maxWidth + 1); preB = ScratchBuffer(count: maxWidth + 1)
    }

    /// Bytes of working memory.
    public var byteCount: Int {
        a.byteCount + b.byteCount + colI.byteCount * 5 + colB.byteCount + preI.byteCount * 5 + preB.byteCount
    }

    /// Filters `input` (Gray8 mask) guided by `guide` (Gray8) into `output` (may be `input`).
    /// All three planes have the same size, at most `maxWidth`×`maxHeight`.
    public func run(guide: Plane, input: Plane, output: Plane) {
        let w = guide.width, h = guide.height
        precondition(w <= maxWidth && h <= maxHeight && input.width == w && input.height == h
                     && output.width == w && output.height == h, "guided filter: sizes differ or exceed the plan")
        let r = min(radius, max(w, h))
        let eps = Int64(epsilon)
        // Pass 1: window statistics of I and p → a, b.
        for x in 0..<w { colI[x] = 0; colP[x] = 0; colII[x] = 0; colIP[x] = 0 }
        for y in 0..<min(r, h) { addRow1(guide.row(y), input.row(y), w, sign: 1) }
        for y in 0..<h {
            if y + r < h { addRow1(guide.row(y + r), input.row(y + r), w, sign: 1) }
            if y - r - 1 >= 0 { addRow1(guide.row(y - r - 1), input.row(y - r - 1), w, sign: -1) }
            let rows = Int64(min(h - 1, y + r) - max(0, y - r) + 1)
            preI[0] = 0; preP[0] = 0; preII[0] = 0; preIP[0] = 0
            for x in 0..<w {
                preI[x + 1] = preI[x] &+ colI[x]; preP[x + 1] = preP[x] &+ colP[x]
                preII[x + 1] = preII[x] &+ colII[x]; preIP[x + 1] = preIP[x] &+ colIP[x]
            }
            let aRow = a.pointer + y * w, bRow = b.pointer + y * w
            for x in 0..<w {
                let x0 = max(0, x - r), x1 = min(w - 1, x + r) + 1
                let n = rows * Int64(x1 - x0)
                let sI = Int64(preI[x1] &- preI[x0]), sP = Int64(preP[x1] &- preP[x0])
                let sII = Int64(preII[x1] &- preII[x0]), sIP = Int64(preIP[x1] &- preIP[x0])
                let cov = n * sIP - sI * sP
                let varI = n * sII - sI * sI
                var aq = (cov << 12) / (varI + eps * n * n)
                aq = min(max(aq, -(8 << 12)), 8 << 12)
                let bq = ((sP << 12) - aq * sI) / n
                aRow[x] = Int32(truncatingIfNeeded: aq)
                bRow[x] = Int32(truncatingIfNeeded: bq)
            }
        }
        // Pass 2: window means of a and b, q = mean(a)·I + mean(b).
        for x in 0..<w { colA[x] = 0; colB[x] = 0 }
        for y in 0..<min(r, h) { addRow2(y, w, sign: 1) }
        for y in 0..<h {
            if y + r < h { addRow2(y + r, w, sign: 1) }
            if y - r - 1 >= 0 { addRow2(y - r - 1, w, sign: -1) }
            let rows = Int64(min(h - 1, y + r) - max(0, y - r) + 1)
            preA[0] = 0; preB[0] = 0
            for x in 0..<w { preA[x + 1] = preA[x] &+ colA[x]; preB[x + 1] = preB[x] &+ colB[x] }
            let g = guide.row(y), out = output.row(y)
            for x in 0..<w {
                let x0 = max(0, x - r), x1 = min(w - 1, x + r) + 1
                let n = rows * Int64(x1 - x0)
                let sA = Int64(preA[x1] &- preA[x0]), sB = preB[x1] &- preB[x0]
                let q = (sA * Int64(g[x]) + sB + (n << 11)) / (n << 12)
                out[x] = UInt8(truncatingIfNeeded: min(max(q, 0), 255))
            }
        }
    }

    @inline(__always)
    private func addRow1(_ g: UnsafeMutablePointer<UInt8>, _ p: UnsafeMutablePointer<UInt8>, _ w: Int, sign: Int32) {
        for x in 0..<w {
            let i = Int32(g[x]), v = Int32(p[x])
            colI[x] &+= sign &* i; colP[x] &+= sign &* v
            colII[x] &+= sign &* i &* i; colIP[x] &+= sign &* i &* v
        }
    }

    @inline(__always)
    private func addRow2(_ y: Int, _ w: Int, sign: Int32) {
        let aRow = a.pointer + y * w, bRow = b.pointer + y * w
        for x in 0..<w {
            colA[x] &+= sign &* aRow[x]
            colB[x] &+= Int64(sign) &* Int64(bRow[x])
        }
    }
}
