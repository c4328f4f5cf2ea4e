/// Fused activation of a TFLite op, mapped into the quantised output domain.
public enum FusedActivation: Sendable, Equatable {
    case none, relu, relu6, reluN1To1

    /// `(min, max)` in quantised int8 output units.
    public func bounds(_ q: QuantParams) -> (Int32, Int32) {
        bounds(q, as: Int8.self)
    }

    /// `(min, max)` in quantised output units of `E`.
    public func bounds<E: QuantizedActivation>(_ q: QuantParams, as e: E.Type) -> (Int32, Int32) {
        let lo = Int32(E.min), hi = Int32(E.max)
        func bound(_ x: Float) -> Int32 { Int32(q.quantize(x, as: e)) }
        switch self {
        case .none: return (lo, hi)
        case .relu: return (max(lo, q.zeroPoint), hi)
        case .relu6: return (max(lo, q.zeroPoint), bound(6))
        case .reluN1To1: return (bound(-1), bound(1))
        }
    }
}
