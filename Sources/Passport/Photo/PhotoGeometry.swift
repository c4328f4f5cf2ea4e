import Vision

/// Where the head is in a still, in source pixels (y down).
public struct HeadGeometry: Sendable, Equatable {
    /// Top of the head (hair included), estimated from the mesh and the person mask.
    public var crownY: Double
    public var chinY: Double
    /// Mean y of the two pupils.
    public var eyeLineY: Double
    /// The face's vertical midline.
    public var centreX: Double
    /// Head width (ear to ear, or the mask's width at eye level).
    public var headWidth: Double
    public var eyeDistance: Double

    public init(crownY: Double, chinY: Double, eyeLineY: Double, centreX: Double, headWidth: Double, eyeDistance: Double) {
        self.crownY = crownY; self.chinY = chinY; self.eyeLineY = eyeLineY
        self.centreX = centreX; self.headWidth = headWidth; self.eyeDistance = eyeDistance
    }

    public var headHeight: Double { chinY - crownY }
}

/// The crop of the source that makes a profile-compliant photo: a rectangle in source pixels
/// (it may reach outside the source; that part is filled with the profile's background) and the
/// output size.
public struct PhotoCrop: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public var outputWidth: Int
    public var outputHeight: Int

    /// Output pixels per source pixel (> 1 means upscaling).
    public var scale: Double { Double(outputHeight) / height }

    /// Plans the crop: scale so the crown-to-chin height is the middle of the profile's range;
    /// place the eye line in the middle of its range when the profile regulates it, otherwise leave
    /// a top margin of 45 % of the space the head does not use; centre the face horizontally.
    public static func plan(head: HeadGeometry, profile: Profile) -> PhotoCrop {
        let p = profile.print
        let (ow, oh) = p.pixelSize
        let headRatio = (p.headHeightRatio.lowerBound + p.headHeightRatio.upperBound) / 2
        let cropH = head.headHeight / headRatio
        let cropW = cropH * Double(ow) / Double(oh)
        var top = head.crownY - (1 - headRatio) * 0.45 * cropH
        if let eye = p.eyeLineFromBottomRatio {
            let wanted = (eye.lowerBound + eye.upperBound) / 2
            let eyeTop = head.eyeLineY - (1 - wanted) * cropH
            // Keep the crown inside the photo with at least 2 % margin.
            top = min(eyeTop, head.crownY - 0.02 * cropH)
        }
        return PhotoCrop(x: head.centreX - cropW / 2, y: top, width: cropW, height: cropH, outputWidth: ow, outputHeight: oh)
    }

    /// Checks a finished photo's geometry against the profile: head height, eye line, head width,
    /// centre, eye distance and pixel size, measured in output pixels.
    public static func check(head: HeadGeometry, outputWidth w: Int, outputHeight h: Int, profile: Profile,
                             upscale: Double) -> [RuleResult] {
        let p = profile.print
        let H = Double(h), W = Double(w)
        var rules: [RuleResult] = []
        let headRatio = head.headHeight / H
        rules.append(RuleResult(rule: "head_height", measured: headRatio * p.heightMM,
                                limit: "\(fmt(p.headHeightRatio.lowerBound * p.heightMM))…\(fmt(p.headHeightRatio.upperBound * p.heightMM)) mm",
                                passed: p.headHeightRatio.contains(headRatio), instruction: .cannotTakePhoto))
        if let eye = p.eyeLineFromBottomRatio {
            let r = (H - head.eyeLineY) / H
            rules.append(RuleResult(rule: "eye_line_from_bottom", measured: r * p.heightMM,
                                    limit: "\(fmt(eye.lowerBound * p.heightMM))…\(fmt(eye.upperBound * p.heightMM)) mm",
                                    passed: eye.contains(r), instruction: .cannotTakePhoto))
        }
        if let hw = p.headWidthRatio {
            let r = head.headWidth / W
            rules.append(RuleResult(rule: "head_width", measured: r, limit: "\(fmt(hw.lowerBound))…\(fmt(hw.upperBound)) of width",
                                    passed: hw.contains(r), instruction: .cannotTakePhoto))
        }
        let cx = head.centreX / W
        rules.append(RuleResult(rule: "face_centre_x", measured: cx, limit: "\(fmt(p.centreXRatio.lowerBound))…\(fmt(p.centreXRatio.upperBound)) of width",
                                passed: p.centreXRatio.contains(cx), instruction: .centre))
        rules.append(RuleResult(rule: "crown_inside", measured: head.crownY, limit: "≥ 0 px", passed: head.crownY >= 0,
                                instruction: .moveFurther))
        if p.minEyeDistancePx > 0 {
            rules.append(RuleResult(rule: "eye_distance", measured: head.eyeDistance, limit: "≥ \(p.minEyeDistancePx) px",
                                    passed: head.eyeDistance >= Double(p.minEyeDistancePx), instruction: .moveCloser))
        }
        rules.append(RuleResult(rule: "pixel_size", measured: Double(w * h), limit: "≥ \(p.minWidthPx)×\(p.minHeightPx)",
                                passed: w >= p.minWidthPx && h >= p.minHeightPx, instruction: .qualityTooLow))
        rules.append(RuleResult(rule: "no_upscaling", measured: upscale, limit: "≤ 1 (source pixels per output pixel ≥ 1)",
                                passed: upscale <= 1.0001, severity: .warning, instruction: .moveCloser))
        return rules
    }
}
