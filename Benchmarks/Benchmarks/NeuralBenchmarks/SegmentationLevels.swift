import Benchmark
import Foundation
import ImageCore
import NeuralCore
import Vision

/// Person segmentation per level on a 640×480 frame (RGB888 and I420) and the accurate level on
/// a 12 MP still, integer path: time per frame (the README's segmentation row; these timings
/// were a unit test that could not fail). The frame is a smooth synthetic scene, so the figures
/// are the cost of the stages, not of a particular photo.
func segmentationBenchmarks(modelDirectory: String) {
    guard let general = FileManager.default.contents(atPath: modelDirectory + "/" + SegmentationModel.general.fileName),
          let landscape = FileManager.default.contents(atPath: modelDirectory + "/" + SegmentationModel.landscape.fileName) else {
        print("NeuralBenchmarks: the segmentation models are absent from \(modelDirectory) (run scripts/fetch-models); skipped")
        return
    }
    let generalBytes = [UInt8](general), landscapeBytes = [UInt8](landscape)
    for (width, height) in [(640, 480), (4000, 3000)] {
        let rgb = ImageBuffer(format: .rgb888, width: width, height: height)
        let yuv = ImageBuffer(format: .i420, width: width, height: height)
        rgb.withImage { frame in
            let p = frame.luma
            for y in 0..<height {
                let row = p.row(y)
                for x in 0..<width {
                    // A light background with a darker disc in the middle, like a person before a wall.
                    let dx = x - width / 2, dy = y - height / 2
                    let inside = dx * dx + dy * dy < (height / 3) * (height / 3)
                    row[3 * x] = inside ? 90 : UInt8(200 + (x * 40 / width))
                    row[3 * x + 1] = inside ? 70 : 205
                    row[3 * x + 2] = inside ? 60 : UInt8(210 - (y * 30 / height))
                }
            }
            yuv.withImage { RGBToI420.run(frame, $0) }
        }
        for level in SegmentationLevel.allCases where width < 1000 || level == .accurate {
            for (name, buffer) in [("RGB888", rgb), ("I420", yuv)] {
                let built = Built { () throws -> PersonSegmenter in
                    let segmenter = try PersonSegmenter(level: level, generalModel: generalBytes, landscapeModel: landscapeBytes)
                    segmenter.temporalStability = level != .accurate
                    buffer.withImage { _ = segmenter.segment($0) }   // plans the frame-size buffers
                    return segmenter
                }
                Benchmark("segment \(level.rawValue) \(width)x\(height) \(name)",
                          configuration: .init(metrics: [.wallClock, .throughput, .mallocCountTotal],
                                               maxIterations: width > 1000 ? 3 : 100)) { b in
                    let segmenter: PersonSegmenter
                    do { segmenter = try built.get() } catch {
                        print("NeuralBenchmarks: \(error)")
                        return
                    }
                    buffer.withImage { image in
                        b.startMeasurement()
                        for _ in b.scaledIterations { blackHole(segmenter.segment(image).level) }
                        b.stopMeasurement()
                    }
                }
            }
        }
    }
}
