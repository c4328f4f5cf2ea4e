import ImageCore
import Testing

@Suite struct ImageBufferTests {
    @Test(arguments: PixelFormat.allCases, [1, 7, 64, 65, 641])
    func planesAreAlignedPaddedAndDisjoint(format: PixelFormat, width: Int) {
        let buffer = ImageBuffer(format: format, width: width, height: 5)
        buffer.withImage { image in
            var lastEnd = 0
            let base = Int(bitPattern: image.plane(0).base)
            for i in 0..<format.planeCount {
                let p = image.plane(i)
                let start = Int(bitPattern: p.base) - base
                #expect(start >= lastEnd)
                #expect(p.stride % ImageBuffer.rowAlignment == 0)
                #expect(p.stride >= p.rowBytes)
                #expect(p.padding >= Plane.requiredPadding)
                lastEnd = start + (p.height - 1) * p.stride + p.rowBytes
            }
            #expect(lastEnd <= buffer.byteCount)
        }
    }

    @Test func croppedPlaneKeepsStrideAndPadding() {
        let buffer = ImageBuffer(format: .gray8, width: 100, height: 50)
        buffer.withImage { image in
            let p = image.luma
            let c = p.cropped(x: 10, y: 20, width: 30, height: 30)
            #expect(c.stride == p.stride)
            #expect(c.base == p.base + 20 * p.stride + 10)
            // The crop's last row ends inside the parent, so more than the parent's padding remains.
            #expect(c.padding == (49 * p.stride + 100 + p.padding) - (49 * p.stride + 10 + 30))
        }
    }

    struct Refused: Error, Equatable { var code: Int }

    @Test func withImageLendsTheViewWithMetadataAndReturnsTheResult() {
        let buffer = ImageBuffer(format: .i420, width: 6, height: 4)
        let metadata = FrameMetadata(sequence: 42, timestampNanoseconds: 7)
        let (sequence, base) = buffer.withImage(metadata: metadata) { image in
            image.luma.row(3)[5] = 200   // writable
            return (image.metadata.sequence, image.luma.base)
        }
        #expect(sequence == 42)
        #expect(buffer.withImage { $0.luma.base } == base)   // the same pixels every time
        #expect(buffer.withImage { $0.luma.row(3)[5] } == 200)
    }

    @Test func withImageRethrowsTheBodysTypedError() {
        let buffer = ImageBuffer(format: .gray8, width: 2, height: 2)
        #expect(throws: Refused(code: 3)) {
            try buffer.withImage { (_) throws(Refused) -> Int in throw Refused(code: 3) }
        }
    }

    @Test func aLeaseLendsItsFrameAndHoldsTheSlotWhileLent() {
        let ring = FrameRing(slotCount: 1, format: .gray8, width: 4, height: 2)
        ring.produce(metadata: FrameMetadata(sequence: 1)) { $0.luma.row(0)[0] = 11 }
        guard let lease = ring.newest() else { Issue.record("no frame"); return }
        #expect(lease.metadata.sequence == 1)
        let (value, refused) = lease.withImage { image in
            // The only slot is lent: the producer must drop the next frame, not write into it.
            let written = ring.produce(metadata: FrameMetadata(sequence: 2)) { $0.luma.row(0)[0] = 22 }
            return (image.luma.row(0)[0], !written)
        }
        #expect(value == 11 && refused)
        #expect(ring.droppedCount == 1)
    }
}
