import ImageCore

/// Copies camera pixels into a frame-ring slot: the one copy that remains between the camera's
/// mmap'd dmabuf and the ring (the dmabuf must go back to libcamera at once, and the ring's slots
/// keep the padding and alignment the SIMD kernels rely on). Row by row, honouring both strides.
public enum FrameCopy {
    /// Copies `source` (I420 or NV12) into `destination` (I420 or NV12) of the same size.
    public static func copyYUV420(from source: Image, to destination: Image) {
        precondition(source.width == destination.width && source.height == destination.height, "frame size mismatch")
        precondition(source.format == .i420 || source.format == .nv12, "camera frames are YUV 4:2:0")
        copyPlane(source.planes.0, destination.planes.0)
        switch (source.format, destination.format) {
        case (.i420, .i420):
            copyPlane(source.planes.1, destination.planes.1)
            copyPlane(source.planes.2, destination.planes.2)
        case (.nv12, .nv12):
            copyPlane(source.planes.1, destination.planes.1)
        case (.nv12, .i420):
            let uv = source.planes.1, u = destination.planes.1, v = destination.planes.2
            for y in 0..<u.height {
                let s = uv.row(y), du = u.row(y), dv = v.row(y)
                for x in 0..<u.width {
                    du[x] = s[2 * x]
                    dv[x] = s[2 * x + 1]
                }
            }
        case (.i420, .nv12):
            let u = source.planes.1, v = source.planes.2, uv = destination.planes.1
            for y in 0..<u.height {
                let su = u.row(y), sv = v.row(y), d = uv.row(y)
                for x in 0..<u.width {
                    d[2 * x] = su[x]
                    d[2 * x + 1] = sv[x]
                }
            }
        default:
            preconditionFailure("destination must be I420 or NV12")
        }
    }

    public static func copyPlane(_ s: Plane, _ d: Plane) {
        precondition(s.width == d.width && s.height == d.height && s.bytesPerPixel == d.bytesPerPixel, "plane mismatch")
        let bytes = s.rowBytes
        if s.stride == d.stride && s.stride == bytes {
            d.base.copyMemory(from: s.base, byteCount: bytes * s.height)
            return
        }
        for y in 0..<s.height {
            UnsafeMutableRawPointer(d.row(y)).copyMemory(from: s.row(y), byteCount: bytes)
        }
    }
}
