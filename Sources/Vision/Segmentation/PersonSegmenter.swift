import ImageCore
import NeuralCore

/// One mask for all the people in a frame, at three quality levels (`SegmentationLevel`).
///
/// Frames may be RGB888, XRGB8888, Gray8, I420 or NV12, at any size and any `FrameRotation`;
/// the mask comes back at the frame's size and orientation. The `fast` and `balanced` levels
/// allocate nothing per frame once the frame size is known (buffers are planned on the first
/// frame of a size and kept); `accurate` plans its buffers per call (stills).
///
/// Set `temporalStability` for a stream of frames of one scene (see `TemporalStabilizer`); call
/// `reset()` at a cut. Not thread-safe: one segmenter per thread.
public final class PersonSegmenter {
    public let level: SegmentationLevel
    /// Stretch the picture over the model input as MediaPipe does, or letterbox it.
    public var fit: MaskMapping.Fit = .stretch
    /// Mix each mask with the previous one where nothing moved (video).
    public var temporalStability = false
    /// Treat YUV frames as full range (JPEG) rather than BT.601 limited range (16…235).
    public var yuvFullRange = true
    /// Balanced level: guided-filter radius in working pixels (nil: from the working size) and ε
    /// (luma units squared).
    public var guidedRadius: Int? = nil
    public var guidedEpsilon = PersonSegmenter.balancedEpsilon
    /// Bilinear taps per axis per model pixel when filling the model input (nil: the level's own).
    public var inputTaps: Int? = nil
    /// Accurate level: run the mirrored picture too, run again on the people's box, and the
    /// matting ε ([0,1]² units; 0 turns the refinement off).
    public var accurateMirror = true
    public var accurateCrop = true
    public var mattingEpsilon: Float = 0.0025
    /// Forces one model instead of the choice by aspect (not for fast, which has only the landscape one).
    public var modelOverride: SegmentationModel? = nil
    /// When set, every model pass of the accurate level (input written, model run, output read)
    /// runs inside it: a segmenter that runs another thread's interpreter
    /// (`init(accurateUsingLandscapeOf:)`) takes that thread's lock here.
    public var exclusive: ((() -> Void) -> Void)? = nil

    let general: Interpreter?
    let landscape: Interpreter?
    /// The arithmetic the models run on (see `init`).
    public let executionPath: ExecutionPath

    /// Buffers planned per frame size (fast/balanced), kept between frames.
    var planned: SegmentationPlan?
    let modelMask = ScratchBuffer<UInt8>(count: 256 * 256)
    let modelLuma = ScratchBuffer<UInt8>(count: 256 * 256)
    let inputTables = ModelInputTables(maxSide: 256, maxTaps: 4)
    let stabilizerGeneral = TemporalStabilizer(count: 256 * 256)
    let stabilizerLandscape = TemporalStabilizer(count: 256 * 144)
    var lastMapping: MaskMapping?

    /// Largest side of the guided filter's working image at the balanced level; bigger frames
    /// are filtered at a reduced size and the result upsampled.
    public static let balancedWorkingSide = 1280

    /// Loads the models the level needs (`fast`: the landscape model; `balanced` and `accurate`:
    /// both) on `path`: the integer path by default (int8 weights, int16 activations for the
    /// segmentation models, ranges from the shipped calibration tables — see `ModelCalibrations`),
    /// `.float` for the reference. `shared`: the integer working memory of models run one after
    /// another with these (`SharedArena`). `only`: at the balanced and accurate levels, load just
    /// this model and use it for every frame (`modelOverride`), for a caller that knows the one
    /// picture's aspect (a still: the other model's weights and tables never take memory).
    public init(level: SegmentationLevel, generalModel: [UInt8]?, landscapeModel: [UInt8]?,
                path: ExecutionPath = .integer, sharing shared: SharedArena? = nil,
                only: SegmentationModel? = nil) throws(SegmentationError) {
        precondition(level != .fast || only != .general, "the fast level runs the landscape model only")
        self.level = level
        func load(_ bytes: [UInt8]?, _ which: SegmentationModel) throws(SegmentationError) -> Interpreter {
            guard let bytes else { throw .missingModel(which) }
            let calibration: CalibrationModel = which == .general ? .selfieSegmentation : .selfieSegmentationLandscape
            do {
                let interpreter = try ModelCalibrations.interpreter(model: bytes, for: calibration, path: path, sharing: shared)
                try interpreter.requireShapes(which.fileName, inputs: [which.inputShape], outputs: [which.outputShape])
                return interpreter
            } catch { throw .model(which, error) }
        }
        general = level == .fast || only == .landscape ? nil : try load(generalModel, .general)
        landscape = only == .general ? nil : try load(landscapeModel, .landscape)
        executionPath = path
        modelOverride = only
    }

