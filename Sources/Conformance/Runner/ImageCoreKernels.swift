/// Adapter from ImageCore's kernel table to conformance kernels.
/// (Empty until ImageCore registers its kernels.)
public enum ImageCoreKernels {
    public static var conformance: [ConformanceKernel] { [] }
}
