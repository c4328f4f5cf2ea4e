import CNeuralKernels

/// What the CPU running this process offers the integer kernels, read once from the hardware
/// (`getauxval(AT_HWCAP)` on aarch64 Linux, never `/proc/cpuinfo`). `IntegerKernels` turns it into
/// a kernel set, the way XNNPACK's configs pick microkernels from hardware flags at start-up.
public struct CPUFeatures: Sendable, Equatable {
    /// The C NEON kernels are in this build (aarch64).
    public var neon: Bool
    /// The dot-product extension (`sdot`/`udot`, ARMv8.2 `asimddp`: Cortex-A76, the Pi 5).
    public var dotProduct: Bool
    /// The C AVX2 kernels are in this build (x86-64 built for haswell or newer: the whole binary
    /// then needs AVX2, so this is a property of the build, not probed at run time).
    public var avx2: Bool
    /// AVX-512 F/BW/VL with VNNI (`vpdpwssd`: Ice Lake, Zen 4 and newer), probed at run time from
    /// CPUID (`booth_x86_has_avx512vnni`), so a haswell build uses the int16 GEMM's zmm kernel
    /// where the CPU has it. Only with `avx2` (the C kernels are in the build).
    public var avx512vnni: Bool

    public init(neon: Bool, dotProduct: Bool, avx2: Bool = false, avx512vnni: Bool = false) {
        self.neon = neon
        self.dotProduct = dotProduct
        self.avx2 = avx2
        self.avx512vnni = avx2 && avx512vnni
    }

    /// This machine's features.
#if arch(x86_64)
    public static let current = CPUFeatures(neon: booth_neon_available() != 0, dotProduct: booth_cpu_has_dotprod() != 0,
                                            avx2: booth_x86_available() != 0,
                                            avx512vnni: booth_x86_has_avx512vnni() != 0)
#else
    public static let current = CPUFeatures(neon: booth_neon_available() != 0, dotProduct: booth_cpu_has_dotprod() != 0)
#endif

    /// No vector extension beyond what Swift's SIMD types compile to.
    public static let baseline = CPUFeatures(neon: false, dotProduct: false)
}
