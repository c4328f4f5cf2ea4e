/// Geometry of a 2-D convolution (regular, depthwise or transposed), resolved at load: strides,
/// dilations and the explicit top/left padding that the schema's SAME/VALID implies.
public struct ConvGeometry: Sendable, Equatable {
    public var strideH: Int
    public var strideW: Int
    public var dilationH: Int
    public var dilationW: Int
    public var padTop: Int
    public var padLeft: Int
    public var activation: Activation
    /// Output channels per input channel (depthwise only; 1 otherwise).
    public var depthMultiplier: Int
}

/// Geometry of a pooling window, resolved at load.
public struct PoolGeometry: Sendable, Equatable {
    public var filterH: Int
    public var filterW: Int
    public var strideH: Int
    public var strideW: Int
    public var padTop: Int
    public var padLeft: Int
    public var activation: Activation
}

/// What one operation of the graph computes, with every parameter resolved at load (parameter
/// tensors such as PAD's paddings or MEAN's axes are read into these values and are not inputs).
///
/// Inputs (`Operation.inputs`), in order:
/// - `conv2D`: x [N,H,W,C], weights [O,KH,KW,C], bias [O] (or -1)
/// - `depthwiseConv2D`: x [N,H,W,C], weights [1,KH,KW,C·M], bias [C·M] (or -1)
/// - `transposeConvBias`: x [N,H,W,C], weights [O,KH,KW,C], bias [O] (MediaPipe's custom op)
/// - `add`, `mul`: a, b (NumPy broadcasting, rank ≤ 4)
/// - `prelu`: x, alpha (alpha broadcast to x)
/// - `concatenation`: the tensors joined along `axis`
/// - `transformTensorBilinear`, `transformLandmarks`: x, matrix [1,4,4] (MediaPipe's custom ops)
/// - everything else: x
public enum OperationKind: Sendable, Equatable {
    case conv2D(ConvGeometry)
    case depthwiseConv2D(ConvGeometry)
    case transposeConvBias(ConvGeometry)
    case add(Activation)
    case mul(Activation)
    /// Zero padding; `before`/`after` per dimension of the input's 4-D form.
    case pad(before: [Int], after: [Int])
    case maxPool2D(PoolGeometry)
    case averagePool2D(PoolGeometry)
    /// Mean over the dimensions flagged in `reduced` (of the input's 4-D form).
    case mean(reduced: [Bool])
    case relu
    case prelu
    case hardSwish
    case logistic
    case reshape
    /// Joined along `axis` of the 4-D form of the inputs.
    case concatenation(axis: Int, activation: Activation)
    case resizeBilinear(alignCorners: Bool, halfPixelCenters: Bool)
    /// MediaPipe's custom operators of the attention mesh (`LandmarkTransformOperations.swift`).
    case landmarksToTransformMatrix(LandmarksTransformParameters)
    case transformTensorBilinear
    case transformLandmarks

    /// The operator name as the schema spells it.
    public var name: String {
        switch self {
        case .conv2D: return "CONV_2D"
        case .depthwiseConv2D: return "DEPTHWISE_CONV_2D"
        case .transposeConvBias: return "Convolution2DTransposeBias"
        case .add: return "ADD"
        case .mul: return "MUL"
        case .pad: return "PAD"
        case .maxPool2D: return "MAX_POOL_2D"
        case .averagePool2D: return "AVERAGE_POOL_2D"
        case .mean: return "MEAN"
        case .relu: return "RELU"
        case .prelu: return "PRELU"
        case .hardSwish: return "HARD_SWISH"
        case .logistic: return "LOGISTIC"
        case .reshape: return "RESHAPE"
        case .concatenation: return "CONCATENATION"
        case .resizeBilinear: return "RESIZE_BILINEAR"
        case .landmarksToTransformMatrix: return "Landmarks2TransformMatrix"
        case .transformTensorBilinear: return "TransformTensorBilinear"
        case .transformLandmarks: return "TransformLandmarks"
        }
    }
}

/// One operation: its kind and the tensor indices it reads and writes (-1: omitted optional input).
public struct Operation: Sendable {
    public var kind: OperationKind
    public var inputs: [Int]
    public var output: Int
}

/// A tensor of the graph. Activations are float32 NHWC; constants are held as float32 in
/// `Graph.constants` (fp16 weights behind DEQUANTIZE are folded there at load).
public struct GraphTensor: Sendable {
    public var name: String
    /// The shape as declared in the model.
    public var shape: [Int]
    /// The shape with leading 1s up to rank 4 (the form every kernel uses).
    public var shape4: [Int]
    public var elementCount: Int
    /// Where the tensor's float data starts in `Graph.constants`, for constants.
    public var constantOffset: Int?
    /// Quantisation parameters carried from the file (for the integer path).
    public var quantization: TFLiteModel.Quantization?
}
