import Foundation
import Kiosk
import Testing

/// The sidecar's time without ICU: the same text as `ISO8601DateFormatter`'s default.
@Suite struct UTCTimestampTests {
    @Test(arguments: [0, 1, 59.999, 951_782_400, 1_764_080_407.25, 4_102_444_799])
    func matchesTheFoundationFormatter(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(UTCTimestamp.iso8601(date) == ISO8601DateFormatter().string(from: date))
    }
}
