import Hardware
import ImageCore
import TestSupport
import Testing

/// The still writers: the real one makes a baseline 4:2:0 JPEG of the still's size straight from
/// its I420 planes; the fake records what it was given and fails when told to.
struct StillWriterTests {
    /// The first SOF0 segment's height, width and per-component sampling factors.
    static func frameHeader(_ jpeg: [UInt8]) -> (width: Int, height: Int, sampling: [UInt8])? {
        guard jpeg.count > 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
        var i = 2
        while i + 4 <= jpeg.count, jpeg[i] == 0xFF {
            let marker = jpeg[i + 1], length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            if marker == 0xC0 {
                guard i + 4 + length - 2 <= jpeg.count else { return nil }
                let h = Int(jpeg[i + 5]) << 8 | Int(jpeg[i + 6]), w = Int(jpeg[i + 7]) << 8 | Int(jpeg[i + 8])
                let n = Int(jpeg[i + 9])
                return (w, h, (0..<n).map { jpeg[i + 10 + 3 * $0 + 1] })
            }
            i += 2 + length
        }
        return nil
    }

    static func still(width: Int, height: Int, seed: UInt64) -> ImageBuffer {
        let b = ImageBuffer(format: .i420, width: width, height: height)
        return b.withImage { bImage in
            var g = SeededGenerator(seed: seed)
            let image = bImage
            for p in [image.planes.0, image.planes.1, image.planes.2] {
                for y in 0..<p.height {
                    let row = p.row(y)
                    for x in 0..<p.rowBytes { row[x] = UInt8(truncatingIfNeeded: (x + y) / 3) &+ UInt8.random(in: 0...15, using: &g) }
                }
            }
            return b
        }
    }

    /// `writer.write` of `still`, kept alive while it is read.
    static func write(_ writer: some StillWriter, _ still: ImageBuffer, sequence: UInt64 = 0) throws -> [UInt8] {
        try still.withImage(metadata: FrameMetadata(sequence: sequence)) { try writer.write($0) }
    }

    @Test func jpegWriterEncodesI420StraightAs420() throws {
        let writer = JPEGStillWriter(quality: 90)
        let a = Self.still(width: 1296, height: 972, seed: 1)
        let jpeg = try Self.write(writer, a)
        let header = try #require(Self.frameHeader(jpeg))
        #expect(header.width == 1296 && header.height == 972)
        #expect(header.sampling == [0x22, 0x11, 0x11])          // Y 2×2, Cb and Cr 1×1: 4:2:0
        #expect(Array(jpeg.suffix(2)) == [0xFF, 0xD9])
        // Another still, other bytes; a lower quality, fewer.
        let b = Self.still(width: 1296, height: 972, seed: 2)
        #expect(try Self.write(writer, b) != jpeg)
        #expect(try Self.write(JPEGStillWriter(quality: 30), a).count < jpeg.count)
    }

    @Test func jpegWriterRefusesNV12() {
        let nv12 = ImageBuffer(format: .nv12, width: 64, height: 48)
        do {
            _ = try Self.write(JPEGStillWriter(), nv12)
            Issue.record("NV12 was encoded")
        } catch {
            #expect("\(error)".contains("NV12"))
        }
    }

    @Test func recordingWriterRecordsAndFailsOnDemand() throws {
        let writer = RecordingStillWriter()
        let a = Self.still(width: 320, height: 240, seed: 3)
        let first = try Self.write(writer, a, sequence: 11)
        writer.failNext(1)
        #expect(throws: (any Error).self) { try Self.write(writer, a) }
        let b = Self.still(width: 320, height: 240, seed: 4)
        let second = try Self.write(writer, b, sequence: 12)
        let records = writer.records
        #expect(records.map(\.sequence) == [11, 12])
        #expect(records.allSatisfy { $0.width == 320 && $0.height == 240 && $0.format == .i420 })
        #expect(records[0].lumaSum != records[1].lumaSum)
        #expect(first != second)
    }
}