    /// An accurate segmenter that runs `live`'s landscape model (its interpreter, weights, tables
    /// and working memory) instead of loading its own: for a still whose aspect picks that model,
    /// at no model memory. Only its own buffers are separate; the caller keeps the two from
    /// running the model at the same time (`exclusive`, with the lock `live`'s thread holds).
    public init(accurateUsingLandscapeOf live: PersonSegmenter) {
        level = .accurate
        general = nil
        landscape = live.landscape
        executionPath = live.executionPath
        modelOverride = .landscape
    }

    /// Forgets the previous frame's mask (temporal stability).
    public func reset() {
        stabilizerGeneral.reset()
        stabilizerLandscape.reset()
        lastMapping = nil
    }

    /// The model a frame of this upright size runs through at this level.
    public func model(forUprightWidth w: Int, height h: Int) -> SegmentationModel {
        level == .fast ? .landscape : modelOverride ?? SegmentationModel.forAspect(width: w, height: h)
    }

    func interpreter(_ m: SegmentationModel) -> Interpreter {
        switch m {
        case .general:
            // `model(forUprightWidth:height:)` never picks the general model at the fast level, nor
            // with `only: .landscape` (the override).
            guard let general else { preconditionFailure("the general segmentation model is not loaded (fast level, or `only: .landscape`)") }
            return general
        case .landscape:
            guard let landscape else { preconditionFailure("the landscape segmentation model is not loaded (`only: .general`)") }
            return landscape
        }
    }

    /// Bytes of working memory now held (model arenas, planned buffers).
    public var workingByteCount: Int {
        var n = (general?.arenaByteCount ?? 0) + (landscape?.arenaByteCount ?? 0)
        n += modelMask.byteCount + modelLuma.byteCount + stabilizerGeneral.byteCount + stabilizerLandscape.byteCount
        n += inputTables.byteCount
        n += planned?.byteCount ?? 0
        return n
    }

    /// Segments `frame` (people upright after `rotation`). The returned views are valid until the
    /// next call.
    public func segment(_ frame: Image, rotation: FrameRotation = .none) -> SegmentationMask {
        switch level {
        case .fast, .balanced: return segmentPreview(frame, rotation: rotation)
        case .accurate: return segmentAccurate(frame, rotation: rotation)
        }
    }

    /// The frame-size buffers, planned anew when the size changes (the only allocations of
    /// fast/balanced).
    func plan(width: Int, height: Int) -> SegmentationPlan {
        if let planned, planned.width == width && planned.height == height { return planned }
        let made = SegmentationPlan(width: width, height: height, level: level)
        planned = made
        reset()
        return made
    }

    static func workingSize(width: Int, height: Int, side: Int) -> (width: Int, height: Int) {
        let long = max(width, height)
        if long <= side { return (width, height) }
        return (max(1, (width * side + long / 2) / long), max(1, (height * side + long / 2) / long))
    }

    /// Bilinear taps per axis per model pixel: 1 (MediaPipe's plain bilinear, which the models
    /// score best with on the fixtures) up to a 4× downscale, then one per two, at most 4 (12 MP).
    static func taps(_ m: MaskMapping) -> Int {
        let f = max(m.region.width / m.content.width, m.region.height / m.content.height)
        return min(4, max(1, Int(f / 2)))
    }

    /// Frame pixels per model pixel along the finer axis (how much the mask is upsampled).
    static func upsampling(_ m: MaskMapping) -> Float {
        min(m.region.width / m.content.width, m.region.height / m.content.height)
    }

    /// Guided-filter radius at the balanced level: about a model pixel and a half, in working pixels.
    static func balancedRadius(_ w: Int, _ h: Int) -> Int { min(32, max(2, (max(w, h) * 3 + 256) / 512)) }
    static let balancedEpsilon = 400
    /// Below this upsampling factor there is nothing to upsample: the bilinear warp alone is used.
    public static let guidedUpsamplingThreshold: Float = 1.5

