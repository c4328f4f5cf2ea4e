import Foundation
import Hardware
import ImageCore
import ImageFiles
import Passport

/// The still path: shutter press → full-resolution still → upright → JPEG straight from the YUV
/// planes → saved with a JSON sidecar. Runs on the still worker thread, off the preview path.
final class StillProcessor {
    let config: KioskConfig
    let board: Board
    let store: PhotoStore
    let profile: Profile?
    let writer: any StillWriter

    init(config: KioskConfig, board: Board, store: PhotoStore, profile: Profile?, writer: (any StillWriter)? = nil) {
        self.writer = writer ?? JPEGStillWriter(quality: config.jpegQuality)
        self.config = config
        self.board = board
        self.store = store
        self.profile = profile
    }

    func process(_ job: StillJob) -> StillResult {
        var image = job.image
        if let rotation = Rotation(rawValue: board.camera.rotation) {
            let size = rotation.rotatedSize(width: image.width, height: image.height)
            let upright = ImageBuffer(format: image.format, width: size.width, height: size.height)
            Rotate.run(image.image(), upright.image(), rotation)
            image = upright
        }
        let jpeg: [UInt8]
        do {
            jpeg = try writer.write(image.image(metadata: job.metadata))
        } catch {
            return StillResult(saved: nil, thumbnail: nil, message: "Could not encode the photo")
        }
        let sidecar = Sidecar(
            software: "booth \(BoothVersion.string)", board: board.name, mode: config.mode.rawValue, profile: profile?.name,
            taken: ISO8601DateFormatter().string(from: job.date), width: image.width, height: image.height,
            frameSequence: job.metadata.sequence,
            verdict: profile.map { LiveRules(profile: $0).verdict(job.live.check) },
            pose: job.live.faceCount > 0 ? .init(roll: job.live.roll, pitch: job.live.pitch, yaw: job.live.yaw) : nil,
            quality: job.live.quality)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let json: [UInt8] = (try? encoder.encode(sidecar)).map { [UInt8]($0) + [0x0A] } ?? []
        do throws(StorageError) {
            let saved = try store.save(jpeg: jpeg, sidecar: json, date: job.date)
            return StillResult(saved: saved, thumbnail: Self.thumbnail(of: image), message: "Saved")
        } catch {
            if case .diskNearlyFull = error { return StillResult(saved: nil, thumbnail: nil, message: "Disk full: photo not taken") }
            return StillResult(saved: nil, thumbnail: nil, message: "Could not save the photo")
        }
    }

    /// A copy at most 320 pixels wide, as XRGB8888.
    static func thumbnail(of image: ImageBuffer) -> ImageBuffer {
        let scale = min(1, 320 / Double(image.width))
        let w = max(1, Int(Double(image.width) * scale)), h = max(1, Int(Double(image.height) * scale))
        let small = ImageBuffer(format: image.format, width: w, height: h)
        ResizeArea.run(image.image(), small.image())
        if image.format == .xrgb8888 { return small }
        let out = ImageBuffer(format: .xrgb8888, width: w, height: h)
        YUVToRGB.run(small.image(), out.image(), matrix: .bt601Full)
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
    var width: Int
    var height: Int
    var frameSequence: UInt64
    var verdict: Verdict?
    var pose: Pose?
    var quality: Double?
}
