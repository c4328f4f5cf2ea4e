import ImageCore
import ImageFiles
import NeuralCore
import TestSupport
import Testing
import Vision
#if canImport(Glibc)
import Glibc
#endif

/// The README table: time per level at 640×480 (and accurate at 12 MP), working memory, and the
/// mean IoU of each level against LiteRT's float model output (masks made by
/// scripts/segmentation/litert_masks.py into out/segmentation/litert). Opt-in (it takes a while):
/// BOOTH_SEGMENT_MEASURE=1 swift test -c release --skip-build --filter SegmentationMeasure
@Suite(.serialized) struct SegmentationMeasureTests {
    static var enabled: Bool { getenv("BOOTH_SEGMENT_MEASURE") != nil }

    static func seconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    @Test func timeAndMemoryPerLevel() throws {
        guard Self.enabled else { print("SegmentationMeasureTests: set BOOTH_SEGMENT_MEASURE=1 to measure"); return }
        let astronaut = try ImageDecoder().decode(path: Fixtures.models + "/astronaut.png", as: .rgb888)
        for (w, h) in [(640, 480), (4000, 3000)] {
            let frame = ImageBuffer(format: .rgb888, width: w, height: h)
            let crop = astronaut.image().cropped(x: 0, y: 64, width: 512, height: 384)
            ResizeBilinear.run(crop, frame.image())
            let yuv = ImageBuffer(format: .i420, width: w, height: h)
            RGBToI420.run(frame.image(), yuv.image())
            for level in SegmentationLevel.allCases {
                if w > 1000 && level != .accurate { continue }
                let seg = try SegmentationFixtures.segmenter(level)
                seg.temporalStability = level != .accurate
                for (name, image) in [("RGB888", frame.image()), ("I420", yuv.image())] {
                    _ = seg.segment(image)
                    let runs = level == .accurate ? (w > 1000 ? 2 : 5) : 40
                    let t0 = Self.seconds()
                    for _ in 0..<runs { _ = seg.segment(image) }
                    let ms = (Self.seconds() - t0) / Double(runs) * 1000
                    let m = seg.segment(image)
                    print("MEASURE \(level.rawValue) \(w)x\(h) \(name): \(String(ms)) ms/frame, model \(m.modelPlane.width)x\(m.modelPlane.height), mask \(m.width)x\(m.height), working memory \(seg.workingByteCount / 1024) KiB, path \(seg.executionPath)")
                }
            }
        }
    }

    @Test func modelAlone() throws {
        guard Self.enabled else { return }
        for m in SegmentationModel.allCases {
            for path in [ExecutionPath.float, .integer] {
                let interp = try Interpreter(model: SegmentationFixtures.model(m)!, path: path)
                interp.run()
                let t0 = Self.seconds()
                for _ in 0..<20 { interp.run() }
                print("MEASURE model alone \(m) \(path): \((Self.seconds() - t0) / 20 * 1000) ms")
            }
        }
    }

    @Test func stagesAt640x480() throws {
        guard Self.enabled else { return }
        let frame = ImageBuffer(format: .rgb888, width: 640, height: 480)
        var g = SeededGenerator(seed: 9)
        for y in 0..<480 { for x in 0..<(640 * 3) { frame.image().luma.row(y)[x] = UInt8.random(in: 0...255, using: &g) } }
        let mapping = MaskMapping(frameWidth: 640, frameHeight: 480, rotation: .none, modelWidth: 256, modelHeight: 144, fit: .stretch)
        let input = UnsafeMutableBufferPointer<Float>.allocate(capacity: 256 * 144 * 3)
        let luma = UnsafeMutablePointer<UInt8>.allocate(capacity: 256 * 144)
        defer { input.deallocate(); luma.deallocate() }
        func time(_ label: String, _ body: () -> Void) {
            body()
            let t0 = Self.seconds()
            for _ in 0..<50 { body() }
            print("MEASURE stage \(label): \((Self.seconds() - t0) / 50 * 1000) ms")
        }
        time("model input 256x144 from 640x480 RGB") { ModelInputSampler.fill(input, luma: luma, from: frame.image(), mapping: mapping) }
        let guide = ImageBuffer(format: .gray8, width: 640, height: 480), mask = ImageBuffer(format: .gray8, width: 640, height: 480)
        let gf = GuidedFilter(maxWidth: 640, maxHeight: 480, radius: 4, epsilon: 400)
        time("guided filter 640x480 r4") { gf.run(guide: guide.image().luma, input: mask.image().luma, output: mask.image().luma) }
        let c = BackgroundCompositor(width: 640, height: 480, format: .rgb888)
        c.setBackground(.cream)
        let out = ImageBuffer(format: .rgb888, width: 640, height: 480)
        time("composite colour 640x480") { c.composite(frame: frame.image(), mask: mask.image().luma, into: out.image()) }
        let small = ImageBuffer(format: .rgb888, width: 160, height: 120)
        time("ImageCore ResizeArea RGB 640x480→160x120") { ResizeArea.run(frame.image(), small.image()) }
        time("ImageCore ResizeBilinear RGB 160x120→640x480") { ResizeBilinear.run(small.image(), out.image()) }
        time("ImageCore AlphaBlend RGB 640x480") { AlphaBlend.run(foreground: frame.image(), background: out.image(), mask: mask.image().luma, destination: out.image()) }
        c.setBackground(.blurred(strength: 4))
        time("composite blurred 640x480") { c.composite(frame: frame.image(), mask: mask.image().luma, into: out.image()) }
    }

    @Test func iouAgainstLiteRT() throws {
        guard Self.enabled, SegmentationFixtures.available else { print("SegmentationMeasureTests: skipped"); return }
        let litert = Fixtures.packageRoot + "/out/segmentation/litert"
        guard access(litert + "/portrait", F_OK) == 0 else {
            print("SegmentationMeasureTests: run scripts/segmentation/litert_masks.py first (\(litert) absent)"); return
        }
        let decoder = ImageDecoder()
        for set in ["portrait", "cihp"] {
            let samples = try SegmentationFixtures.samples(set)
            for level in SegmentationLevel.allCases {
                let seg = try SegmentationFixtures.segmenter(level)
                var sum = 0.0
                for s in samples {
                    let ref = try decoder.decode(path: litert + "/" + set + "/" + s.name + ".png", as: .gray8)
                    sum += SegmentationFixtures.iou(seg.segment(s.image.image()).plane, ref.image().luma)
                }
                print("MEASURE IoU vs LiteRT float (general, stretched) \(set) \(level.rawValue): \(sum / Double(samples.count))")
            }
        }
    }
}
