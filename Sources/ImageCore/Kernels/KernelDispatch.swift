import Synchronization

/// The global switch between kernel variants. Each kernel's `run` entry point asks
/// `KernelDispatch.variant` which implementation to call; setting `forceScalar` makes every
/// kernel take its scalar reference (for debugging, or to compare results in a running system).
public enum KernelDispatch {
    private static let forceScalarFlag = Atomic<Bool>(false)

    /// When true, every `run` entry point calls the scalar reference.
    public static var forceScalar: Bool {
        get { forceScalarFlag.load(ordering: .relaxed) }
        set { forceScalarFlag.store(newValue, ordering: .relaxed) }
    }

    /// The variant `run` entry points use now.
    @inlinable public static var variant: KernelVariant { forceScalar ? .scalar : .simd }
}
