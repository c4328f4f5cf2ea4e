#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Hardware
import ImageCore
import ImageFiles
import Passport
import Vision

/// What the still path does between the upright still and the JPEG.
enum StillFinish {
    /// The still as shot, encoded straight from its YUV planes (booth mode, background kept).
    case asShot
    /// Booth mode: when the background was hidden at the press, the people are cut out with the
    /// accurate mask and put over the greeting image (scaled to cover) or white; otherwise as shot.
    case greeting(models: StillModels, background: ImageBuffer?)
    /// Passport mode: `PassportPhotoMaker` (accurate mask, crown from mesh and mask, the profile's
    /// background unless it was kept at the press, crop and scale to the profile, every rule checked).
    case passport(Profile, StillModels)
}

/// The still path: shutter press → full-resolution still (made upright by the capture stage) →
/// finished (passport crop or greeting composite, see `StillFinish`) → JPEG → saved with a JSON
/// sidecar. Runs in the still stage, off the preview path; the models it holds are used there only.
///
/// A still that cannot be finished is never lost: when the passport photo cannot be made (no face
/// or two faces in the still), the still is saved as shot and the sidecar says why.
final class StillProcessor {
    let config: KioskConfig
    let board: Board
    let store: PhotoStore
    let profile: Profile?
    let finish: StillFinish
    /// Encodes the photo: JPEG from the YUV planes for a still as shot, from RGB when finished.
    let writer: any StillWriter

    init(config: KioskConfig, board: Board, store: PhotoStore, profile: Profile?, finish: StillFinish,
         writer: (any StillWriter)? = nil) {
        self.writer = writer ?? JPEGStillWriter(quality: config.jpegQuality)
        self.finish = finish
        self.config = config
        self.board = board
        self.store = store
        self.profile = profile
    }

    /// Finishes, encodes and saves one still (already upright: the capture stage rotated it).
    /// A greeting or a passport photo replaces `job.image` by its RGB copy as soon as that is
    /// made, so the camera's still is freed before the models run (at a 12 MP still its I420
    /// planes are 17.4 MiB).
    func process(_ job: inout StillJob) -> StillResult {
        let (stillWidth, stillHeight) = (job.image.width, job.image.height)

        var finished: ImageBuffer? = nil
        var passport: PassportReport? = nil
        var background = "kept"
        var message = "Saved"
        switch finish {
        case .asShot:
            break
        case .greeting(let models, let picture):
            guard job.hideBackground else { break }
            // The segmenter lives for this still only (see StillModels).
            StillMemoryProbe.mark("before")
            models.lendLiveMemory()
            let segmenter: PersonSegmenter
            do { segmenter = try models.segmenter(width: stillWidth, height: stillHeight) } catch {
                message = "Saved as shot: \(error)"
                break
            }
            // The one greeting composite (`Greeter`, as `booth greet`): the config's picture, else white.
            let greeter: Greeter
            do {
                greeter = try Greeter(segmenter: segmenter,
                                      background: picture == nil ? .color(red: 255, green: 255, blue: 255) : .file("greeting"),
                                      picture: picture)
            } catch {
                message = "Saved as shot: \(error)"
                break
            }
            StillMemoryProbe.mark("segmenter-build")
            let rgb = Self.rgb(job.image)
            job.image = rgb
            StillMemoryProbe.mark("rgb-copy")
            rgb.withImage { greeter.greet($0) }
            StillMemoryProbe.mark("segment-composite")
            models.returnLentPages()   // the general segmenter's pages of the live memory
            finished = rgb
            background = picture == nil ? "white" : "greeting"
        case .passport(let profile, let models):
            // Each model lives for its own step of the still only, one at a time (see StillModels and
            // PassportModels); the pages the one before freed are returned before the next is built.
            let (width, height) = (stillWidth, stillHeight)
            StillMemoryProbe.mark("before")
            models.lendLiveMemory()
            let maker = PassportPhotoMaker(profile: profile, models: .built(
                faces: { try models.faces(in: $0) },
                segmenter: {
                    StillMemoryProbe.mark("hand")
                    models.returnLentPages()
                    ProcessMemory.returnFreePages()
                    return try models.segmenter(width: width, height: height)
                },
                palms: ({ StillMemoryProbe.mark("mouth-mesh"); models.returnLentPages(); ProcessMemory.returnFreePages()
                          let palms = try models.palmDetector()
                          StillMemoryProbe.mark("palm-build")
                          return palms },
                        // The palm detector's pages of the live memory go back before the hand
                        // model is built (they would add to its build's peak).
                        { StillMemoryProbe.mark("palm"); models.returnLentPages(); ProcessMemory.returnFreePages()
                          let hand = try models.handLandmarkVerifier()
                          StillMemoryProbe.mark("hand-build")
                          return hand }),
                // The mesh model again on a close-up of the lower face, after the face models.
                mouthCloseUp: { StillMemoryProbe.mark("faces"); ProcessMemory.returnFreePages()
                                return try models.mouthMesh() },
                // The attention mesh for the refined lips, after the close-up's mesh is dropped.
                refinedLips: { StillMemoryProbe.mark("mouth-mesh-close-up"); ProcessMemory.returnFreePages()
                               return try models.refinedLips() }))
            // The camera's still goes once its RGB copy is made, as a greeting's does (on a 12 MP
            // sensor its I420 planes are 17.4 MiB, kept until the JPEG before): a still the maker
            // cannot finish is saved as shot from that RGB copy (the same pixels; the JPEG is not
            // the one the YUV planes encode to, byte for byte).
            let rgb = Self.rgb(job.image)
            job.image = rgb
            do {
                let made = try rgb.withImage { still throws(PassportPhotoMaker.Failure) in
                    try maker.make(from: still, keepBackground: !job.hideBackground)
                }
                finished = made.image
                background = job.hideBackground ? "profile" : "kept"
                passport = PassportReport(complies: made.complies, message: made.complies ? "complies" : "does not comply",
                                           rules: made.rules, width: made.image.width, height: made.image.height)
                if !made.complies { message = "Saved; check: " + made.failures.map(\.rule).joined(separator: ", ") }
            } catch {
                passport = PassportReport(error)
                message = "Saved uncropped: \(error.message)"
            }
            StillMemoryProbe.mark("segmenter-crop-rules")
            models.returnLentPages()   // also when the still stopped before its segmenter
        }

        // The finishing models and buffers are dropped: their pages go back before the encoder's.
        if finished != nil { ProcessMemory.returnFreePages() }
        let output = finished ?? job.image
        let jpeg: [UInt8]
        do {
            jpeg = try output.withImage(metadata: job.metadata) { still throws(ImageFileError) in try writer.write(still) }
        } catch {
            return StillResult(saved: nil, thumbnail: nil, message: "Could not encode the photo")
        }
        StillMemoryProbe.mark("jpeg")
        let sidecar = Sidecar(
            software: "booth \(BoothVersion.string)", board: board.name, mode: config.mode.rawValue, profile: profile?.name,
            taken: UTCTimestamp.iso8601(job.date), width: output.width, height: output.height,
            stillWidth: stillWidth, stillHeight: stillHeight, background: background,
            frameSequence: job.metadata.sequence,
            verdict: profile.map { LiveRules(profile: $0).verdict(job.live.check) },
            passport: passport,
            pose: job.live.faceCount > 0 ? .init(roll: job.live.roll, pitch: job.live.pitch, yaw: job.live.yaw) : nil,
            quality: job.live.quality)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let json: [UInt8] = (try? encoder.encode(sidecar)).map { [UInt8]($0) + [0x0A] } ?? []
        do throws(StorageError) {
            let saved = try store.save(jpeg: jpeg, sidecar: json, date: job.date)
            return StillResult(saved: saved, thumbnail: Self.thumbnail(of: output), message: message)
        } catch {
            if case .diskNearlyFull = error { return StillResult(saved: nil, thumbnail: nil, message: "Disk full: photo not taken") }
            return StillResult(saved: nil, thumbnail: nil, message: "Could not save the photo")
        }
    }