    /// Runs model `m` on `frame` through `mapping` and leaves the probability (0…255) in `modelMask`.
    func runModel(_ frame: Image, mapping: MaskMapping, taps: Int, model m: SegmentationModel) {
        let interp = interpreter(m)
        let luma = modelLuma.pointer
        interp.withInput(0) { input in
            ModelInputSampler.fillTabled(input, luma: luma, from: frame, mapping: mapping, taps: taps, yuvFullRange: yuvFullRange,
                                         tables: inputTables)
        }
        interp.run()
        let out = modelMask.pointer
        interp.withOutput(0) { prob in
            for i in 0..<(mapping.modelWidth * mapping.modelHeight) {
                out[i] = UInt8(truncatingIfNeeded: Int(min(max(prob[i], 0), 1) * 255 + 0.5))
            }
        }
    }

    func segmentPreview(_ frame: Image, rotation: FrameRotation) -> SegmentationMask {
        let buffers = plan(width: frame.width, height: frame.height)
        let uw = rotation.swapsAxes ? frame.height : frame.width
        let uh = rotation.swapsAxes ? frame.width : frame.height
        let m = model(forUprightWidth: uw, height: uh)
        let mapping = MaskMapping(frameWidth: frame.width, frameHeight: frame.height, rotation: rotation,
                                  modelWidth: m.inputWidth, modelHeight: m.inputHeight, fit: fit)
        if lastMapping != mapping { stabilizerGeneral.reset(); stabilizerLandscape.reset() }
        lastMapping = mapping
        runModel(frame, mapping: mapping, taps: inputTaps ?? (level == .fast ? 1 : PersonSegmenter.taps(mapping)), model: m)
        if temporalStability {
            (m == .general ? stabilizerGeneral : stabilizerLandscape).apply(mask: modelMask.pointer, luma: modelLuma.pointer)
        }
        // The mask buffer belongs to the plan, which this segmenter keeps until the frame size
        // changes: the handed-out view is valid until the next `segment` call, as documented.
        let mask = buffers.mask.unsafeImage().luma
        let warp = buffers.warp
        if let balanced = buffers.balanced,
           PersonSegmenter.upsampling(mapping) >= PersonSegmenter.guidedUpsamplingThreshold {
            balanced.guide.withImage { guideImage in
                var guide = guideImage.luma
                if guide.width == frame.width && guide.height == frame.height {
                    switch frame.format {
                    case .i420, .nv12, .gray8: guide = frame.planes.0          // the Y plane as is
                    case .rgb888, .xrgb8888:
                        RGBToGray.run(frame, guide.grayImage)
                    }
                } else {
                    LumaSampler.fill(guide, from: frame)                      // area-averaged luma
                }
                let gf = balanced.filter
                gf.radius = guidedRadius ?? PersonSegmenter.balancedRadius(guide.width, guide.height)
                gf.epsilon = guidedEpsilon
                if let work = balanced.workMask {
                    // Large frame: filter at working size, then upsample the result.
                    work.withImage { workImage in
                        let wp = workImage.luma
                        let wm = MaskMapping(frameWidth: wp.width, frameHeight: wp.height, rotation: rotation,
                                             modelWidth: m.inputWidth, modelHeight: m.inputHeight, fit: fit)
                        warp.warp(modelMask.pointer, maskStride: m.inputWidth, mapping: wm, into: wp,
                                  xRange: 0..<wp.width, yRange: 0..<wp.height)
                        gf.run(guide: guide, input: wp, output: wp)
                        ResizeBilinear.run(wp.grayImage, mask.grayImage)
                    }
                } else {
                    warp.warp(modelMask.pointer, maskStride: m.inputWidth, mapping: mapping, into: mask,
                              xRange: 0..<frame.width, yRange: 0..<frame.height)
                    gf.run(guide: guide, input: mask, output: mask)
                }
            }
        } else {
            warp.warp(modelMask.pointer, maskStride: m.inputWidth, mapping: mapping, into: mask,
                      xRange: 0..<frame.width, yRange: 0..<frame.height)
        }
        let modelPlane = Plane(base: UnsafeMutableRawPointer(modelMask.pointer), width: m.inputWidth, height: m.inputHeight,
                               stride: m.inputWidth, bytesPerPixel: 1, padding: modelMask.count - m.inputWidth * m.inputHeight)
        return SegmentationMask(plane: mask, modelPlane: modelPlane, mapping: mapping, level: level)
    }
}
