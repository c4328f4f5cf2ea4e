import CNeuralKernels

/// Constant padding of an NHWC tensor (batch 1) along H, W and C with the zero point.
struct PadSpec {
    var height: Int, width: Int, channels: Int
    var top: Int, left: Int, front: Int
    var outputHeight: Int, outputWidth: Int, outputChannels: Int
    var zeroPoint: Int32

    func run<E: QuantizedActivation>(_ input: UnsafePointer<E>, _ output: UnsafeMutablePointer<E>) {
        if front == 0 && outputChannels == channels {
            padSpatial(input, height: height, width: width, channels: channels, top: top,
                       bottom: outputHeight - height - top, left: left, right: outputWidth - width - left,
                       zeroPoint: zeroPoint, output: output)
            return
        }
        padChannels(input, height: height, width: width, channels: channels, top: top, left: left, front: front,
                    outputHeight: outputHeight, outputWidth: outputWidth, outputChannels: outputChannels,
                    zeroPoint: zeroPoint, output: output)
    }
}

/// PAD (constant) along H, W and C of an NHWC tensor: the output filled with the zero point, each
/// input pixel's `channels` values at (top + y, left + x, front). In C (`booth_pad_channels`): a few
/// vector moves per pixel, where a Swift copy was a memmove call per pixel (the largest cost of the
/// mesh program's PAD steps on aarch64).
public func padChannels<E: QuantizedActivation>(
    _ input: UnsafePointer<E>, height: Int, width: Int, channels: Int, top: Int, left: Int, front: Int,
    outputHeight: Int, outputWidth: Int, outputChannels: Int, zeroPoint: Int32, output: UnsafeMutablePointer<E>
) {
    booth_pad_channels(input, height, width, channels, MemoryLayout<E>.stride, top, left, front,
                       outputHeight, outputWidth, outputChannels, zeroPoint, output)
}
