/// One step of a mixed-precision `IntegerProgram`: a kernel call at int8 or int16 activations, or
/// a width conversion between a tensor and its copy at the other width (`WidthPlan`), requantised
/// from the source tensor's parameters to the copy's (`convertWidth`), or a run of operations
/// computed in float (`FloatIsland`).
enum ProgramStep {
    case int8(IntegerStep<Int8>)
    case int16(IntegerStep<Int16>)
    case widen(UnsafePointer<Int8>, Int, RequantizeParams, UnsafeMutablePointer<Int16>)
    case narrow(UnsafePointer<Int16>, Int, RequantizeParams, UnsafeMutablePointer<Int8>)
    case float(FloatIsland)
}
