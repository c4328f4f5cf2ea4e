/// Element types of a .tflite tensor, with the numbering of the TFLite schema's `TensorType`.
public enum TensorType: Int8, Sendable, Equatable {
    case float32 = 0
    case float16 = 1
    case int32 = 2
    case uint8 = 3
    case int64 = 4
    case string = 5
    case bool = 6
    case int16 = 7
    case complex64 = 8
    case int8 = 9
    case float64 = 10

    /// Size in bytes of one element, or nil for variable-size types.
    public var byteSize: Int? {
        switch self {
        case .float32, .int32: return 4
        case .float16, .int16: return 2
        case .uint8, .int8, .bool: return 1
        case .int64, .float64, .complex64: return 8
        case .string: return nil
        }
    }
}
