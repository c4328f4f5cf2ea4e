import Conformance

/// The deterministic SplitMix64 generator of every randomized test: the conformance runner's, so
/// a seed means the same data in the x86 tests and on aarch64.
public typealias SeededGenerator = ConformanceRandom
