import Foundation
import Kiosk
import Testing

struct OverlayNumberTests {
    @Test func formatsLikePrintfForTheDebugPanel() {
        #expect(OverlayNumber.text("R ", 0.123, decimals: 2, signed: true) == "R +0.12")
        #expect(OverlayNumber.text("P ", -0.5, decimals: 2, signed: true) == "P -0.50")
        #expect(OverlayNumber.text("Y ", -0.004, decimals: 2, signed: true) == "Y +0.00")   // no "-0.00"
        #expect(OverlayNumber.text("Q ", 0.995, decimals: 2) == "Q 1.00")
        #expect(OverlayNumber.text("", 23.6, decimals: 0, suffix: " ms") == "24 ms")
        #expect(OverlayNumber.text("", 3, decimals: 0) == "3")
        #expect(OverlayNumber.text("", 1234.5678, decimals: 3) == "1234.568")
        #expect(OverlayNumber.text("x", .nan, decimals: 1) == "x0.0")
    }

    @Test func agreesWithStringFormatOverARange() {
        for i in -300...300 {
            let v = Double(i) * 0.0137
            #expect(OverlayNumber.text("", v, decimals: 2, signed: true) == String(format: "%+.2f", v).replacingOccurrences(of: "-0.00", with: "+0.00"))
        }
    }
}
