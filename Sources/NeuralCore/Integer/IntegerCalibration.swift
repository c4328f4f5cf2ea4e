/// How the integer path finds its activation ranges: from a `table` recorded offline on real
/// images (`CalibrationTable`, shipped per model and keyed by its sha256), or else at load, by
/// running the float reference path on a calibration set and recording every tensor's minimum and
/// maximum (the union over the set; TFLite's post-training min/max calibration).
///
/// The built-in set is generated deterministically (no data files), at the model's input size and
/// in its input value range:
/// - (`.faces`) synthetic "portraits": a smooth two-colour background gradient, a skin-toned ellipse (face)
///   with shading, darker ellipses for hair, eyes, brows and mouth, a lighter nose ridge, and a
///   torso below, at seeded positions, sizes and colours;
/// - the same scenes with seeded sensor-like noise (±4 % of the range);
/// - low-frequency colour blobs;
/// - (`.eyes`, for the iris model) eye close-ups: sclera, iris, pupil, catch light, lids, brow.
/// Callers with real images (e.g. face crops) can add them through `images`.
public struct IntegerCalibration: Sendable {
    /// The value range of the model's input (MediaPipe: BlazeFace −1...1, mesh, iris and
    /// segmentation 0...1).
    public var inputLower: Float
    public var inputUpper: Float
    /// What the generated images show.
    public enum Content: Sendable, Equatable {
        /// Portraits and colour blobs (face detector, mesh, segmentation).
        case faces
        /// Eye close-ups (the iris model).
        case eyes
    }
    public var content: Content
    /// Number of generated images.
    public var generatedCount: Int
    public var seed: UInt64
    /// Extra calibration inputs (NHWC float32, the model's input 0 shape), used with the generated ones.
    public var images: [[Float]]
    /// The integer path's activation width.
    public enum ActivationWidth: Sendable, Equatable {
        /// int16 for models with a per-pixel output, int8 otherwise (see `activationWidth(for:)`).
        case automatic
        /// Asymmetric int8 activations (TFLite's int8 scheme).
        case int8
        /// Symmetric int16 activations with int8 weights (TFLite's 16x8 scheme).
        case int16
    }
    public var activations: ActivationWidth = .automatic
    /// Fold standalone RELUs into the operation before them (see `ActivationFusion`).
    public var fuseActivations: Bool = true
    /// Apply cross-layer equalisation before calibrating (see `CrossLayerEqualization`).
    public var equalize: Bool = true
    /// Equalise against calibrated activation ranges rather than filter ranges.
    public var activationAwareEqualization: Bool = true
    /// Ranges recorded offline; used instead of the load-time run when it `matches` the graph.
    public var table: CalibrationTable? = nil

    /// The graph rewrites and the activation width in effect, as a `CalibrationTable` names them
    /// (a table recorded with other rewrites describes other tensors; its ranges were chosen for
    /// its width).
    public var graphSettings: String {
        let width: String
        switch activations {
        case .automatic: width = "auto"
        case .int8: width = "8"
        case .int16: width = "16"
        }
        return "fuse=" + (fuseActivations ? "1" : "0") + " equalize=" + (equalize ? "1" : "0")
            + " aware=" + (activationAwareEqualization ? "1" : "0") + " width=" + width
    }

    /// Uses `table`, with the graph rewrites it was recorded with (its `settings`).
    public mutating func adopt(_ table: CalibrationTable) {
        let words = table.settings.split(separator: " ")
        fuseActivations = !words.contains("fuse=0")
        equalize = !words.contains("equalize=0")
        activationAwareEqualization = !words.contains("aware=0")
        activations = words.contains("width=16") ? .int16 : words.contains("width=8") ? .int8 : .automatic
        self.table = table
    }

    /// `table` if it fits `graph` (already rewritten), else nil.
    func usableTable(_ graph: Graph) -> CalibrationTable? {
        guard let table, table.matches(tensorCount: graph.tensors.count, calibration: self) else { return nil }
        return table
    }

    public init(inputLower: Float = 0, inputUpper: Float = 1, content: Content = .faces, generatedCount: Int = 6,
                seed: UInt64 = 0x0B00_7415, images: [[Float]] = []) {
        self.content = content
        self.inputLower = inputLower
        self.inputUpper = inputUpper
        self.generatedCount = generatedCount
        self.seed = seed
        self.images = images
    }

