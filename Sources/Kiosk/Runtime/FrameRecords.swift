import Synchronization

/// The hand-off of frame records from the vision stage (one writer) to the present stage (one
/// reader): three records, so the writer always finds one that is neither the newest published
/// nor the one being drawn. The lock guards only which record is which; a record is filled and
/// drawn outside it, so the screen is never rendered under a lock. Allocation-free.
final class FrameRecords: @unchecked Sendable {
    private struct Slots {
        /// The newest published record, and how many have been published.
        var newest: Int? = nil
        var published: UInt64 = 0
        /// The record the reader holds, and the one the writer holds.
        var reading: Int? = nil
        var writing: Int? = nil
    }

    private let records: [FrameRecord]
    private let slots = Mutex(Slots())

    init(width: Int, height: Int) {
        records = (0..<3).map { _ in FrameRecord(width: width, height: height) }
    }

    /// How many records the writer has published.
    var publishedCount: UInt64 { slots.withLock { $0.published } }

    /// Writer: a record to fill (neither the newest nor the one being read); publish it after.
    func beginWrite() -> FrameRecord {
        let index = slots.withLock { s -> Int in
            precondition(s.writing == nil, "one writer, one record at a time")
            var i = 0
            while i == s.newest || i == s.reading { i += 1 }
            s.writing = i
            return i
        }
        return records[index]
    }

    /// Writer: `record` (from `beginWrite`) is complete and becomes the newest.
    func publish(_ record: FrameRecord) {
        slots.withLock { s in
            guard let i = s.writing else { preconditionFailure("publish without beginWrite") }
            precondition(records[i] === record, "publish the record from beginWrite")
            s.newest = i
            s.writing = nil
            s.published &+= 1
        }
    }

    /// Reader: runs `body` on the newest record if it was published after `seen` (a count from an
    /// earlier call; nil takes the newest record even if it was seen), holding it against the
    /// writer but no lock; returns the published count it read, or nil when there was nothing.
    func withNewest(after seen: UInt64?, _ body: (FrameRecord) -> Void) -> UInt64? {
        let claim = slots.withLock { s -> (index: Int, count: UInt64)? in
            guard let i = s.newest, seen != s.published else { return nil }
            s.reading = i
            return (i, s.published)
        }
        guard let claim else { return nil }
        defer { slots.withLock { $0.reading = nil } }
        body(records[claim.index])
        return claim.count
    }
}
