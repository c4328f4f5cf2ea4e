import ImageCore
import NeuralCore
import VisionKernels

/// One live kiosk frame's vision work as an instruction-count workload (`scripts/arm/bench --frame`):
/// a seeded 640×480 I420 frame through the Embedded-clean pieces of the live path, on NeuralCore's
/// integer path, as `KioskRuntime` runs them (segmentation level `fast`, temporal stability on):
///
/// - `frame`: the face-crop tensor warp (a 240-pixel square turned 0.1 rad, into the mesh's
///   192×192 input, [0, 1], replicated border), the face_landmark model, the segmentation input
///   sampling (`ModelInputSampler.fillTabled`, stretch, one tap), the landscape segmentation model,
///   its probabilities to bytes, the temporal stabiliser and the mask warp to 640×480.
/// - `detector`: the whole-frame tensor warp into the detector's 128×128 input ([-1, 1], zero
///   border) and the face_detection_short_range model; the kiosk runs it about once a second, so
///   the bench script counts it per frame as its count / 30.
///
/// Models load as `NetworkBench` loads them (calibration from the input range), so the model
/// counts match the per-model table. Not covered (not Embedded-clean or not per frame): the
/// detector's anchor decoding, the landmark post-processing, capture quality, the overlay.
public enum FrameBench {
    /// Why a frame bench could not run.
    public enum Failure: Error {
        /// A model the part needs was not given.
        case missingModel(String)
        /// A model did not load.
        case model(String, ModelError)
        /// A model's input is not the size the live path fills.
        case inputShape(String, [Int])

        public var description: String {
            switch self {
            case .missingModel(let file): return "frame: \(file) is missing"
            case .model(let file, let error): return "frame: \(file): \(error.description)"
            case .inputShape(let file, let shape): return "frame: \(file) has input shape \(shape), not the live path's"
            }
        }
    }

    /// The part of the frame to run.
    public enum Part: Sendable {
        /// The per-frame work (mesh and segmentation).
        case frame
        /// The face detector (amortised by the caller).
        case detector
    }

    public static let frameWidth = 640
    public static let frameHeight = 480
    static let meshSide = 192
    static let detectorSide = 128

    static func load(_ file: String, _ bytes: [UInt8]?, lower: Float, upper: Float, side: (Int, Int)) throws(Failure) -> Interpreter {
        guard let bytes else { throw .missingModel(file) }
        let interpreter: Interpreter
        do throws(ModelError) {
            interpreter = try Interpreter(model: try TFLiteModel(bytes: bytes), path: .integer,
                                          calibration: IntegerCalibration(inputLower: lower, inputUpper: upper))
        } catch {
            throw .model(file, error)
        }
        let shape = interpreter.inputShape(0)
        guard shape == [1, side.1, side.0, 3] else { throw .inputShape(file, shape) }
        return interpreter
    }

    /// Runs `part` `iterations` times on one seeded frame; returns a checksum of the outputs (the
    /// mask, the mesh's or the detector's output), so the work cannot be optimised away.
    public static func run(part: Part, mesh: [UInt8]?, landscape: [UInt8]?, detector: [UInt8]?,
                           iterations: Int) throws(Failure) -> UInt64 {
        var random = ConformanceRandom(seed: 0x6672_616D_65)
        let frame = VisionKernelsConformance.image(.i420, frameWidth, frameHeight, slack: 0, &random)
        var h = FNV1a()
        switch part {
        case .detector:
            let model = try load("face_detection_short_range.tflite", detector, lower: -1, upper: 1,
                                 side: (detectorSide, detectorSide))
            // The whole frame's centred square (the long side), as the detector's letterbox.
            let step = Float(frameWidth) / Float(detectorSide)
            let grid = TensorGrid(originX: step / 2, originY: Float(frameHeight - frameWidth) / 2 + step / 2,
                                  ux: step, uy: 0, vx: 0, vy: step, tapsU: TensorWarp.taps(step), tapsV: TensorWarp.taps(step))
            for _ in 0..<iterations {
                model.withInput(0) { tensor in
                    TensorWarp.sample(frame.image, grid: grid, into: tensor, width: detectorSide, height: detectorSide,
                                      range: .minusOneToOne, border: .zero)
                }
                model.run()
            }
            for o in 0..<model.outputCount {
                model.withOutput(o) { if let base = $0.baseAddress { h.combine(base, count: $0.count * 4) } }
            }
        case .frame:
            let meshModel = try load("face_landmark.tflite", mesh, lower: 0, upper: 1, side: (meshSide, meshSide))
            let segModel = try load("selfie_segmentation_landscape.tflite", landscape, lower: 0, upper: 1, side: (256, 144))
            // The face crop: a 240-pixel square around (330, 230) turned by 0.1 rad.
            let cs: Float = 0.995_004_2, sn: Float = 0.099_833_42, step: Float = 240 / Float(meshSide)
            let ux = cs * step, uy = sn * step, vx = -sn * step, vy = cs * step
            // The first tensor pixel's centre: the square's corner plus half a step along both axes.
            let grid = TensorGrid(originX: 330 - 120 * cs + 120 * sn + (ux + vx) / 2,
                                  originY: 230 - 120 * sn - 120 * cs + (uy + vy) / 2,
                                  ux: ux, uy: uy, vx: vx, vy: vy,
                                  tapsU: TensorWarp.taps(step), tapsV: TensorWarp.taps(step))
            let mapping = MaskMapping(frameWidth: frameWidth, frameHeight: frameHeight, rotation: .none,
                                      modelWidth: 256, modelHeight: 144, fit: .stretch)
            let tables = ModelInputTables(maxSide: 256, maxTaps: 4)
            let stabilizer = TemporalStabilizer(count: 256 * 144)
            let warp = MaskWarp(maxSide: frameWidth)
            let modelMask = TestPlane(count: 256 * 144, elementSize: 1, random: &random)
            let modelLuma = TestPlane(count: 256 * 144, elementSize: 1, random: &random)
            let mask = TestPlane(width: frameWidth, height: frameHeight, bytesPerPixel: 1, slack: 0, random: &random)
            let maskBytes = modelMask.elements(as: UInt8.self), lumaBytes = modelLuma.elements(as: UInt8.self)
            for _ in 0..<iterations {
                meshModel.withInput(0) { tensor in
                    TensorWarp.sample(frame.image, grid: grid, into: tensor, width: meshSide, height: meshSide,
                                      range: .zeroToOne, border: .replicate)
                }
                meshModel.run()
                segModel.withInput(0) { input in
                    ModelInputSampler.fillTabled(input, luma: lumaBytes, from: frame.image, mapping: mapping, taps: 1,
                                                 yuvFullRange: true, tables: tables)
                }
                segModel.run()
                segModel.withOutput(0) { prob in
                    for i in 0..<(256 * 144) {
                        maskBytes[i] = UInt8(truncatingIfNeeded: Int(min(max(prob[i], 0), 1) * 255 + 0.5))
                    }
                }
                stabilizer.apply(mask: maskBytes, luma: lumaBytes)
                warp.warp(maskBytes, maskStride: 256, mapping: mapping, into: mask.plane,
                          xRange: 0..<frameWidth, yRange: 0..<frameHeight)
            }
            h.combine(mask.plane)
            for o in 0..<meshModel.outputCount {
                meshModel.withOutput(o) { if let base = $0.baseAddress { h.combine(base, count: $0.count * 4) } }
            }
        }
        return h.value
    }
}
