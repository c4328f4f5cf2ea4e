#if hasFeature(Embedded)
import Synchronization

/// Embedded Swift for bare metal (`aarch64-none-none-elf`) has `Atomic` but no
/// `Synchronization.Mutex` (there is no OS lock to wrap). This stands in for the part of its
/// API `FrameRing` uses: a spin lock on an `Atomic<Bool>` around the value. Hosted builds use
/// the real `Mutex`.
@usableFromInline
final class Mutex<Value>: @unchecked Sendable {
    private let locked = Atomic<Bool>(false)
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        while !locked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {}
        defer { locked.store(false, ordering: .releasing) }
        return body(&value)
    }
}
#endif
