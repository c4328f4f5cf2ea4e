import ImageCore
import Testing
import TestSupport

/// Every table entry: the SIMD variant writes exactly the reference's bytes, and neither
/// writes outside the destination's pixels, at widths below, at and above the vector width,
/// odd strides, seeded random content.
@Suite struct KernelVariantTests {
    static let widths = [1, 2, 7, 15, 16, 17, 31, 33, 64, 640, 641]
    static let heights = [1, 2, 4, 5]
    static let slacks = [0, 3, 13]

    @Test(arguments: KernelTable.all.map(\.name))
    func simdEqualsScalar(name: String) throws {
        let entry = try #require(KernelTable.all.first { $0.name == name })
        var rng = SeededGenerator(seed: name.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 })
        for (index, width) in Self.widths.enumerated() {
            for height in Self.heights {
                let slack = Self.slacks[(index + height) % Self.slacks.count]
                let source = StridedImage(format: entry.sourceFormat, width: width, height: height, slack: slack, random: &rng)
                let background = StridedImage(format: entry.sourceFormat, width: width, height: height, slack: slack + 2, random: &rng)
                let mask = StridedImage(format: .gray8, width: width, height: height, slack: slack + 1, random: &rng)
                // Masks with runs of fully transparent and opaque pixels too.
                for y in 0..<height {
                    let row = mask.image.luma.row(y)
                    for x in 0..<width where x % 5 == 0 { row[x] = x % 10 == 0 ? 0 : 255 }
                }
                let size = entry.destinationSize(width, height)
                let outputs = [UInt8(0xA5), 0xA5].map {
                    StridedImage(format: entry.destinationFormat, width: size.width, height: size.height,
                                 slack: slack + 5, canary: $0, random: &rng)
                }
                for (variant, output) in zip(KernelVariant.allCases, outputs) {
                    entry.run(variant, KernelArguments(source: source.image, background: background.image,
                                                       mask: mask.image.luma, destination: output.image))
                }
                withExtendedLifetime((source, background, mask)) {}
                let same = outputs[0].pixels == outputs[1].pixels
                #expect(same, "\(name) \(width)×\(height) slack \(slack): SIMD differs from scalar")
                for (variant, output) in zip(KernelVariant.allCases, outputs) {
                    #expect(output.outsidePixels.allSatisfy { $0 == 0xA5 },
                            "\(name) \(variant) \(width)×\(height): wrote outside the destination's pixels")
                }
                if !same { return }
            }
        }
    }

    @Test func tableNamesAreUnique() {
        let names = KernelTable.all.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.count > 40)
    }
}
