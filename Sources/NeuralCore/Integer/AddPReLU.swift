import CNeuralKernels

/// An int8 ADD whose only reader is a PRELU, run as one pass (`IntegerStep.addPReLU`, chosen in
/// `IntegerProgram.fusingAddPReLU`): `out[i] = prelu(add(a[i], b[i]))` with the ADD's clamped int8
/// value kept in registers, so the ADD's store, PRELU's load and PRELU's own loop go. The values
/// are exactly those of the two passes (`ElementwiseParams.scalar` then `PReLUParams.scalar`).
/// The face mesh and iris models write every residual block as `ADD → PRELU` (20 of the mesh's
/// 23 PRELUs). `b` has `count` values (no broadcast); `count` is pixels × `prelu.channels`.
public typealias AddPReLUKernel = @Sendable (
    _ a: UnsafePointer<Int8>, _ b: UnsafePointer<Int8>, _ count: Int, _ add: ElementwiseParams,
    _ prelu: PReLUParams, _ output: UnsafeMutablePointer<Int8>
) -> Void

extension IntegerKernelSetOf {
    /// int8 ADD then PRELU with this set: its `addPReLU`, or without one its `elementwise` then its
    /// `prelu` in place (each reads a value before writing it).
    public func addThenPReLU(_ a: UnsafePointer<Int8>, _ b: UnsafePointer<Int8>, _ count: Int, _ add: ElementwiseParams,
                             _ prelu: PReLUParams, _ output: UnsafeMutablePointer<Int8>) {
        if let addPReLU {
            addPReLU(a, b, count, add, prelu, output)
            return
        }
        elementwise(UnsafeRawPointer(a).assumingMemoryBound(to: E.self), UnsafeRawPointer(b).assumingMemoryBound(to: E.self),
                    count, count, add, UnsafeMutableRawPointer(output).assumingMemoryBound(to: E.self))
        self.prelu(UnsafePointer(output), count / prelu.channels, prelu, output)
    }
}

/// The reference: the two scalar formulas per value.
public func addPReLUScalar(
    _ a: UnsafePointer<Int8>, _ b: UnsafePointer<Int8>, _ count: Int, _ add: ElementwiseParams,
    _ prelu: PReLUParams, _ output: UnsafeMutablePointer<Int8>
) {
    precondition(count % prelu.channels == 0)
    let c = prelu.channels
    var ch = 0
    for i in 0..<count {
        output[i] = prelu.scalar(add.scalar(a[i], b[i]), channel: ch)
        ch += 1
        if ch == c { ch = 0 }
    }
}

extension ElementwiseParams {
    /// The C kernels' copy of these parameters (`booth_elementwise`).
    var kernelParams: booth_elementwise {
        let m = outputMultiplier
        return booth_elementwise(
            zero_point1: zeroPoint1, zero_point2: zeroPoint2, output_zero_point: outputZeroPoint,
            minimum: minimum, maximum: maximum, scale1: scale1, scale2: scale2,
            round: scaleShift > 0 ? 1 &<< (scaleShift &- 1) : 0, shift: scaleShift,
            multiplier: m.multiplier, left_shift: m.leftShift, right_shift: m.rightShift,
            mul: operation == .mul ? 1 : 0)
    }
}

/// aarch64: `booth_add_prelu_s8` (neural_kernels.c); parameters outside its exact range run
/// `elementwiseNEON` then `preluNEON` in place.
public func addPReLUNEON(
    _ a: UnsafePointer<Int8>, _ b: UnsafePointer<Int8>, _ count: Int, _ add: ElementwiseParams,
    _ prelu: PReLUParams, _ output: UnsafeMutablePointer<Int8>
) {
    if add.operation == .add && add.scaledAdd {
        var p = add.kernelParams
        if booth_add_prelu_s8(a, b, count, &p, prelu.channels, prelu.inputZeroPoint, prelu.outputZeroPoint,
                              prelu.positive, prelu.negative, prelu.shift, output) != 0 {
            return
        }
    }
    elementwiseNEON(a, b, count, count, add, output)
    preluNEON(UnsafePointer(output), count / prelu.channels, prelu, output)
}

/// x86-64 with AVX2: `booth_x86_add_prelu_s8` (neural_kernels_x86.c); otherwise `elementwiseX86`
/// then `preluX86` in place.
public func addPReLUX86(
    _ a: UnsafePointer<Int8>, _ b: UnsafePointer<Int8>, _ count: Int, _ add: ElementwiseParams,
    _ prelu: PReLUParams, _ output: UnsafeMutablePointer<Int8>
) {
#if arch(x86_64)
    if add.operation == .add && add.scaledAdd {
        var p = add.kernelParams
        if booth_x86_add_prelu_s8(a, b, count, &p, prelu.channels, prelu.inputZeroPoint, prelu.outputZeroPoint,
                                  prelu.positive, prelu.negative, prelu.shift, output) != 0 {
            return
        }
    }
#endif
    elementwiseX86(a, b, count, count, add, output)
    preluX86(UnsafePointer(output), count / prelu.channels, prelu, output)
}