    /// The width `activations` resolves to for `graph`.
    ///
    /// Chosen by measurement against LiteRT (IntegerModelTests, real face input; RELUs folded):
    ///
    /// | model (goal) | int8 | int16 |
    /// |---|---|---|
    /// | BlazeFace: box Δ ≤ 1 px / score Δ ≤ 0.02 | 0.75 px / 0.006 | (not needed) |
    /// | mesh: RMS ≤ 1 px | 0.76 px | (not needed) |
    /// | iris: max ≤ 0.5 px | 0.40 px | (not needed) |
    /// | selfie_segmentation: 1 − IoU ≤ 0.03 / mean Δ ≤ 0.02 | 0.044 / 0.020 | 0.017 / 0.010 |
    /// | selfie_segmentation_landscape: same goals | 0.065 / 0.024 | 0.021 / 0.008 |
    ///
    /// The face models meet their goals with int8 (their outputs pool evidence over the whole
    /// input); the segmentation masks miss IoU ≥ 0.97 and mean Δ ≤ 0.02 even when calibrated on the
    /// test image itself, because every output pixel carries the rounding of a dozen int8 layers
    /// near the 0.5 threshold. So `.automatic` gives int16 to models with a per-pixel output
    /// (an output with the input's height and width) and int8 to the rest.
    public func activationWidth(for graph: Graph) -> ActivationWidth {
        if activations != .automatic { return activations }
        guard let input = graph.inputs.first else { return .int8 }
        let s = graph.tensors[input].shape4
        for o in graph.outputs {
            let t = graph.tensors[o].shape4
            if t[1] == s[1] && t[2] == s[2] && s[1] > 1 && s[2] > 1 { return .int16 }
        }
        return .int8
    }

    /// MediaPipe's BlazeFace input range.
    public static let signedUnit = IntegerCalibration(inputLower: -1, inputUpper: 1)
    /// Mesh and segmentation models.
    public static let unit = IntegerCalibration()
    /// The iris model.
    public static let eyes = IntegerCalibration(content: .eyes)
}

/// SplitMix64, for the calibration images (and the offline calibration sets' augmentations).
public struct CalibrationRandom {
    public var state: UInt64
    public init(state: UInt64) { self.state = state }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [lo, hi).
    public mutating func uniform(_ lo: Float, _ hi: Float) -> Float {
        lo + (hi - lo) * Float(next() >> 40) / Float(1 << 24)
    }
}

