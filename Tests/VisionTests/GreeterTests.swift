import ImageCore
import Testing
import TestSupport
import Vision

/// The one greeting composite: a scene with nobody in it comes out as the background, at any
/// frame size (the compositor is re-planned when the size changes).
@Suite struct GreeterTests {
    static func grey(width: Int, height: Int) -> ImageBuffer {
        let b = ImageBuffer(format: .rgb888, width: width, height: height)
        b.withImage { image in
            for y in 0..<height { for x in 0..<(3 * width) { image.luma.row(y)[x] = 128 } }
        }
        return b
    }

    /// The share of pixels within 8 of (r, g, b).
    static func share(of image: Image, red r: Int, green g: Int, blue b: Int) -> Double {
        var hits = 0
        for y in 0..<image.height {
            let row = image.luma.row(y)
            for x in 0..<image.width where abs(Int(row[3 * x]) - r) <= 8 && abs(Int(row[3 * x + 1]) - g) <= 8
                && abs(Int(row[3 * x + 2]) - b) <= 8 { hits += 1 }
        }
        return Double(hits) / Double(image.width * image.height)
    }

    @Test func anEmptySceneBecomesTheBackgroundAtEverySize() throws {
        let segmenter = try ModelStore(directory: Fixtures.models).segmenter(.fast)
        let greeter = try Greeter(segmenter: segmenter, background: try BackgroundSpec(parsing: "#00FF00"), picture: nil)
        for (w, h) in [(160, 120), (96, 128), (160, 120)] {
            let frame = Self.grey(width: w, height: h)
            let green = frame.withImage { image in
                greeter.greet(image)
                return Self.share(of: image, red: 0, green: 255, blue: 0)
            }
            #expect(green > 0.9, "\(w)x\(h): \(green) of the frame is the background")
        }
    }

    @Test func aPictureBackgroundMustBeDecoded() throws {
        let segmenter = try ModelStore(directory: Fixtures.models).segmenter(.fast)
        let path = Fixtures.models + "/astronaut.png"
        #expect(throws: BackgroundSpecError.self) {
            try Greeter(segmenter: segmenter, background: .file(path), picture: nil)
        }
        #expect(throws: BackgroundSpecError.self) {
            try Greeter(segmenter: segmenter, background: .file(path), picture: ImageBuffer(format: .gray8, width: 4, height: 4))
        }
    }
}
