import Config
import Passport
import TestSupport
import Testing
import Vision

func shippedProfile(_ name: String) throws -> Profile {
    try ProfileLibrary.load(Fixtures.packageRoot + "/profiles/\(name).toml")
}

@Suite struct ProfileTests {
    @Test func ukRulesAreTheReferenceApps() throws {
        let uk = try shippedProfile("uk")
        #expect(uk.live.faceWidthTolerance == 0.20)
        #expect(uk.live.maxAbsPitch == 0.2 && uk.live.maxAbsYaw == 0.15 && uk.live.minQuality == 0.2)
        #expect(uk.print.widthMM == 35 && uk.print.heightMM == 45)
        #expect(abs(uk.print.headHeightRatio.lowerBound * 45 - 29) < 1e-9 && abs(uk.print.headHeightRatio.upperBound * 45 - 34) < 1e-9)
        #expect(uk.print.pixelSize.width >= 600 && uk.print.pixelSize.height >= 750)
        #expect(uk.print.background == (255, 255, 255))
        #expect(uk.text(.ready) == "Please take your photo :]")
        #expect(uk.text(.moveCloser) == "Please bring your face closer to the camera")
        #expect(uk.text(.moveFurther) == "Please hold the camera further from your face")
        #expect(uk.text(.centre) == "Please move your face to the centre of the frame")
        #expect(uk.text(.lookStraight) == "Please look straight at the camera")
        #expect(uk.text(.qualityTooLow) == "Image quality too low")
        #expect(uk.text(.cannotTakePhoto) == "We cannot take your photo right now")
    }

    @Test func otherProfilesCarryTheirNumbers() throws {
        let icao = try shippedProfile("icao")
        #expect(abs(icao.live.maxAbsYaw - 5 * Double.pi / 180) < 1e-3)
        #expect(icao.print.headHeightRatio == 0.6...0.9 && icao.print.eyeLineFromBottomRatio == 0.5...0.7)
        let us = try shippedProfile("us")
        #expect(us.print.widthMM == us.print.heightMM)
        #expect(abs(us.print.headHeightRatio.lowerBound * us.print.heightMM - 25.4) < 1e-9)
        #expect(us.print.pixelSize.width == us.print.pixelSize.height)
        let schengen = try shippedProfile("schengen")
        #expect(abs(schengen.print.headHeightRatio.upperBound * 45 - 36) < 1e-9)
    }

    @Test func everyRuleInEveryShippedFileStatesItsSource() throws {
        for name in ["uk", "icao", "us", "schengen"] {
            _ = try shippedProfile(name)
            let text = DataFiles.readText(Fixtures.packageRoot + "/profiles/\(name).toml") ?? ""
            #expect(text.contains("# Source:"), "\(name) has no sources")
        }
    }

    @Test(arguments: [
        ("name = \"x\"\n[live]\n", "print"),
        ("name = \"x\"\n[print]\nhead_height_mm = [34, 29]\n[live]\n", "print.head_height_mm"),
        ("name = \"x\"\n[print]\nhead_height_mm = [29, 34]\nhead_height_ratio = [0.6, 0.7]\n[live]\n", "print.head_height_mm"),
        ("name = \"x\"\n[print]\nhead_height_mm = [29, 34]\n[live]\nmax_abs_yaw = 3\n", "live.max_abs_yaw"),
        ("name = \"x\"\n[print]\nhead_height_mm = [29, 34]\n[live]\n[messages]\nredy = \"!\"\n", "messages.redy"),
        ("name = \"x\"\n[print]\nhead_height_mm = [29, 34]\nbackground = [300, 0, 0]\n[live]\n", "print.background"),
        ("name = \"x\"\n[print]\nhead_height_mm = [29, 34]\n[live]\n[examiner]\nglasses = \"sometimes\"\n", "examiner.glasses"),
        ("name = \"x\"\n[print]\nhead_height_mm = [29, 34]\n[live]\n[examiner]\nhead_covering = \"hats\"\n", "examiner.head_covering"),
        ("name = \"x\"\n[print]\nhead_height_mm = [29, 34]\n[live]\n[examiner]\nmax_lip_gap = 2\n", "examiner.max_lip_gap"),
        ("name = \"x\"\n[print]\nhead_height_mm = [29, 34]\n[live]\n[examiner]\nmax_smiel = 0.2\n", "examiner.max_smiel"),
    ])
    func badProfilesNameTheKey(source: String, key: String) {
        do {
            _ = try Profile.parse(source, file: "p.toml")
            Issue.record("accepted")
        } catch {
            #expect(error.key == key, "\(error)")
        }
    }

    @Test func addingACountryIsAddingAFile() throws {
        let p = try Profile.parse("""
            name = "xx"
            [print]
            head_height_mm = [30, 35]
            [live]
            """, file: "xx.toml")
        #expect(p.name == "xx" && p.live.maxAbsYaw == 0.15)
        #expect(throws: ConfigError.self) { _ = try ProfileLibrary.load("no-such-country") }
    }
}
