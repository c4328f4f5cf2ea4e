/// Constant padding of an NHWC tensor (batch 1) along H, W and C with the zero point.
struct PadSpec {
    var height: Int, width: Int, channels: Int
    var top: Int, left: Int, front: Int
    var outputHeight: Int, outputWidth: Int, outputChannels: Int
    var zeroPoint: Int32

    func run<E: QuantizedActivation>(_ input: UnsafePointer<E>, _ output: UnsafeMutablePointer<E>) {
        let z = E(truncatingIfNeeded: zeroPoint)
        if front == 0 && outputChannels == channels {
            padSpatial(input, height: height, width: width, channels: channels, top: top,
                       bottom: outputHeight - height - top, left: left, right: outputWidth - width - left,
                       zeroPoint: zeroPoint, output: output)
            return
        }
        output.update(repeating: z, count: outputHeight * outputWidth * outputChannels)
        for y in 0..<height {
            for x in 0..<width {
                let dst = output + ((y + top) * outputWidth + x + left) * outputChannels + front
                // A raw copy (memmove): `update(from:count:)` is a per-element loop in Embedded Swift.
                UnsafeMutableRawPointer(dst).copyMemory(from: input + (y * width + x) * channels,
                                                        byteCount: channels * MemoryLayout<E>.stride)
            }
        }
    }
}
