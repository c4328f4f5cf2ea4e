/// MediaPipe's custom operators of the attention face mesh (`face_landmark_with_attention`), as
/// MediaPipe's `mediapipe/util/tflite/operations` defines them (version 2 of each):
///
/// - `Landmarks2TransformMatrix`: from landmarks [1, N, 3], the 4×4 matrix that maps an
///   `outputWidth`×`outputHeight` crop's pixels to the landmarks' space, the crop being the box of
///   the `subset` landmarks after turning them so that the line from landmark `left` to landmark
///   `right` lies at `targetRotation`, scaled by `scaleX`, `scaleY`, and turned back.
/// - `TransformTensorBilinear`: samples x [1, H, W, C] at each output pixel's centre through such a
///   matrix (bilinear, 0 outside the input).
/// - `TransformLandmarks`: applies the matrix's first two rows to points [1, N, 2 or 3] (z kept).
///
/// The three run on the float path only (`IntegerProgram` refuses them).
public struct LandmarksTransformParameters: Sendable, Equatable {
    /// Landmark indices whose box (after the turn) the crop covers.
    public var subset: [Int]
    public var left: Int
    public var right: Int
    public var targetRotation: Float
    public var scaleX: Float
    public var scaleY: Float
    public var outputWidth: Int
    public var outputHeight: Int
}

extension GraphBuilder {
    /// The landmark transforms and the identity STRIDED_SLICE, or nil for another operator.
    mutating func landmarkTransform(_ op: TFLiteModel.Operator, out: Int, label: String) throws(ModelError)
        -> (kind: OperationKind, inputs: [Int], shape: [Int])? {
        func input(_ k: Int) throws(ModelError) -> Int {
            guard k < op.inputs.count, op.inputs[k] >= 0 else { throw .malformed(label + " misses input " + String(k)) }
            let t = op.inputs[k]
            guard available[t] else { throw .malformed(label + " reads tensor '" + tensors[t].name + "' before it is computed") }
            try requireFloat(t, label + " input")
            return t
        }
        func matrix(_ k: Int) throws(ModelError) -> Int {
            let m = try input(k)
            guard tensors[m].shape == [1, 4, 4] else { throw .malformed(label + " matrix is not [1x4x4]") }
            return m
        }
        if op.code.builtin == BuiltinCode.stridedSlice {
            // Only the identity slice (the attention mesh's output copy): begin 0, end the whole
            // dimension, stride 1 in every dimension.
            guard op.inputs.count == 4 else { throw .malformed(label + " needs 4 inputs") }
            let x = try input(0)
            let s = tensors[x].shape
            let begin = try int32Constant(op.inputs[1], label + " begin")
            let end = try int32Constant(op.inputs[2], label + " end")
            let strides = try int32Constant(op.inputs[3], label + " strides")
            guard begin.count == s.count, end.count == s.count, strides.count == s.count,
                  begin.allSatisfy({ $0 == 0 }), strides.allSatisfy({ $0 == 1 }), end == s, tensors[out].shape == s else {
                throw .unsupportedOperator("STRIDED_SLICE other than the whole tensor (" + label + ")")
            }
            return (.reshape, [x], s)
        }
        guard op.code.builtin == BuiltinCode.custom, let code = op.code.custom else { return nil }
        switch code {
        case "Landmarks2TransformMatrix":
            guard op.inputs.count == 1 else { throw .malformed(label + " needs 1 input") }
            let x = try input(0)
            let s = tensors[x].shape
            guard s.count == 3, s[0] == 1, s[1] >= 1, s[2] == 3 else { throw .malformed(label + " landmarks are not [1xNx3]") }
            let o = try CustomOptionsMap(op.customOptions, label: label)
            let p = LandmarksTransformParameters(
                subset: try o.ints("subset_idxs"), left: try o.int("left_rotation_idx"), right: try o.int("right_rotation_idx"),
                targetRotation: try o.float("target_rotation_radians"), scaleX: try o.float("scale_x"), scaleY: try o.float("scale_y"),
                outputWidth: try o.int("output_width"), outputHeight: try o.int("output_height"))
            let inRange = { (i: Int) -> Bool in i >= 0 && i < s[1] }
            guard !p.subset.isEmpty, p.subset.allSatisfy(inRange), inRange(p.left), inRange(p.right) else {
                throw .malformed(label + " has a landmark index outside the " + String(s[1]) + " landmarks")
            }
            guard p.scaleX > 0, p.scaleY > 0, p.scaleX.isFinite, p.scaleY.isFinite, p.targetRotation.isFinite,
                  p.outputWidth >= 1, p.outputHeight >= 1, p.outputWidth <= 1 << 14, p.outputHeight <= 1 << 14 else {
                throw .malformed(label + " has a bad scale, rotation or output size")
            }
            return (.landmarksToTransformMatrix(p), [x], [1, 4, 4])
        case "TransformTensorBilinear":
            guard op.inputs.count == 2 else { throw .malformed(label + " needs 2 inputs") }
            let x = try input(0), m = try matrix(1)
            let s = tensors[x].shape
            guard s.count == 4, s[0] == 1 else { throw .unsupported(label + " needs a [1xHxWxC] input") }
            let o = try CustomOptionsMap(op.customOptions, label: label)
            let oh = try o.int("output_height"), ow = try o.int("output_width")
            guard oh >= 1, ow >= 1, oh <= 1 << 14, ow <= 1 << 14 else { throw .malformed(label + " has a bad output size") }
            return (.transformTensorBilinear, [x, m], [1, oh, ow, s[3]])
        case "TransformLandmarks":
            guard op.inputs.count == 2 else { throw .malformed(label + " needs 2 inputs") }
            let x = try input(0), m = try matrix(1)
            let s = tensors[x].shape
            guard s.count == 3, s[0] == 1, s[2] == 2 || s[2] == 3 else { throw .malformed(label + " landmarks are not [1xNx2] or [1xNx3]") }
            return (.transformLandmarks, [x, m], s)
        default:
            return nil
        }
    }
}
