import ImageCore
import Kiosk
import Testing

/// The fixed overlay screens `make test-vm` compares across the host and the VM: drawn twice they
/// are identical, and what the scenes are meant to differ in shows up in their pixels.
struct OverlayScenesTests {
    static func differing(_ a: ImageBuffer, _ b: ImageBuffer) -> Int {
        a.withImage { first in b.withImage { OverlayScenes.differingPixels(first, $0) } }
    }


    @Test func scenesAreRepeatableAndDistinct() throws {
        let scenes = try OverlayScenes(screenWidth: 800, screenHeight: 480, profileName: "icao")
        #expect(!scenes.live(.adjust).green)
        #expect(scenes.live(.ready).green)
        let all = OverlayScenes.Scene.allCases.map { scene in
            let b = ImageBuffer(format: .xrgb8888, width: 800, height: 480)
            b.withImage { scenes.render(scene, into: $0) }
            return b
        }
        // Drawn again over a different screen: identical (every pixel is drawn each time).
        for scene in OverlayScenes.Scene.allCases {
            let again = ImageBuffer(format: .xrgb8888, width: 800, height: 480)
            again.withImage { screen in
                scenes.render(scene == .adjust ? .review : .adjust, into: screen)
                scenes.render(scene, into: screen)
            }
            #expect(Self.differing(again, all[scene.rawValue]) == 0, "\(scene.name)")
        }
        for i in all.indices {
            for j in all.indices where j > i {
                #expect(Self.differing(all[i], all[j]) > 1000, "\(i) vs \(j)")
            }
        }
        // The guide's colour alone: only the oval and the face box change.
        let green = ImageBuffer(format: .xrgb8888, width: 800, height: 480)
        green.withImage { scenes.render(.adjust, into: $0, guideGreen: true) }
        let changed = Self.differing(green, all[OverlayScenes.Scene.adjust.rawValue])
        #expect(changed > 500 && changed < 800 * 480 / 20)
    }

    /// After the review the kiosk keeps the last photo at its corner size only (about a tenth of
    /// the review copy's memory): the live screens show the same pixels.
    @Test func cornerThumbnailDrawsTheSamePixels() throws {
        let scenes = try OverlayScenes(screenWidth: 800, screenHeight: 480, profileName: "icao")
        for scene in [OverlayScenes.Scene.ready, .countdown] {
            let review = ImageBuffer(format: .xrgb8888, width: 800, height: 480)
            let corner = ImageBuffer(format: .xrgb8888, width: 800, height: 480)
            review.withImage { scenes.render(scene, into: $0) }
            corner.withImage { scenes.render(scene, into: $0, cornerThumbnail: true) }
            #expect(Self.differing(review, corner) == 0, "\(scene.name)")
        }
        // A smaller copy was drawn (800 / 6 = 133 pixels wide against the review's 320).
        #expect(scenes.lastPhotoBytes(cornerThumbnail: true) * 4 < scenes.lastPhotoBytes(cornerThumbnail: false))
    }
}
