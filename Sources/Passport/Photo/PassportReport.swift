/// A passport photo's compliance report: what `booth passport --report` writes and the
/// `passport` object of the kiosk's sidecar (one type, one JSON form). The command fills
/// `profile`, `source` and `output` (absent when no photo was written); the sidecar leaves them
/// out (it names the profile itself). `width` and `height` are the finished photo's, absent when
/// there is none.
public struct PassportReport: Sendable, Equatable, Codable {
    public var profile: String?
    public var source: String?
    public var output: String?
    public var complies: Bool
    /// "complies", or why not.
    public var message: String
    public var rules: [RuleResult]
    public var width: Int?
    public var height: Int?

    public init(profile: String? = nil, source: String? = nil, output: String? = nil, complies: Bool, message: String,
                rules: [RuleResult], width: Int?, height: Int?) {
        self.profile = profile
        self.source = source
        self.output = output
        self.complies = complies
        self.message = message
        self.rules = rules
        self.width = width
        self.height = height
    }

    /// The report of a made photo: "complies" or "does not comply" (the rules say which failed).
    public init(_ made: PassportPhoto, profile: String? = nil, source: String? = nil, output: String? = nil) {
        self.init(profile: profile, source: source, output: output, complies: made.complies,
                  message: made.complies ? "complies" : "does not comply",
                  rules: made.rules, width: made.image.width, height: made.image.height)
    }

    /// The report of a still the maker refused (no face, several faces, …): no photo.
    public init(_ failure: PassportPhotoMaker.Failure, profile: String? = nil, source: String? = nil) {
        self.init(profile: profile, source: source, complies: false, message: failure.message, rules: failure.rules,
                  width: nil, height: nil)
    }
}
