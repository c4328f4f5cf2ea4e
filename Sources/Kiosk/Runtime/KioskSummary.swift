/// What a run did, for the log and for tests. The lists are the most recent entries (see
/// `KioskRuntime.historyCapacity`); the counts are complete.
public struct KioskSummary: Sendable {
    public var framesPublished: UInt64
    public var framesDropped: UInt64
    public var framesAnalysed: UInt64
    public var framesShown: UInt64
    /// Shutter presses seen, and the reasons of those refused (passport mode: the instruction shown).
    public var shutterPresses: UInt64
    public var refusals: [String]
    /// Photos saved in all, and the most recent ones.
    public var photosSaved: UInt64
    public var photos: [SavedPhoto]
    public var messages: [String]
    public var cameraEvents: [String]
    public var start: ProcessStats
    public var end: ProcessStats
}