    /// An RGB888 copy of a camera still (I420/NV12 full-range BT.601, as the camera delivers).
    static func rgb(_ image: ImageBuffer) -> ImageBuffer {
        if image.format == .rgb888 { return image }
        let out = ImageBuffer(format: .rgb888, width: image.width, height: image.height)
        image.withImage { src in out.withImage { dst in YUVToRGB.run(src, dst, matrix: .bt601Full) } }
        return out
    }

    /// A copy at most 320 pixels wide, as XRGB8888.
    static func thumbnail(of image: ImageBuffer) -> ImageBuffer {
        let scale = min(1, 320 / Double(image.width))
        let w = max(1, Int(Double(image.width) * scale)), h = max(1, Int(Double(image.height) * scale))
        let small = ImageBuffer(format: image.format, width: w, height: h)
        image.withImage { src in small.withImage { dst in ResizeArea.run(src, dst) } }
        let out = ImageBuffer(format: .xrgb8888, width: w, height: h)
        switch image.format {
        case .xrgb8888:
            return small
        case .rgb888:
            // Once per photo, 320 pixels wide: a plain loop (ImageCore has no RGB→XRGB kernel).
            small.withImage { s in
                out.withImage { d in
                    for y in 0..<h {
                        let src = s.luma.row(y), dst = d.luma.row(y)
                        for x in 0..<w {
                            dst[4 * x] = src[3 * x + 2]; dst[4 * x + 1] = src[3 * x + 1]; dst[4 * x + 2] = src[3 * x]
                            dst[4 * x + 3] = 0xFF
                        }
                    }
                }
            }
        default:
            small.withImage { src in out.withImage { dst in YUVToRGB.run(src, dst, matrix: .bt601Full) } }
        }
        return out
    }
}

/// The `.json` beside each photo.
struct Sidecar: Encodable {
    struct Pose: Encodable { var roll: Double; var pitch: Double; var yaw: Double }
    var software: String
    var board: String
    var mode: String
    var profile: String?
    var taken: String
    /// The saved JPEG's size.
    var width: Int
    var height: Int
    /// The camera still's size (upright), before any crop.
    var stillWidth: Int
    var stillHeight: Int
    /// "kept", "white", "greeting" or "profile" (the profile's colour).
    var background: String
    var frameSequence: UInt64
    /// The live verdict at the press (passport mode).
    var verdict: Verdict?
    /// The finished photo's report (passport mode).
    var passport: PassportReport?
    var pose: Pose?
    var quality: Double?
}
