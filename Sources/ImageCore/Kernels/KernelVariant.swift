/// The two implementations every kernel has: a plain scalar reference and a variant written
/// with Swift `SIMD` types. Integer variants produce the same bytes as the reference.
public enum KernelVariant: UInt8, Sendable, Equatable, CaseIterable {
    case scalar
    case simd
}
