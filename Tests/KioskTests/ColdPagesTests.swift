import Foundation
import Kiosk
import Testing

/// `ColdPages.drop`: read-only file pages leave resident memory and come back intact on touch.
@Suite struct ColdPagesTests {
    static func rssFileKiB() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("RssFile:") }) else { return 0 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }

    @Test func codeAndConstantsLeaveResidentMemoryAndStillWork() throws {
        #if os(Linux)
        let date = Date(timeIntervalSince1970: 1_764_080_407.25)
        let expected = UTCTimestamp.iso8601(date)
        let before = Self.rssFileKiB()
        let dropped = ColdPages.drop()
        let after = Self.rssFileKiB()
        #expect(dropped > 1024, "at least the binary's and the Swift runtime's touched code (\(dropped) KiB)")
        #expect(after < before, "file-backed resident memory \(before) → \(after) KiB")
        // The code and read-only data come back from the files as they were.
        #expect(UTCTimestamp.iso8601(date) == expected)
        #expect(ISO8601DateFormatter().string(from: date) == expected)
        #endif
    }
}
