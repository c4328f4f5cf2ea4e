/// Exact box (area) coverage along one axis, in integer units.
///
/// With `g = gcd(src, dst)`, a source pixel spans `unitsPerSource = dst/g` units and a
/// destination pixel `unitsPerDestination = src/g` units (both cover the same total length).
/// Destination pixel `i` covers units `[i*S, (i+1)*S)`; source pixel `j` gets the integer weight
/// `min((j+1)*D, (i+1)*S) - max(j*D, i*S)` (≥ 0); the weights of one destination pixel sum to `S`.
@usableFromInline
struct AreaAxis {
    /// D: units per source pixel.
    let unitsPerSource: Int
    /// S: units per destination pixel (the sum of one pixel's weights).
    let unitsPerDestination: Int
    /// The most source pixels one destination pixel touches.
    let maxTaps: Int

    init(source: Int, destination: Int) {
        precondition(source > 0 && destination > 0, "resize: empty axis")
        var a = source, b = destination
        while b != 0 { (a, b) = (b, a % b) }
        unitsPerSource = destination / a
        unitsPerDestination = source / a
        maxTaps = (unitsPerDestination + unitsPerSource - 1) / unitsPerSource + 1
    }

    /// First source pixel under destination pixel `i`.
    @inline(__always) func first(_ i: Int) -> Int { i * unitsPerDestination / unitsPerSource }

    /// Last source pixel under destination pixel `i`.
    @inline(__always) func last(_ i: Int) -> Int { ((i + 1) * unitsPerDestination - 1) / unitsPerSource }

    /// Weight of source pixel `j` in destination pixel `i`.
    @inline(__always) func weight(_ j: Int, _ i: Int) -> Int {
        max(0, min((j + 1) * unitsPerSource, (i + 1) * unitsPerDestination) - max(j * unitsPerSource, i * unitsPerDestination))
    }
}