/// The generated calibration set (`package`: the tests' precision research uses it too).
package enum CalibrationImages {
    /// Image `index` of the set, `h × w × c` values in `[lower, upper]`.
    package static func generate(index: Int, height h: Int, width w: Int, channels c: Int,
                         calibration cal: IntegerCalibration) -> [Float] {
        var rng = CalibrationRandom(state: cal.seed &+ UInt64(index) &* 0x1000_0001)
        var rgb = [Float](repeating: 0, count: h * w * 3)
        let kind = cal.content == .eyes ? 3 : index % 3
        @inline(__always) func color() -> SIMD3<Float> {
            SIMD3(rng.uniform(0.05, 0.95), rng.uniform(0.05, 0.95), rng.uniform(0.05, 0.95))
        }
        if kind == 3 {
            // An eye close-up (the iris model's input): skin, eyelid opening, iris, pupil, brow.
            let skin = SIMD3<Float>(rng.uniform(0.35, 0.95), rng.uniform(0.25, 0.75), rng.uniform(0.15, 0.65))
            let iris = SIMD3<Float>(rng.uniform(0.05, 0.5), rng.uniform(0.05, 0.45), rng.uniform(0.02, 0.4))
            let ex = rng.uniform(0.4, 0.6), ey = rng.uniform(0.45, 0.6)
            let ax = rng.uniform(0.28, 0.4), ay = ax * rng.uniform(0.3, 0.5)
            let ix = ex + rng.uniform(-0.1, 0.1), ir = ay * rng.uniform(0.9, 1.3)
            let light = rng.uniform(-0.3, 0.3)
            for y in 0..<h {
                for x in 0..<w {
                    let u = Float(x) / Float(w), v = Float(y) / Float(h)
                    var p = skin * (1 + light * (u - 0.5) - 0.2 * (v - 0.5) * (v - 0.5))
                    let du = (u - ex) / ax, dv = (v - ey) / ay
                    let bu = (u - ex) / (ax * 1.2), bv = (v - (ey - ay * 2.6)) / (ay * 0.35)
                    if bu * bu + bv * bv < 1 { p = skin * 0.3 }  // brow
                    if du * du + dv * dv < 1.3 && du * du + dv * dv >= 1 { p = skin * 0.7 }  // lid crease
                    if du * du + dv * dv < 1 {
                        p = SIMD3(repeating: 0.85)
                        let ru = u - ix, rv = v - ey
                        let r = (ru * ru + rv * rv).squareRoot()
                        if r < ir { p = iris * (0.8 + 0.4 * r / ir) }
                        if r < ir * 0.4 { p = SIMD3(repeating: 0.03) }
                        if (ru - ir * 0.3) * (ru - ir * 0.3) + (rv + ir * 0.3) * (rv + ir * 0.3) < ir * ir * 0.02 {
                            p = SIMD3(repeating: 1)  // catch light
                        }
                    }
                    for ch in 0..<3 { rgb[(y * w + x) * 3 + ch] = min(max(p[ch], 0), 1) }
                }
            }
        } else if kind == 2 {
            // Low-frequency colour blobs.
            var blobs: [(Float, Float, Float, SIMD3<Float>)] = []
            for _ in 0..<8 { blobs.append((rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0.1, 0.4), color())) }
            for y in 0..<h {
                for x in 0..<w {
                    let u = Float(x) / Float(w), v = Float(y) / Float(h)
                    var acc = SIMD3<Float>(repeating: 0.5), wsum: Float = 1
                    for (bx, by, r, col) in blobs {
                        let d = ((u - bx) * (u - bx) + (v - by) * (v - by)) / (r * r)
                        let k = 1 / (1 + d * d)
                        acc += col * (4 * k); wsum += 4 * k
                    }
                    let p = acc / wsum
                    for ch in 0..<3 { rgb[(y * w + x) * 3 + ch] = p[ch] }
                }
            }
        } else {
            let top = color(), bottom = color()
            let skin = SIMD3<Float>(rng.uniform(0.35, 0.95), rng.uniform(0.25, 0.75), rng.uniform(0.15, 0.65))
            let hair = SIMD3<Float>(repeating: rng.uniform(0.02, 0.5)) * SIMD3(1, 0.8, 0.6)
            let cloth = color()
            let cx = rng.uniform(0.35, 0.65), cy = rng.uniform(0.35, 0.6)
            let rx = rng.uniform(0.15, 0.32), ry = rx * rng.uniform(1.15, 1.45)
            let tilt = rng.uniform(-0.3, 0.3)
            let light = rng.uniform(-0.5, 0.5)
            for y in 0..<h {
                for x in 0..<w {
                    let u = Float(x) / Float(w), v = Float(y) / Float(h)
                    var p = top + (bottom - top) * v
                    // Torso.
                    let tx = (u - cx) / (rx * 2.2), ty = (v - (cy + ry * 2.1)) / (ry * 1.3)
                    if tx * tx + ty * ty < 1 { p = cloth * (0.8 + 0.2 * (1 - v)) }
                    // Face coordinates (rotated by tilt).
                    let du = u - cx, dv = v - cy
                    let fu = (du + tilt * dv) / rx, fv = (dv - tilt * du) / ry
                    let r2 = fu * fu + fv * fv
                    if r2 < 1.25 && fv < -0.35 { p = hair }  // hair cap
                    if r2 < 1 {
                        let shade = 1 - 0.25 * r2 + 0.15 * light * fu
                        p = skin * shade
                        func blob(_ ex: Float, _ ey: Float, _ ax: Float, _ ay: Float) -> Bool {
                            let a = (fu - ex) / ax, b = (fv - ey) / ay
                            return a * a + b * b < 1
                        }
                        if blob(-0.38, -0.15, 0.17, 0.08) || blob(0.38, -0.15, 0.17, 0.08) {
                            p = SIMD3(repeating: 0.9)  // eye whites
                            if blob(-0.38, -0.15, 0.07, 0.07) || blob(0.38, -0.15, 0.07, 0.07) {
                                p = SIMD3(0.15, 0.1, 0.08)
                            }
                        }
                        if blob(-0.38, -0.36, 0.22, 0.04) || blob(0.38, -0.36, 0.22, 0.04) { p = hair }
                        if blob(0, 0.1, 0.06, 0.22) { p = skin * (shade + 0.12) }
                        if blob(0, 0.5, 0.3, 0.07) { p = SIMD3(0.6, 0.25, 0.25) * shade }
                    }
                    for ch in 0..<3 { rgb[(y * w + x) * 3 + ch] = min(max(p[ch], 0), 1) }
                }
            }
            if kind == 1 {
                for i in 0..<rgb.count { rgb[i] = min(max(rgb[i] + rng.uniform(-0.04, 0.04), 0), 1) }
            }
        }
        var out = [Float](repeating: 0, count: h * w * c)
        for p in 0..<(h * w) {
            for ch in 0..<c {
                let v = rgb[p * 3 + min(ch, 2)]
                out[p * c + ch] = cal.inputLower + (cal.inputUpper - cal.inputLower) * v
            }
        }
        return out
    }
}

/// Per-tensor float ranges from running the float path on the calibration set.
enum RangeRecorder {
    static func record(graph: Graph, calibration: IntegerCalibration) throws(ModelError) -> [(Float, Float)] {
        try record(graph: graph, calibration: calibration, perChannel: []).ranges
    }

