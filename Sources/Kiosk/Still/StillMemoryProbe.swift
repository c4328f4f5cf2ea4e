#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Posix

/// The still path's resident memory by step, for finding which step of a still sets the kiosk's
/// peak: with `BOOTH_STILL_MEMORY=1` in the environment, each `mark` writes one line to standard
/// error, `still-memory STEP peak P MiB now N MiB` (P: the kernel's VmHWM since the last mark,
/// N: VmRSS at the mark), and resets the high-water mark (`/proc/self/clear_refs`), so each
/// step's peak is its own. Off by default: then `mark` only tests a flag.
///
/// Steps: booth mode `before`, `segmenter-build`, `rgb-copy`, `segment-composite`, `jpeg`;
/// passport mode `before`, `detector`, `mesh-iris-build` (the two models' builds), `mesh-iris`
/// (their runs; only when the full-range verifier is built next), `faces` (the face models' rest:
/// the mesh and iris runs, or the verifier), `mouth-mesh-close-up` (the close-up's mesh),
/// `mouth-mesh` (the attention mesh for the refined lips), `palm-build`, `palm` (its runs), `hand-build`, `hand`
/// (its runs), `segmenter-crop-rules`, `jpeg`.
///
/// The still's steps run on the still thread while the live models keep running on the vision
/// thread, so a step's peak includes what live vision held at that moment.
enum StillMemoryProbe {
    static let enabled = ProcessInfo.processInfo.environment["BOOTH_STILL_MEMORY"] == "1"

    /// Ends the step `step` (its peak is what the process reached since the previous mark).
    static func mark(_ step: String) {
        guard enabled else { return }
        let status = FileDescriptorIO.readText("/proc/self/status") ?? ""
        func kib(_ key: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(key) }) else { return 0 }
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        let mib = { (k: Int) in String(cFormat: "%.1f", Double(k) / 1024) }
        let line = "still-memory \(step) peak \(mib(kib("VmHWM:"))) MiB now \(mib(kib("VmRSS:"))) MiB\n"
        FileDescriptorIO.writeStandardError(line)
        // "5" resets the peak resident size (VmHWM) to the current one (proc(5), clear_refs).
        FileDescriptorIO.writeExisting("/proc/self/clear_refs", "5")
    }
}
