import ImageCore

/// The conformance target's own kernel (Gray8 invert, `255 - x`): a scalar reference and a
/// `SIMD16<UInt8>` variant. It exercises the runner before ImageCore's table is populated and is
/// the NEON check's known-vector probe; `FNV1a.hashBytes` is its known-scalar probe.
public enum InvertKernel {
    /// Scalar reference.
    @inline(never)
    public static func invertScalar(_ src: Plane, _ dst: Plane) {
        precondition(src.width == dst.width && src.height == dst.height, "invert: size mismatch")
        for y in 0..<src.height {
            let s = src.row(y), d = dst.row(y)
            for x in 0..<src.rowBytes { d[x] = 255 &- s[x] }
        }
    }

    /// 16 lanes per step; the row tail (fewer than 16 bytes) is done one byte at a time, so it
    /// never writes past a row. Reads stay inside the row too.
    @inline(never)
    public static func invertSIMD(_ src: Plane, _ dst: Plane) {
        precondition(src.width == dst.width && src.height == dst.height, "invert: size mismatch")
        let n = src.rowBytes
        let all = SIMD16<UInt8>(repeating: 255)
        for y in 0..<src.height {
            let s = UnsafeRawPointer(src.row(y)), d = UnsafeMutableRawPointer(dst.row(y))
            var x = 0
            while x + 16 <= n {
                let v = s.loadUnaligned(fromByteOffset: x, as: SIMD16<UInt8>.self)
                d.storeBytes(of: all &- v, toByteOffset: x, as: SIMD16<UInt8>.self)
                x += 16
            }
            while x < n {
                d.storeBytes(of: 255 &- s.load(fromByteOffset: x, as: UInt8.self), toByteOffset: x, as: UInt8.self)
                x += 1
            }
        }
    }

    public static var conformance: ConformanceKernel {
        ConformanceKernel(
            name: "selftest.invert.gray8",
            shapes: { w, h in
                ([PlaneShape(width: w, height: h, bytesPerPixel: 1)], [PlaneShape(width: w, height: h, bytesPerPixel: 1)])
            },
            reference: ConformanceVariant(name: "scalar") { i, o in invertScalar(i[0], o[0]) },
            variants: [ConformanceVariant(name: "simd16") { i, o in invertSIMD(i[0], o[0]) }])
    }
}
