import Config

/// A passport profile, read from `profiles/NAME.toml`: the finished photo's geometry (`print`),
/// the live booth's rules (`live`) and the instruction texts. Adding a country is adding a file.
public struct Profile: Sendable, Equatable {
    public struct Print: Sendable, Equatable {
        public var widthMM: Double
        public var heightMM: Double
        /// Crown-to-chin height as a fraction of the photo height (mm limits are converted).
        public var headHeightRatio: ClosedRange<Double>
        /// Eye line measured from the bottom, as a fraction of the height; nil when not regulated.
        public var eyeLineFromBottomRatio: ClosedRange<Double>?
        public var headWidthRatio: ClosedRange<Double>?
        public var centreXRatio: ClosedRange<Double>
        public var minEyeDistancePx: Int
        public var minWidthPx: Int
        public var minHeightPx: Int
        /// Background colour for a replaced background (R, G, B).
        public var background: (UInt8, UInt8, UInt8)

        public static func == (a: Print, b: Print) -> Bool {
            a.widthMM == b.widthMM && a.heightMM == b.heightMM && a.headHeightRatio == b.headHeightRatio
                && a.eyeLineFromBottomRatio == b.eyeLineFromBottomRatio && a.headWidthRatio == b.headWidthRatio
                && a.centreXRatio == b.centreXRatio && a.minEyeDistancePx == b.minEyeDistancePx
                && a.minWidthPx == b.minWidthPx && a.minHeightPx == b.minHeightPx && a.background == b.background
        }

        /// The finished photo's pixel size: the minimum size, with the print's aspect ratio.
        public var pixelSize: (width: Int, height: Int) {
            let aspect = widthMM / heightMM
            var h = Double(minHeightPx)
            var w = (h * aspect).rounded()
            if w < Double(minWidthPx) { w = Double(minWidthPx); h = (w / aspect).rounded() }
            return (Int(w), Int(h))
        }
    }

    public struct Live: Sendable, Equatable {
        public var faceWidthTolerance: Double
        public var centreTolerance: Double
        public var maxAbsPitch: Double
        public var maxAbsYaw: Double
        public var maxAbsRoll: Double
        public var minQuality: Double
        public var eyesOpen: Bool
        public var mouthClosed: Bool
        public var plainBackground: Bool
        /// Eye openness (0 closed … 1 wide open) below which eyes count as closed.
        public var minEyeOpenness: Double
        /// Mouth openness (0 closed … 1 wide open) above which the mouth counts as open.
        public var maxMouthOpenness: Double
        /// The visible background must be at least this light (mean luma, 0...255) …
        public var minBackgroundLuma: Double
        /// … and this uniform (luma standard deviation).
        public var maxBackgroundDeviation: Double
        /// The guide turns green once the verdict has passed for this long (`hold_ms`) …
        public var holdMilliseconds: Int = 300
        /// … and red again once it has failed for this long (`release_ms`); see `Hysteresis`.
        public var releaseMilliseconds: Int = 200
    }

    public var name: String
    public var title: String
    public var print: Print
    public var live: Live
    /// The examiner's rules: mouth, expression, eyes, glasses, covers, head covering, focus, light.
    public var examiner: ExaminerLimits
    public var messages: [Instruction: String]

    /// The text shown for `instruction`.
    public func text(_ instruction: Instruction) -> String { messages[instruction] ?? instruction.defaultText }

