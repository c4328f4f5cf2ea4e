import Passport
import Testing

@Suite struct PhotoGeometryTests {
    /// A head in a 3000×4000 still.
    let head = HeadGeometry(crownY: 900, chinY: 2100, eyeLineY: 1500, centreX: 1520, headWidth: 900, eyeDistance: 380)

    /// The head's geometry after cropping and scaling to the output.
    func mapped(_ h: HeadGeometry, _ c: PhotoCrop) -> HeadGeometry {
        let s = c.scale
        return HeadGeometry(crownY: (h.crownY - c.y) * s, chinY: (h.chinY - c.y) * s, eyeLineY: (h.eyeLineY - c.y) * s,
                            centreX: (h.centreX - c.x) * s, headWidth: h.headWidth * s, eyeDistance: h.eyeDistance * s)
    }

    @Test(arguments: ["uk", "icao", "us", "schengen"])
    func plannedCropsMeetTheProfile(name: String) throws {
        let profile = try shippedProfile(name)
        let crop = PhotoCrop.plan(head: head, profile: profile)
        #expect(crop.scale < 1, "a 3000×4000 still needs no upscaling")
        let out = mapped(head, crop)
        let rules = PhotoCrop.check(head: out, outputWidth: crop.outputWidth, outputHeight: crop.outputHeight,
                                    profile: profile, upscale: crop.scale)
        for r in rules where r.rule != "head_width" { #expect(r.passed, "\(name): \(r)") }
        #expect(abs(Double(crop.outputWidth) / Double(crop.outputHeight) - profile.print.widthMM / profile.print.heightMM) < 0.01)
    }

    @Test func checksCatchABadCrop() throws {
        let uk = try shippedProfile("uk")
        var crop = PhotoCrop.plan(head: head, profile: uk)
        crop.height *= 0.8; crop.width *= 0.8                 // head now too large for 45 mm
        let rules = PhotoCrop.check(head: mapped(head, crop), outputWidth: crop.outputWidth, outputHeight: crop.outputHeight,
                                    profile: uk, upscale: crop.scale)
        #expect(rules.contains { $0.rule == "head_height" && !$0.passed })
    }

    @Test func upscalingIsReportedNotHidden() throws {
        let small = HeadGeometry(crownY: 90, chinY: 210, eyeLineY: 150, centreX: 152, headWidth: 90, eyeDistance: 38)
        let uk = try shippedProfile("uk")
        let crop = PhotoCrop.plan(head: small, profile: uk)
        #expect(crop.scale > 1)
        let rules = PhotoCrop.check(head: mapped(small, crop), outputWidth: crop.outputWidth, outputHeight: crop.outputHeight,
                                    profile: uk, upscale: crop.scale)
        let up = rules.first { $0.rule == "no_upscaling" }
        #expect(up?.passed == false && up?.severity == .warning)
    }
}
