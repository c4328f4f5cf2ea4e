import Foundation
import Passport
import Testing

/// The one passport report: `booth passport --report` and the kiosk sidecar's `passport` object,
/// encoded as both write it (pretty-printed, keys sorted).
@Suite struct PassportReportTests {
    static func encode(_ r: PassportReport) throws -> [String: Any] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try #require(try JSONSerialization.jsonObject(with: encoder.encode(r)) as? [String: Any])
    }

    static let rules = [
        RuleResult(rule: "yaw", measured: 0.05, limit: "≤ 0.15", passed: true, instruction: .noFace),
        RuleResult(rule: "no_upscaling", measured: 1.4, limit: "≤ 1.00", passed: false, severity: .warning, instruction: .noFace),
    ]

    @Test func theCommandsReportNamesProfileSourceAndOutput() throws {
        let r = PassportReport(profile: "uk", source: "in.jpg", output: "out.jpg", complies: true, message: "complies",
                               rules: Self.rules, width: 413, height: 531)
        let json = try Self.encode(r)
        #expect(Set(json.keys) == ["profile", "source", "output", "complies", "message", "rules", "width", "height"])
        #expect(json["profile"] as? String == "uk" && json["output"] as? String == "out.jpg" && json["complies"] as? Bool == true)
        let rules = try #require(json["rules"] as? [[String: Any]])
        #expect(rules.count == 2 && rules[1]["rule"] as? String == "no_upscaling" && rules[1]["severity"] as? String == "warning")
        #expect(try JSONDecoder().decode(PassportReport.self, from: JSONEncoder().encode(r)) == r)
    }

    @Test func aRefusalHasNoOutputOrSize_andTheSidecarNoNames() throws {
        let refused = PassportReport(profile: "uk", source: "in.jpg", complies: false, message: "the face is enlarged 3.3×",
                                     rules: Self.rules, width: nil, height: nil)
        #expect(Set(try Self.encode(refused).keys) == ["profile", "source", "complies", "message", "rules"])
        let sidecar = PassportReport(complies: false, message: "no face", rules: [], width: nil, height: nil)
        #expect(Set(try Self.encode(sidecar).keys) == ["complies", "message", "rules"])
    }
}
