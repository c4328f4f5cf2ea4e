/// Spatial padding of convolutions and pools, as the schema's `Padding` enum.
public enum Padding: Sendable, Equatable {
    case same, valid
}

/// Fused activation of an operator, as the schema's `ActivationFunctionType`.
public enum Activation: Sendable, Equatable {
    case none, relu, reluN1To1, relu6

    /// Clamp bounds of the activation (the integer path maps them to quantised bounds).
    public var bounds: (lower: Float, upper: Float) {
        switch self {
        case .none: return (-Float.infinity, Float.infinity)
        case .relu: return (0, Float.infinity)
        case .reluN1To1: return (-1, 1)
        case .relu6: return (0, 6)
        }
    }
}

/// The builtin options of the operators the engine implements, read from the operator's
/// `builtin_options` table (defaults when absent). Other operators carry `.none`.
public enum OperatorOptions: Sendable {
    case none
    case conv2D(padding: Padding, strideW: Int, strideH: Int, dilationW: Int, dilationH: Int, activation: Activation)
    case depthwiseConv2D(padding: Padding, strideW: Int, strideH: Int, depthMultiplier: Int,
                         dilationW: Int, dilationH: Int, activation: Activation)
    case pool2D(padding: Padding, strideW: Int, strideH: Int, filterW: Int, filterH: Int, activation: Activation)
    case activation(Activation)  // ADD, MUL
    case concatenation(axis: Int, activation: Activation)
    case resizeBilinear(alignCorners: Bool, halfPixelCenters: Bool)
    case reducer(keepDims: Bool)
    case depthToSpace(blockSize: Int)
    case fullyConnected(activation: Activation, keepNumDims: Bool)

    static func read(_ op: FlatTable, builtin: Int32, operatorIndex: Int) throws(ModelError) -> OperatorOptions {
        let type = try op.uint8(Schema.Operator.builtinOptionsType)
        let table = try op.table(Schema.Operator.builtinOptions, "builtin options")
        /// The options table when its union type is `expected`; nil when absent (defaults).
        func options(_ expected: UInt8) throws(ModelError) -> FlatTable? {
            guard let table else { return nil }
            guard type == expected else {
                throw .malformed("operator " + String(operatorIndex) + " (" + BuiltinCode.name(builtin)
                    + ") carries options of union type " + String(type))
            }
            return table
        }
        func padding(_ t: FlatTable?, _ id: Int) throws(ModelError) -> Padding {
            switch try t?.int8(id) ?? 0 {
            case 0: return .same
            case 1: return .valid
            case let p: throw .malformed("operator " + String(operatorIndex) + " has padding " + String(p))
            }
        }
        func activation(_ t: FlatTable?, _ id: Int) throws(ModelError) -> Activation {
            switch try t?.int8(id) ?? 0 {
            case 0: return .none
            case 1: return .relu
            case 2: return .reluN1To1
            case 3: return .relu6
            case 4: throw .unsupported("fused TANH activation (operator " + String(operatorIndex) + ")")
            case 5: throw .unsupported("fused SIGN_BIT activation (operator " + String(operatorIndex) + ")")
            case let a: throw .malformed("operator " + String(operatorIndex) + " has activation " + String(a))
            }
        }
        func int(_ t: FlatTable?, _ id: Int, _ value: Int32) throws(ModelError) -> Int {
            Int(try t?.int32(id, default: value) ?? value)
        }

        switch builtin {
        case BuiltinCode.conv2D:
            let t = try options(Schema.OptionsType.conv2D)
            typealias F = Schema.Conv2DOptions
            return .conv2D(padding: try padding(t, F.padding), strideW: try int(t, F.strideW, 1),
                           strideH: try int(t, F.strideH, 1), dilationW: try int(t, F.dilationW, 1),
                           dilationH: try int(t, F.dilationH, 1), activation: try activation(t, F.activation))
        case BuiltinCode.depthwiseConv2D:
            let t = try options(Schema.OptionsType.depthwiseConv2D)
            typealias F = Schema.DepthwiseConv2DOptions
            return .depthwiseConv2D(padding: try padding(t, F.padding), strideW: try int(t, F.strideW, 1),
                                    strideH: try int(t, F.strideH, 1), depthMultiplier: try int(t, F.depthMultiplier, 1),
                                    dilationW: try int(t, F.dilationW, 1), dilationH: try int(t, F.dilationH, 1),
                                    activation: try activation(t, F.activation))
        case BuiltinCode.maxPool2D, BuiltinCode.averagePool2D:
            let t = try options(Schema.OptionsType.pool2D)
            typealias F = Schema.Pool2DOptions
            return .pool2D(padding: try padding(t, F.padding), strideW: try int(t, F.strideW, 1),
                           strideH: try int(t, F.strideH, 1), filterW: try int(t, F.filterWidth, 1),
                           filterH: try int(t, F.filterHeight, 1), activation: try activation(t, F.activation))
        case BuiltinCode.add:
            return .activation(try activation(try options(Schema.OptionsType.add), Schema.ActivationOnlyOptions.activation))
        case BuiltinCode.mul:
            return .activation(try activation(try options(Schema.OptionsType.mul), Schema.ActivationOnlyOptions.activation))
        case BuiltinCode.concatenation:
            let t = try options(Schema.OptionsType.concatenation)
            return .concatenation(axis: try int(t, Schema.ConcatenationOptions.axis, 0),
                                  activation: try activation(t, Schema.ConcatenationOptions.activation))
        case BuiltinCode.resizeBilinear:
            let t = try options(Schema.OptionsType.resizeBilinear)
            return .resizeBilinear(alignCorners: try t?.bool(Schema.ResizeBilinearOptions.alignCorners) ?? false,
                                   halfPixelCenters: try t?.bool(Schema.ResizeBilinearOptions.halfPixelCenters) ?? false)
        case BuiltinCode.mean:
            let t = try options(Schema.OptionsType.reducer)
            return .reducer(keepDims: try t?.bool(Schema.ReducerOptions.keepDims) ?? false)
        case BuiltinCode.depthToSpace:
            let t = try options(Schema.OptionsType.depthToSpace)
            return .depthToSpace(blockSize: try int(t, Schema.DepthToSpaceOptions.blockSize, 0))
        case BuiltinCode.fullyConnected:
            let t = try options(Schema.OptionsType.fullyConnected)
            typealias F = Schema.FullyConnectedOptions
            guard try t?.int8(F.weightsFormat) ?? 0 == 0 else {
                throw .unsupported("shuffled FULLY_CONNECTED weights (operator " + String(operatorIndex) + ")")
            }
            return .fullyConnected(activation: try activation(t, F.activation), keepNumDims: try t?.bool(F.keepNumDims) ?? false)
        default:
            return .none
        }
    }
}
