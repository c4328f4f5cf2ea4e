/// The `--frame` entry point of the aarch64 conformance binary (`scripts/arm/driver.c`), beside
/// `CEntry.swift`'s so the per-model entries stay as they are.

/// Runs `FrameBench` part `part` (0: the per-frame mesh + segmentation work, 1: the face detector)
/// `iterations` times on the models given (`mesh`, `landscape`, `detector`: `*Count` bytes each,
/// nil when not read; each part needs only its own), for instruction counting. Returns the output
/// checksum's low 31 bits, or -1 after printing why the frame could not run.
@_cdecl("booth_conformance_frame")
public func boothConformanceFrame(_ part: Int32, _ mesh: UnsafePointer<UInt8>?, _ meshCount: Int,
                                  _ landscape: UnsafePointer<UInt8>?, _ landscapeCount: Int,
                                  _ detector: UnsafePointer<UInt8>?, _ detectorCount: Int, _ iterations: Int) -> Int32 {
    func bytes(_ p: UnsafePointer<UInt8>?, _ n: Int) -> [UInt8]? {
        guard let p else { return nil }
        return Array(UnsafeBufferPointer(start: p, count: n))
    }
    guard part == 0 || part == 1 else {
        print("frame: unknown part \(part)")
        return -1
    }
    do throws(FrameBench.Failure) {
        let h = try FrameBench.run(part: part == 0 ? .frame : .detector, mesh: bytes(mesh, meshCount),
                                   landscape: bytes(landscape, landscapeCount), detector: bytes(detector, detectorCount),
                                   iterations: iterations)
        return Int32(truncatingIfNeeded: h & 0x7FFF_FFFF)
    } catch {
        print(error.description)
        return -1
    }
}
