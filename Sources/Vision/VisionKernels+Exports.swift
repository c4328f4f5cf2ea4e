// Vision's per-frame kernels live in VisionKernels (Foundation-free, Embedded Swift clean, built
// for aarch64 by CMakeLists.txt); Vision re-exports them, so `import Vision` still sees every
// public name (QualityKernelTable, GuidedFilter, MaskMapping, Rect, …) where it always did.
@_exported import VisionKernels
