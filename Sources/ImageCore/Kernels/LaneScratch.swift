/// 512 bytes of stack memory for gathers and scatters in SIMD variants.
///
/// Setting vector lanes one at a time in a loop (`v[i] = x`) compiles to a store of one lane and
/// a reload of the whole vector per lane, which stalls on store forwarding. Gathered values go
/// to this scratch with plain scalar stores instead, and come back as one vector load each.
/// `with` hands out the memory; nothing is heap-allocated.
@usableFromInline
struct LaneScratch {
    var storage: (SIMD16<Int32>, SIMD16<Int32>, SIMD16<Int32>, SIMD16<Int32>,
                  SIMD16<Int32>, SIMD16<Int32>, SIMD16<Int32>, SIMD16<Int32>) =
        (.zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero)

    /// Capacity in Int32 lanes.
    static let lanes = 128

    /// Runs `body` with the scratch as 128 Int32 lanes (or any type via rebinding of the raw pointer).
    @inline(__always)
    static func with<R>(_ body: (UnsafeMutableRawPointer) -> R) -> R {
        var scratch = LaneScratch()
        return withUnsafeMutablePointer(to: &scratch) { body(UnsafeMutableRawPointer($0)) }
    }
}
