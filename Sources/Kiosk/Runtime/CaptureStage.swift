import Hardware
import ImageCore
import Synchronization

/// Capture: pumps the camera into the frame ring (never waits for anyone; the ring recycles the
/// oldest unleased slot) and turns a still into an upright copy for the still stage — the still's
/// one rotation, made while the camera's buffer is valid.
final class CaptureStage: KioskStage {
    let name = "capture"
    let camera: ReconnectingFrameSource
    /// The size of the ring's slots: the preview the camera must deliver.
    let previewSize: (width: Int, height: Int)
    let links: StageLinks
    /// Where an upright still goes (the still stage's `submit`).
    let onStill: (ImageBuffer, FrameMetadata) -> Void
    private let stillRequested = Atomic<Bool>(false)

    init(camera: ReconnectingFrameSource, previewSize: (width: Int, height: Int), links: StageLinks,
         onStill: @escaping (ImageBuffer, FrameMetadata) -> Void) {
        self.camera = camera
        self.previewSize = previewSize
        self.links = links
        self.onStill = onStill
    }

    func configure() throws(KioskError) {
        guard camera.previewWidth == previewSize.width, camera.previewHeight == previewSize.height else {
            throw .camera(.unsupported(device: camera.name, detail: "preview \(camera.previewWidth)x\(camera.previewHeight) "
                                       + "does not match the frame ring's \(previewSize.width)x\(previewSize.height)"))
        }
    }

    /// Starts the camera. A first failure is thrown; the reconnecting source keeps trying after it.
    func start() throws(KioskError) {
        do { try camera.start() } catch { throw .camera(error) }
    }

    /// Any thread: ask for a full-resolution still with a coming frame (the capture thread asks the camera).
    func requestStill() { stillRequested.store(true, ordering: .releasing) }

    /// One pump of the camera: preview frames into the ring, or a still to `onStill`.
    func step(timeoutMilliseconds: Int32) -> Bool {
        if stillRequested.exchange(false, ordering: .acquiringAndReleasing) {
            do { try camera.requestStill() } catch { links.log("still request failed", error) }
        }
        let ring = links.ring, timings = links.timings, rotation = links.rotation, onStill = self.onStill
        let delivered = camera.pump(timeoutMilliseconds: timeoutMilliseconds, deliver: { metadata, fill in
            let start = ContinuousClock.now
            let ok = ring.produce(metadata: metadata, fill)
            timings.record(.capture, nanoseconds: (ContinuousClock.now - start).nanoseconds)
            return ok
        }, still: { image in
            onStill(Self.upright(image, rotation: rotation), image.metadata)
        })
        if delivered > 0 { links.frameArrived.notify() }
        return delivered > 0
    }

    func stop() { camera.stop() }

    /// An upright copy of a still that is only valid during the camera's callback.
    static func upright(_ image: Image, rotation: Rotation?) -> ImageBuffer {
        guard let rotation else {
            let copy = ImageBuffer(format: image.format, width: image.width, height: image.height)
            copy.withImage { CopyPlane.run(image, $0) }
            return copy
        }
        let size = rotation.rotatedSize(width: image.width, height: image.height)
        let upright = ImageBuffer(format: image.format, width: size.width, height: size.height)
        upright.withImage { Rotate.run(image, $0, rotation) }
        return upright
    }
}
