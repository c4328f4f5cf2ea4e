// swift-tools-version: 6.1
// Booth: a passport-photo and photo-booth kiosk for Raspberry Pi-class boards.
// The targets follow the pipeline: ImageCore → NeuralCore → Vision → Passport; Hardware; Kiosk; booth.
import PackageDescription

import Foundation

/// On x86-64, code for the CPU that builds it ("native": AVX-512 and VNNI where the CPU has them,
/// as LiteRT's XNNPACK picks at run time): without at least AVX2 + FMA Swift's SIMD fused
/// multiply-adds become per-lane `fmaf` library calls, 10–70× slower. `-Xcc -mavx2` does not
/// reach Swift code; `-target-cpu` does. Set BOOTH_TARGET_CPU=haswell for a binary that runs on
/// any AVX2 x86 CPU, or BOOTH_TARGET_CPU= (empty) for a baseline x86-64 build. aarch64 builds use
/// NEON as is.
#if arch(x86_64)
let cpu = ProcessInfo.processInfo.environment["BOOTH_TARGET_CPU"] ?? "native"
/// AVX-512 targets (32 vector registers) get `BOOTH_AVX512`: the GEMM's 8-row tiles.
let avx512: Bool = {
    if cpu == "native" {
        return (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?.contains(" avx512f") ?? false
    }
    return ["x86-64-v4", "skylake-avx512", "cascadelake", "cooperlake", "icelake-client", "icelake-server",
            "tigerlake", "sapphirerapids", "emeraldrapids", "graniterapids", "znver4", "znver5"].contains(cpu)
}()
let cpuFlags = (cpu.isEmpty ? [] : ["-target-cpu", cpu]) + (avx512 ? ["-D", "BOOTH_AVX512"] : [])
/// The same CPU for CNeuralKernels' C (neural_kernels_x86.c's AVX2 + FMA kernels exist only when
/// `__AVX2__` and `__FMA__` are defined), scheduled for haswell whatever the CPU: the kernels are
/// written for AVX2's 16 ymm registers, and `-march=native` on this VM's AMD EPYC (znver3 tuning)
/// unrolled their float tile loops and ran the int-path detector about 9 % slower than the same
/// code tuned for haswell (1.56–1.57 → 1.43 ms, alternating, same session).
let cCPUFlags = cpu.isEmpty ? [] : ["-march=" + cpu, "-mtune=haswell"]
#else
let cpuFlags: [String] = []
let cCPUFlags: [String] = []
#endif

/// Flags for the Foundation-free cores. They also build as Embedded Swift (see CMakeLists.txt).
let coreSettings: [SwiftSetting] = [
    .unsafeFlags(["-Ounchecked"] + cpuFlags, .when(configuration: .release)),
    .unsafeFlags(cpuFlags, .when(configuration: .debug)),
    .enableExperimentalFeature("StrictConcurrency"),
]

let package = Package(
    name: "Booth",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "booth", targets: ["booth"]),
        .library(name: "ImageCore", targets: ["ImageCore"]),
        .library(name: "NeuralCore", targets: ["NeuralCore"]),
        .library(name: "Vision", targets: ["Vision"]),
        // For Benchmarks/ (the vision step is built from these, as the kiosk's vision thread is).
        .library(name: "Passport", targets: ["Passport"]),
        .library(name: "ImageFiles", targets: ["ImageFiles"]),
        .library(name: "Kiosk", targets: ["Kiosk"]),
        // The libcamera shim as its own library, loaded by CCameraLoader only when a board's
        // camera is libcamera (built by `make build`; installed beside the binary).
        .library(name: "BoothCamera", type: .dynamic, targets: ["CCamera"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        // MARK: C system libraries and shims
        .systemLibrary(
            name: "CTurboJPEG", path: "Sources/C/CTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(
            name: "CPNG", path: "Sources/C/CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CZlib", path: "Sources/C/CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CDRM", path: "Sources/C/CDRM", pkgConfig: "libdrm",
            providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(
            name: "CLibcamera", path: "Sources/C/CLibcamera", pkgConfig: "libcamera",
            providers: [.apt(["libcamera-dev"])]),
        // C++ shim over libcamera with a small C API (opaque handles, negative errno). Built only
        // into libBoothCamera.so (the BoothCamera product); -Bsymbolic keeps its own calls inside it.
        .target(
            name: "CCamera", dependencies: ["CLibcamera"], path: "Sources/C/CCamera",
            cxxSettings: [.unsafeFlags(["-std=c++17"])],
            linkerSettings: [.unsafeFlags(["-Xlinker", "-Bsymbolic"])]),
        // The CCamera API for the product: forwards to libBoothCamera.so, dlopen'ed on first use,
        // so only a libcamera board's process maps libcamera.
        .target(name: "CCameraLoader", path: "Sources/C/CCameraLoader"),
        // Thin C wrappers for variadic or macro-only Linux calls (ioctl, GPIO uAPI, mmap flags).
        .target(name: "CSyscalls", path: "Sources/C/CSyscalls"),
        // The one syscall layer (injectable in tests): device calls, the save path, sd_notify.
        .target(name: "Syscalls", dependencies: ["CSyscalls"]),

        // MARK: Cores (Foundation-free, Embedded-Swift-clean)
        .target(name: "ImageCore", swiftSettings: coreSettings),
        // NeuralCore's aarch64 inner loops in C with arm_neon.h, and its x86-64 AVX2 ones
        // (neural_kernels_x86.c; each file's kernels are empty stubs elsewhere).
        .target(name: "CNeuralKernels", path: "Sources/C/CNeuralKernels",
                cSettings: [.unsafeFlags(["-O2", "-ffp-contract=off"] + cCPUFlags)]),
        .target(name: "NeuralCore", dependencies: ["ImageCore", "CNeuralKernels"], swiftSettings: coreSettings),
        // Kernel test vectors and checks shared by the x86 tests and the aarch64 runner (CMakeLists.txt).
        .target(name: "Conformance", dependencies: ["ImageCore", "NeuralCore", "VisionKernels"], swiftSettings: coreSettings),

        // MARK: Vision and rules
        // Vision's per-frame kernels (quality measurements, segmentation sampling/warp/filters,
        // the tensor warp): Foundation-free and Embedded-clean like the cores; Vision re-exports them.
        .target(name: "VisionKernels", dependencies: ["ImageCore"], swiftSettings: coreSettings),
        .target(name: "Vision", dependencies: ["ImageCore", "NeuralCore", "VisionKernels", "Config"], swiftSettings: coreSettings),
        .target(name: "Config"),
        .target(name: "Passport", dependencies: ["Vision", "Config"]),

        // MARK: Files and devices
        // What the kiosk took from Foundation, on POSIX alone (threads, a mutex and condition,
        // printf formatting, path strings, whole reads and writes), so the booth binary links
        // neither libFoundation nor ICU.
        .target(name: "Posix", dependencies: ["Syscalls"]),
        .target(name: "ImageFiles", dependencies: ["ImageCore", "Syscalls", "CTurboJPEG", "CPNG", "CZlib"]),
        .target(
            name: "Hardware",
            dependencies: ["ImageCore", "ImageFiles", "Syscalls", "CCameraLoader", "CDRM", "CSyscalls", "Posix"]),

        // MARK: The product
        .target(
            name: "Kiosk",
            dependencies: [
                "ImageCore", "ImageFiles", "NeuralCore", "Vision", "Passport", "Hardware", "Config", "Posix",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "booth",
            dependencies: [
                "Kiosk", "ImageFiles", "NeuralCore", "Vision", "Passport", "Hardware", "Posix",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),

        // Checks DRMDisplay on a real kernel driver inside QEMU (scripts/vm/run, `make test-vm`).
        .executableTarget(
            name: "booth-vmcheck", dependencies: ["Hardware", "ImageCore", "CDRM", "Kiosk"], path: "Sources/booth-vmcheck"),

        // MARK: Tests
        .target(name: "TestSupport", dependencies: ["ImageCore", "Conformance", "Syscalls"], path: "Tests/TestSupport"),
        .testTarget(name: "ImageCoreTests", dependencies: ["ImageCore", "TestSupport"]),
        .testTarget(name: "ImageFilesTests", dependencies: ["ImageFiles", "Syscalls", "TestSupport"]),
        .testTarget(
            name: "NeuralCoreTests", dependencies: ["NeuralCore", "TestSupport", "CMallocCounter"],
            // Export the test's counting allocator (Tests/CMallocCounter) so the dynamic loader
            // binds every malloc in the process to it: proves run() allocates nothing.
            // `-z now` binds all symbols at load, so the allocator never triggers lazy binding.
            linkerSettings: [.unsafeFlags(["malloc", "calloc", "realloc", "memalign", "aligned_alloc", "posix_memalign"]
                .flatMap { ["-Xlinker", "--export-dynamic-symbol=" + $0] } + ["-Xlinker", "-z", "-Xlinker", "now"],
                .when(platforms: [.linux]))]),
        // The C allocator interposer behind NeuralCoreTests' MallocCounter (C, because swiftc
        // reserves the names `malloc` & co. for its runtime).
        .target(name: "CMallocCounter", path: "Tests/CMallocCounter"),
        .testTarget(name: "ConformanceTests", dependencies: ["Conformance"], exclude: ["golden.txt"]),
        .testTarget(name: "VisionTests", dependencies: ["Vision", "ImageFiles", "TestSupport"]),
        .testTarget(name: "ConfigTests", dependencies: ["Config"]),
        .testTarget(name: "PassportTests", dependencies: ["Passport", "Config", "ImageFiles", "TestSupport"]),
        .testTarget(name: "PosixTests", dependencies: ["Posix", "Syscalls"]),
        .testTarget(name: "HardwareTests", dependencies: ["Hardware", "CSyscalls", "TestSupport"]),
        .testTarget(name: "KioskTests", dependencies: ["Kiosk", "Vision", "Passport", "ImageFiles", "Hardware", "TestSupport"]),
        // The built `booth` executable from the outside (arguments, files, exit codes).
        .testTarget(name: "BoothCLITests", dependencies: ["booth", "ImageFiles", "TestSupport"]),
    ]
)
