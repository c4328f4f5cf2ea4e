/// The storage of quantised activations: `Int8` (asymmetric, the TFLite int8 scheme) or `Int16`
/// (symmetric, zero point 0: TFLite's "16x8" scheme). Every integer kernel is generic over it and
/// specialised for both; the accumulators stay int32 (see `IntegerProgram` for why that is safe).
public protocol QuantizedActivation: FixedWidthInteger, SignedInteger, SIMDScalar, Sendable {}
extension Int8: QuantizedActivation {}
extension Int16: QuantizedActivation {}