    /// Per-tensor ranges, and for the tensors in `perChannel` the largest |value| per channel, over
    /// `calibration.images` and the generated set.
    static func record(graph: Graph, calibration: IntegerCalibration, perChannel: [Int])
        throws(ModelError) -> (ranges: [(Float, Float)], channels: [Int: [Float]]) {
        guard graph.inputs.count == 1 else { throw .unsupported("integer calibration needs exactly one model input") }
        let input = graph.inputs[0]
        let s = graph.tensors[input].shape4
        var images = calibration.images
        for i in 0..<calibration.generatedCount {
            images.append(CalibrationImages.generate(index: i, height: s[1], width: s[2], channels: s[3],
                                                     calibration: calibration))
        }
        for image in images where image.count != graph.tensors[input].elementCount {
            throw .unsupported("a calibration image does not have the model's input size")
        }
        return try record(graph: graph, perChannel: perChannel, count: images.count, coverage: 1) { i, dst in
            images[i].withUnsafeBufferPointer { dst.baseAddress!.update(from: $0.baseAddress!, count: $0.count) }
        }
    }

    /// Runs the float path on `count` inputs, each written by `fill(index, input)`, and returns every
    /// tensor's range and, for the tensors in `perChannel`, the largest |value| per channel.
    ///
    /// `coverage` (0 < coverage ≤ 1) is the share of inputs whose extremes each range covers: 1
    /// takes the minimum and maximum over all inputs (TFLite's post-training min/max); below 1 each
    /// bound is that quantile of the per-input extremes, so that a few outlying inputs do not
    /// widen a range (and coarsen its steps) for all the others.
    static func record(graph: Graph, perChannel: [Int], count: Int, coverage: Float,
                       fill: (Int, UnsafeMutableBufferPointer<Float>) -> Void)
        throws(ModelError) -> (ranges: [(Float, Float)], channels: [Int: [Float]]) {
        guard graph.inputs.count == 1 else { throw .unsupported("integer calibration needs exactly one model input") }
        guard coverage > 0 && coverage <= 1 else { throw .unsupported("calibration coverage must be in (0, 1]") }
        // A plan without reuse: every tensor keeps its values after `run()`.
        let retained = try RetainedFloatRun(graph: graph)
        defer { retained.deallocate() }
        let plan = retained.plan, arena = retained.arena, program = retained.program
        let n = graph.tensors.count
        var ranges = [(Float, Float)](repeating: (Float.infinity, -Float.infinity), count: n)
        // Per-input extremes, kept only when a quantile of them is wanted.
        var lows: [[Float]] = [], highs: [[Float]] = []
        if coverage < 1 {
            lows = [[Float]](repeating: [], count: n)
            highs = [[Float]](repeating: [], count: n)
        }
        let input = graph.inputs[0]
        guard let inputOffset = plan.offsets[input] else { throw .unsupported("the model input has no storage") }
        let inputBuffer = UnsafeMutableBufferPointer(start: (arena + inputOffset).assumingMemoryBound(to: Float.self),
                                                     count: graph.tensors[input].elementCount)
        var channels: [Int: [Float]] = [:]
        for t in perChannel { channels[t] = [Float](repeating: 0, count: graph.tensors[t].shape4[3]) }
        for i in 0..<count {
            fill(i, inputBuffer)
            program.run()
            for t in 0..<n {
                guard let o = plan.offsets[t] else { continue }
                let p = (arena + o).assumingMemoryBound(to: Float.self)
                var lo = Float.infinity, hi = -Float.infinity
                for k in 0..<graph.tensors[t].elementCount {
                    let v = p[k]
                    lo = v < lo ? v : lo
                    hi = v > hi ? v : hi
                }
                ranges[t] = (min(ranges[t].0, lo), max(ranges[t].1, hi))
                if coverage < 1 {
                    lows[t].append(lo)
                    highs[t].append(hi)
                }
            }
            for t in perChannel {
                guard let o = plan.offsets[t], var m = channels[t] else { continue }
                let p = (arena + o).assumingMemoryBound(to: Float.self)
                let c = m.count
                for k in 0..<graph.tensors[t].elementCount { m[k % c] = max(m[k % c], abs(p[k])) }
                channels[t] = m
            }
        }
        if coverage < 1 && count > 0 {
            let k = min(count - 1, max(0, Int((coverage * Float(count)).rounded(.up)) - 1))
            for t in 0..<n where !highs[t].isEmpty {
                let hi = highs[t].sorted()[k]
                let lo = lows[t].sorted(by: >)[k]
                ranges[t] = (min(lo, hi), max(lo, hi))
            }
        }
        return (ranges, channels)
    }
}
