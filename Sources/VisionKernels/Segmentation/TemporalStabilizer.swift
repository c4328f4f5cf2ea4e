/// Video stability at model resolution: each new mask is mixed with the previous (stabilised)
/// one where nothing moved, and taken as is where something did, so edges stop flickering
/// without leaving a ghost behind a fast movement.
///
/// Per pixel, with the new probability p, the previous one q (0…255) and the model inputs' luma
/// difference d: `keep = k · max(0, 1 − d/D) · max(0, 1 − |p − q|/C)` and
/// `out = (keep·q + (256 − keep)·p) / 256` (Q8). The first factor follows motion in the image, the
/// second motion of the mask itself (a limb that left a region drops from the mask at once even
/// against a background of the same brightness). A scene cut or a size change resets the history.
/// Allocates only at init.
public final class TemporalStabilizer {
    /// The previous mask's weight where nothing changed, Q8 (0…255).
    public var keep: Int = 160
    /// Luma change (0…255) at which the previous mask is ignored.
    public var motionLimit: Int = TemporalStabilizer.defaultMotionLimit
    /// Mask change (0…255) at which the previous mask is ignored.
    public var changeLimit: Int = TemporalStabilizer.defaultChangeLimit
    static let defaultMotionLimit = 24, defaultChangeLimit = 128

    public let count: Int
    private let previousMask: ScratchBuffer<UInt8>
    private let previousLuma: ScratchBuffer<UInt8>
    /// The weight `w` for every (motion, change) pair, row `motion`, `changeLimit + 1` per row, for
    /// the settings in `weightsFor` (built when they change): per pixel a table read instead of
    /// the multiply-shift in 64-bit integers. Sized at init for the default limits; other limits
    /// that do not fit compute per pixel as before.
    private let weights: ScratchBuffer<UInt8>
    private var weightsFor: (keep: Int, motion: Int, change: Int)? = nil
    public private(set) var hasHistory = false

    public init(count: Int) {
        self.count = count
        // Read only once `apply` has written them (`hasHistory`): not zeroed, so a stabiliser
        // that never runs (the accurate level's, the fast level's general one) takes no memory.
        previousMask = ScratchBuffer(count: count, zeroed: false)
        previousLuma = ScratchBuffer(count: count, zeroed: false)
        weights = ScratchBuffer(count: (Self.defaultMotionLimit + 1) * (Self.defaultChangeLimit + 1), zeroed: false)
    }

    public var byteCount: Int { previousMask.byteCount + previousLuma.byteCount + weights.byteCount }

    /// Forgets the previous frame (a new subject, a new camera, a size change).
    public func reset() { hasHistory = false }

    /// Stabilises `mask` in place (`count` bytes) using the model input's `luma` of this frame.
    public func apply(mask: UnsafeMutablePointer<UInt8>, luma: UnsafePointer<UInt8>) {
        if hasHistory {
            let k = keep, ml = max(motionLimit, 1), cl = max(changeLimit, 1)
            // `n / (ml·cl)` for every n = k·motion·change as a multiply and a shift (Granlund and
            // Montgomery's division by an invariant integer, exact for every n < 2^N), instead of a
            // division per pixel; limits so large that the product could overflow divide.
            let divisor = ml * cl
            let n = Int.bitWidth - (max(k, 0) * divisor).leadingZeroBitCount      // N: bits of the largest n
            let l = Int.bitWidth - (divisor - 1).leadingZeroBitCount               // ⌈log2 divisor⌉
            let shift = n + l
            let multiplier = n <= 30 && k >= 0 ? ((1 << shift) + divisor - 1) / divisor : 0
            @inline(__always) func weight(_ motion: Int, _ change: Int) -> Int {
                multiplier != 0 ? (k * motion * change * multiplier) >> shift : k * motion * change / divisor
            }
            let row = cl + 1
            if k >= 0 && k <= 255 && (ml + 1) * row <= weights.count {
                // w ≤ k (motion ≤ ml, change ≤ cl), so one byte holds it.
                let table = weights.pointer
                if weightsFor.map({ $0 != (k, ml, cl) }) ?? true {
                    for motion in 0...ml {
                        for change in 0...cl { table[motion * row + change] = UInt8(truncatingIfNeeded: weight(motion, change)) }
                    }
                    weightsFor = (k, ml, cl)
                }
                let q8 = previousMask.pointer, l8 = previousLuma.pointer
                // Values are bytes and products below 2^17: wrapping arithmetic is exact.
                for i in 0..<count {
                    let p = Int32(mask[i]), q = Int32(q8[i])
                    let dl = Int32(luma[i]) &- Int32(l8[i]), dm = p &- q
                    let d = dl < 0 ? 0 &- dl : dl, c = dm < 0 ? 0 &- dm : dm
                    let motion = max(0, Int32(truncatingIfNeeded: ml) &- d), change = max(0, Int32(truncatingIfNeeded: cl) &- c)
                    let w = Int32(table[Int(motion &* Int32(truncatingIfNeeded: row) &+ change)])
                    mask[i] = UInt8(truncatingIfNeeded: (w &* q &+ (256 &- w) &* p &+ 128) &>> 8)
                }
            } else {
                for i in 0..<count {
                    let p = Int(mask[i]), q = Int(previousMask[i])
                    let d = abs(Int(luma[i]) - Int(previousLuma[i]))
                    let c = abs(p - q)
                    let w = weight(max(0, ml - d), max(0, cl - c))
                    mask[i] = UInt8(truncatingIfNeeded: (w * q + (256 - w) * p + 128) >> 8)
                }
            }
        }
        previousMask.pointer.update(from: mask, count: count)
        previousLuma.pointer.update(from: luma, count: count)
        hasHistory = true
    }
}
