/// Field ids and enum values of the TFLite FlatBuffers schema (`tensorflow/lite/schema/schema.fbs`)
/// that the reader uses. A field id is the field's position in its table declaration; a union
/// field takes two ids (its type byte, then its value).
enum Schema {
    enum Model { static let version = 0, operatorCodes = 1, subgraphs = 2, description = 3, buffers = 4 }
    enum OperatorCode { static let deprecatedBuiltinCode = 0, customCode = 1, version = 2, builtinCode = 3 }
    enum SubGraph { static let tensors = 0, inputs = 1, outputs = 2, operators = 3, name = 4 }
    enum Tensor { static let shape = 0, type = 1, buffer = 2, name = 3, quantization = 4, sparsity = 6 }
    enum Quantization { static let scale = 2, zeroPoint = 3, quantizedDimension = 6 }
    enum Operator {
        static let opcodeIndex = 0, inputs = 1, outputs = 2, builtinOptionsType = 3, builtinOptions = 4
        static let customOptions = 5, largeCustomOptionsOffset = 9, largeCustomOptionsSize = 10
    }
    enum Buffer { static let data = 0, offset = 1, size = 2 }
    enum SparsityParameters { static let traversalOrder = 0, blockMap = 1, dimMetadata = 2 }
    enum DimensionMetadata {
        static let format = 0, denseSize = 1, arraySegmentsType = 2, arraySegments = 3
        static let arrayIndicesType = 4, arrayIndices = 5
    }
    /// `Int32Vector`, `Uint16Vector`, `Uint8Vector`: one field, `values`.
    enum IndexVector { static let values = 0 }
    /// `DimensionType` and `SparseIndexVector` codes.
    enum Sparse { static let dense: Int8 = 0, sparseCSR: Int8 = 1, int32: UInt8 = 1, uint16: UInt8 = 2, uint8: UInt8 = 3 }

    enum Conv2DOptions { static let padding = 0, strideW = 1, strideH = 2, activation = 3, dilationW = 4, dilationH = 5 }
    enum DepthwiseConv2DOptions {
        static let padding = 0, strideW = 1, strideH = 2, depthMultiplier = 3, activation = 4
        static let dilationW = 5, dilationH = 6
    }
    enum Pool2DOptions {
        static let padding = 0, strideW = 1, strideH = 2, filterWidth = 3, filterHeight = 4, activation = 5
    }
    enum ActivationOnlyOptions { static let activation = 0 }  // AddOptions, MulOptions
    enum ConcatenationOptions { static let axis = 0, activation = 1 }
    enum ResizeBilinearOptions { static let alignCorners = 2, halfPixelCenters = 3 }
    enum ReducerOptions { static let keepDims = 0 }
    enum DepthToSpaceOptions { static let blockSize = 0 }
    enum FullyConnectedOptions { static let activation = 0, weightsFormat = 1, keepNumDims = 2 }

    /// `BuiltinOptions` union type codes.
    enum OptionsType {
        static let conv2D: UInt8 = 1, depthwiseConv2D: UInt8 = 2, pool2D: UInt8 = 5, fullyConnected: UInt8 = 8
        static let concatenation: UInt8 = 10, add: UInt8 = 11, resizeBilinear: UInt8 = 15
        static let reshape: UInt8 = 17, mul: UInt8 = 21, reducer: UInt8 = 27, depthToSpace: UInt8 = 94
    }
}

/// `BuiltinOperator` codes of the operators the engine implements.
public enum BuiltinCode {
    public static let add: Int32 = 0, averagePool2D: Int32 = 1, concatenation: Int32 = 2
    public static let conv2D: Int32 = 3, depthwiseConv2D: Int32 = 4, depthToSpace: Int32 = 5, dequantize: Int32 = 6
    public static let fullyConnected: Int32 = 9
    public static let logistic: Int32 = 14, maxPool2D: Int32 = 17, mul: Int32 = 18, relu: Int32 = 19
    public static let reshape: Int32 = 22, resizeBilinear: Int32 = 23, custom: Int32 = 32
    public static let pad: Int32 = 34, mean: Int32 = 40, prelu: Int32 = 54, hardSwish: Int32 = 117
    public static let densify: Int32 = 124, stridedSlice: Int32 = 45

    /// The schema's name for a builtin code ("builtin N" when unknown).
    public static func name(_ code: Int32) -> String {
        if code >= 0, Int(code) < builtinOperatorNames.count {
            let n = builtinOperatorNames[Int(code)]
            if n.utf8CodeUnitCount > 0 { return String(describingStatic: n) }
        }
        return "builtin " + String(code)
    }
}