    public static func parse(_ source: String, file: String) throws(ConfigError) -> Profile {
        let r = try ConfigReader.parse(source, file: file)
        let name = try r.string("name") ?? ""
        if name.isEmpty { throw ConfigError(file: file, key: "name", message: "is required") }
        let title = try r.string("title", default: name)

        guard let p = try r.table("print") else { throw ConfigError(file: file, key: "print", message: "table is required") }
        let width = try p.double("width_mm", in: 10...200) ?? 35
        let height = try p.double("height_mm", in: 10...200) ?? 45
        func range(_ key: String, _ scale: Double, _ within: ClosedRange<Double>) throws(ConfigError) -> ClosedRange<Double>? {
            guard let v = try p.doubles(key, count: 2) else { return nil }
            let lo = v[0] / scale, hi = v[1] / scale
            guard lo <= hi, within.contains(lo), within.contains(hi) else {
                throw ConfigError(file: file, key: "print." + key, message: "must be [low, high] within the photo")
            }
            return lo...hi
        }
        let headMM = try range("head_height_mm", height, 0.1...1)
        let headRatio = try range("head_height_ratio", 1, 0.1...1)
        guard let head = headMM ?? headRatio, headMM == nil || headRatio == nil else {
            throw ConfigError(file: file, key: "print.head_height_mm", message: "give exactly one of head_height_mm or head_height_ratio")
        }
        let eyeMM = try range("eye_line_from_bottom_mm", height, 0...1)
        let eyeRatio = try range("eye_line_from_bottom_ratio", 1, 0...1)
        let bg = try p.doubles("background", count: 3) ?? [255, 255, 255]
        guard bg.allSatisfy({ (0...255).contains($0) && $0 == $0.rounded() }) else {
            throw ConfigError(file: file, key: "print.background", message: "must be [r, g, b] with whole numbers 0...255")
        }
        let print = Print(
            widthMM: width, heightMM: height, headHeightRatio: head, eyeLineFromBottomRatio: eyeMM ?? eyeRatio,
            headWidthRatio: try range("head_width_ratio", 1, 0.1...1),
            centreXRatio: try range("centre_x_ratio", 1, 0...1) ?? 0.45...0.55,
            minEyeDistancePx: try p.int("min_eye_distance_px", default: 0, in: 0...2000),
            minWidthPx: try p.int("min_width_px", default: 600, in: 64...10000),
            minHeightPx: try p.int("min_height_px", default: 750, in: 64...10000),
            background: (UInt8(bg[0]), UInt8(bg[1]), UInt8(bg[2])))

        guard let l = try r.table("live") else { throw ConfigError(file: file, key: "live", message: "table is required") }
        let live = Live(
            faceWidthTolerance: try l.double("face_width_tolerance", default: 0.2, in: 0.01...1),
            centreTolerance: try l.double("centre_tolerance", default: 0.1, in: 0.01...1),
            maxAbsPitch: try l.double("max_abs_pitch", default: 0.2, in: 0.001...1.6),
            maxAbsYaw: try l.double("max_abs_yaw", default: 0.15, in: 0.001...1.6),
            maxAbsRoll: try l.double("max_abs_roll", default: 0.12, in: 0.001...1.6),
            minQuality: try l.double("min_quality", default: 0.2, in: 0...1),
            eyesOpen: try l.bool("eyes_open", default: true),
            mouthClosed: try l.bool("mouth_closed", default: true),
            plainBackground: try l.bool("plain_background", default: true),
            minEyeOpenness: try l.double("min_eye_openness", default: 0.25, in: 0...1),
            maxMouthOpenness: try l.double("max_mouth_openness", default: 0.35, in: 0...1),
            minBackgroundLuma: try l.double("min_background_luma", default: 165, in: 0...255),
            maxBackgroundDeviation: try l.double("max_background_deviation", default: 30, in: 0...255),
            holdMilliseconds: try l.int("hold_ms", default: 300, in: 0...5000),
            releaseMilliseconds: try l.int("release_ms", default: 200, in: 0...5000))

        let examiner = try ExaminerLimits.parse(try r.table("examiner"))
        var messages: [Instruction: String] = [:]
        if let m = try r.table("messages") {
            for i in Instruction.allCases {
                if let s = try m.string(i.key) { messages[i] = s }
            }
        }
        try r.finish()
        return Profile(name: name, title: title, print: print, live: live, examiner: examiner, messages: messages)
    }
}
