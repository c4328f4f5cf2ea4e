import Config
import Passport
import Testing

/// The guide's hysteresis comes from the profile's `[live] hold_ms` and `release_ms`.
@Suite struct ProfileHysteresisTests {
    let base = "name = \"x\"\n[print]\nhead_height_mm = [29, 34]\n[live]\n"

    @Test func defaultsAreThreeHundredAndTwoHundredMilliseconds() throws {
        let p = try Profile.parse(base, file: "p.toml")
        #expect(p.live.holdMilliseconds == 300 && p.live.releaseMilliseconds == 200)
    }

    @Test func holdAndReleaseAreRead() throws {
        let p = try Profile.parse(base + "hold_ms = 0\nrelease_ms = 1500\n", file: "p.toml")
        #expect(p.live.holdMilliseconds == 0 && p.live.releaseMilliseconds == 1500)
    }

    @Test(arguments: [("hold_ms = -1\n", "live.hold_ms"), ("hold_ms = 5001\n", "live.hold_ms"),
                      ("release_ms = 99999\n", "live.release_ms"), ("release_ms = \"soon\"\n", "live.release_ms")])
    func outOfRangeValuesNameTheKey(line: String, key: String) {
        do {
            _ = try Profile.parse(base + line, file: "p.toml")
            Issue.record("accepted \(line)")
        } catch {
            #expect(error.key == key, "\(error)")
        }
    }
}
