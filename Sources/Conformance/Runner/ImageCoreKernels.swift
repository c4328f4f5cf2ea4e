import ImageCore

/// Adapter from ImageCore's kernel table (`KernelTable.all`, one `KernelEntry` per kernel with
/// its `KernelVariant`s) to conformance kernels: every entry, every variant, the standard image
/// cases (widths around the vector widths, odd strides), seeded planes. Alpha-blend entries also
/// get a background (the source's format) and a Gray8 mask with runs of 0 and 255.
public enum ImageCoreKernels {
    public static var conformance: [ConformanceKernel] {
        KernelTable.all.map { kernel($0) }
    }

    static func name(_ v: KernelVariant) -> String {
        switch v {
        case .scalar: return "scalar"
        case .simd: return "simd"
        }
    }

    /// Seeded planes of a `width`×`height` image of `format`, rows `slack` bytes longer.
    static func planes(_ format: PixelFormat, _ width: Int, _ height: Int, slack: Int,
                       _ random: inout ConformanceRandom) -> [TestPlane] {
        var list: [TestPlane] = []
        for i in 0..<format.planeCount {
            let size = format.planeSize(plane: i, width: width, height: height)
            list.append(TestPlane(width: size.width, height: size.height, bytesPerPixel: format.bytesPerPixel(plane: i),
                                  slack: slack, random: &random))
        }
        return list
    }

    static func shapes(_ format: PixelFormat, _ width: Int, _ height: Int) -> [PlaneShape] {
        var list: [PlaneShape] = []
        for i in 0..<format.planeCount {
            let size = format.planeSize(plane: i, width: width, height: height)
            list.append(PlaneShape(width: size.width, height: size.height, bytesPerPixel: format.bytesPerPixel(plane: i)))
        }
        return list
    }

    /// The image over `planes` (the format's plane count of them, from `start`).
    static func image(_ format: PixelFormat, _ width: Int, _ height: Int, _ planes: [Plane], from start: Int) -> Image {
        let first = planes[start]
        let empty = Plane(base: first.base, width: 0, height: 0, stride: 0, bytesPerPixel: 1, padding: 0)
        let n = format.planeCount
        return Image(format: format, width: width, height: height,
                     planes: (first, n > 1 ? planes[start + 1] : empty, n > 2 ? planes[start + 2] : empty))
    }

    static func kernel(_ entry: KernelEntry) -> ConformanceKernel {
        let variants = KernelVariant.allCases
        return ConformanceKernel(name: entry.name, cases: ConformanceCase.standard,
                                 benchCase: ConformanceCase(width: 320, height: 240, slack: 0),
                                 variantNames: variants.map { name($0) }) { c, random in
            let w = c.width, h = c.height
            let source = entry.sourceFormat, destination = entry.destinationFormat
            var inputs = planes(source, w, h, slack: c.slack, &random)
            if entry.usesBackgroundAndMask {
                inputs += planes(source, w, h, slack: c.slack + 2, &random)
                let mask = TestPlane(width: w, height: h, bytesPerPixel: 1, slack: c.slack + 1, random: &random)
                for y in 0..<h {
                    let row = mask.plane.row(y)
                    for x in stride(from: 0, to: w, by: 5) { row[x] = x % 10 == 0 ? 0 : 255 }
                }
                inputs.append(mask)
            }
            let size = entry.destinationSize(w, h)
            let n = source.planeCount
            let uses = entry.usesBackgroundAndMask
            let calls = variants.map { variant in
                ConformanceVariant(name: name(variant)) { i, o in
                    let arguments = KernelArguments(
                        source: image(source, w, h, i, from: 0),
                        background: uses ? image(source, w, h, i, from: n) : nil,
                        mask: uses ? i[2 * n] : nil,
                        destination: image(destination, size.width, size.height, o, from: 0))
                    entry.run(variant, arguments)
                }
            }
            return ConformanceInstance(inputs: inputs, outputs: shapes(destination, size.width, size.height),
                                       outputSlack: c.slack, reference: calls[0], variants: Array(calls.dropFirst()))
        }
    }
}
