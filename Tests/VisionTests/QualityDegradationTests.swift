import ImageCore
import Testing
import TestSupport
import Vision

/// The score falls with each generated degradation's strength, per face: Spearman ≥ 0.9 between
/// strength and −score, or scores that never rise and end lower (real faces from
/// ../shared/fixtures; skipped when absent).
@Suite(.serialized, .enabled(if: QualityTestSupport.hasFixtures, "../shared/fixtures/faces is absent: quality degradation tests skipped"))
struct QualityDegradationTests {
    typealias S = QualityTestSupport
    let estimator = CaptureQualityEstimator()

    /// One degradation: its name, strengths, and how to apply a strength to a subject image
    /// given the subject's face.
    struct Degradation: Sendable {
        let name: String
        let strengths: [Float]
        let apply: @Sendable (ImageBuffer, FaceObservation, Float) -> ImageBuffer
    }

    static let degradations: [Degradation] = [
        // σ as a fraction of the face width (sharpness is judged at face scale).
        Degradation(name: "blur", strengths: [0, 0.006, 0.012, 0.02, 0.03, 0.045]) { b, f, s in
            S.blur(b, sigma: s * f.box.width)
        },
        Degradation(name: "darken", strengths: [1, 0.7, 0.5, 0.35, 0.25, 0.15]) { b, _, g in
            S.mapBytes(b) { S.clampByte(Float($0) * g) }
        },
        Degradation(name: "overexpose", strengths: [1, 1.3, 1.6, 2.0, 2.5, 3.1]) { b, _, g in
            S.mapBytes(b) { S.clampByte(Float($0) * g) }
        },
        Degradation(name: "noise", strengths: [0, 5, 10, 16, 24, 34]) { b, _, s in
            S.noise(b, sigma: s, seed: 0x5EED)
        },
        // A light-blue surgical mask rising from below the chin to the nose bridge (fraction covered).
        Degradation(name: "mask", strengths: [0, 0.2, 0.4, 0.6, 0.8, 1.0]) { b, f, t in
            guard t > 0 else { return S.copy(b) }
            let jawL = f.landmarks68[2], jawR = f.landmarks68[14], chin = f.landmarks68[8], bridge = f.landmarks68[28]
            let bottom = chin.y + 0.1 * (chin.y - bridge.y)
            let top = bottom - t * (bottom - bridge.y)
            return S.paint(b, color: (160, 190, 220)) { x, y in x >= jawL.x && x <= jawR.x && y >= top && y <= bottom }
        },
        // A dark disc over the person's left eye, growing (radius in eye widths, from about the iris).
        Degradation(name: "eyePatch", strengths: [0, 0.3, 0.5, 0.7, 0.9, 1.1]) { b, f, r in
            guard r > 0 else { return S.copy(b) }
            let outer = f.landmarks68[45], inner = f.landmarks68[42]
            let cx = (outer.x + inner.x) / 2, cy = (outer.y + inner.y) / 2
            let radius = r * ((outer.x - inner.x) * (outer.x - inner.x) + (outer.y - inner.y) * (outer.y - inner.y)).squareRoot()
            return S.paint(b, color: (25, 22, 20)) { x, y in (x - cx) * (x - cx) + (y - cy) * (y - cy) <= radius * radius }
        },
        // Yaw: the head as a cylinder turned about its vertical axis (degrees).
        // Turned further the way the face already looks (positive yaw: nose towards the image's right).
        Degradation(name: "yaw", strengths: [0, 12, 24, 36, 48, 60]) { b, f, a in
            S.yawed(b, angle: (f.yaw < 0 ? -a : a) * .pi / 180, centreX: f.box.center.x, radius: 0.6 * f.box.width)
        },
    ]

    /// The face of `image` nearest `reference` and its quality, as a capture sequence sees it.
    /// The still analyzer comes first. When it finds no face there — its bar, mesh presence
    /// ≥ 0.8, is for a single still with no history — the mesh runs on the region the previous,
    /// milder capture's mesh gives, as the live `FaceTracker` does from frame to frame (presence
    /// ≥ 0.5, MediaPipe's tracking threshold). nil (score 0) when that fails too.
    func quality(_ image: Image, near reference: Rect, previous: inout RotatedRect?) -> CaptureQuality? {
        let faces = S.analyzer.analyze(image)
        if let face = faces.max(by: { $0.box.iou(reference) < $1.box.iou(reference) }), face.box.iou(reference) > 0.2 {
            previous = Self.trackingRegion(face.mesh)
            return estimator.evaluate(image, face: face)
        }
        guard let region = previous else { return nil }
        // The first pass and two refinements on the mesh's own region (as the analyzer does).
        let first = FaceMesh(), second = FaceMesh()
        let landmarker = S.analyzer.landmarker
        guard landmarker.process(image, region: region, into: first) else { return nil }
        var mesh = first
        if landmarker.process(image, region: first.trackingRegion, into: second) {
            mesh = second
            if landmarker.process(image, region: second.trackingRegion, into: first) { mesh = first }
        }
        previous = mesh.trackingRegion
        print("  (tracked: presence \(Self.f3(mesh.presence)))")
        return estimator.evaluate(image, face: mesh)
    }

    /// `FaceMesh.trackingRegion` for an observation's mesh.
    static func trackingRegion(_ points: [Point3]) -> RotatedRect {
        var x0 = Float.greatestFiniteMagnitude, y0 = Float.greatestFiniteMagnitude, x1 = -x0, y1 = -y0
        for p in points { x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y) }
        return RotatedRect.aligned(box: Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), from: points[33].xy, to: points[263].xy)
            .scaled(by: 1.5)
    }

    static func describe(_ q: CaptureQuality?) -> String {
        guard let q else { return "no face" }
        let c = q.components, m = q.measurements
        var s = "score \(f3(q.score)) [sh \(f3(c.sharpness)) ex \(f3(c.exposure)) no \(f3(c.noise)) po \(f3(c.pose))"
        s += " ey \(f3(c.eyesOpen)) mo \(f3(c.mouthNeutral)) oc \(f3(c.occlusion)) re \(f3(c.resolution))]"
        s += " detail \(f3(m.detail)) noise \(f3(m.noiseSigma)) luma \(f3(m.skinLuma)) contrast \(f3(m.faceContrast))"
        s += " clip \(f3(m.clipped)) yaw \(f3(m.yaw)) pitch \(f3(m.pitch)) eyes \(f3(q.eyeOpenness))"
        s += " flat eyes \(f3(m.rightEyeFlat))/\(f3(m.leftEyeFlat)) mouth \(f3(m.mouthFlat)) lower \(f3(m.lowerFaceFlat))"
        s += " gradient \(f3(m.faceGradient)) colour nose \(f3(m.noseDistance)) mouth \(f3(m.mouthDistance))"
        return s
    }

    static func f3(_ v: Float) -> String {
        let r = Int((v * 1000).rounded())
        return (r < 0 ? "-" : "") + "\(abs(r) / 1000).\(String(abs(r) % 1000 + 1000).dropFirst())"
    }

    @Test(arguments: QualityTestSupport.faces)
    func scoreFallsWithEveryDegradation(_ file: String) throws {
        let subject = try #require(S.subject(file), "\(file): no face")
        try subject.withImage { subjectImage in
            let face = try #require(S.mainFace(subjectImage), "\(file): no face in the crop")
            for d in Self.degradations {
                // The cylinder warp turns a level head; on a face pitched far up or down the mesh's
                // pitch estimate falls as the warp adds yaw, so the pose does not move away from frontal.
                if d.name == "yaw" && abs(face.pitch) > 0.35 {
                    print("spearman \(file) yaw: skipped (pitch \(Self.f3(face.pitch)) rad: synthetic yaw needs a level head)")
                    continue
                }
                var scores: [Float] = []
                var previous: RotatedRect? = nil
                for s in d.strengths {
                    let img = d.apply(subject, face, s)
                    let q = img.withImage { quality($0, near: face.box, previous: &previous) }
                    scores.append(q?.score ?? 0)
                    print("quality \(file) \(d.name) \(s): \(Self.describe(q))")
                }
                let rho = S.spearman(d.strengths.indices.map(Float.init), scores.map { -$0 })
                // A face lost at the stronger settings scores 0 several times over; those ties pull
                // Spearman's rho down although the scores never rise ([0.38, 0.09, 0, 0, 0, 0] is
                // 0.85). A sequence that never rises and ends below its start passes as well.
                let neverRises = zip(scores, scores.dropFirst()).allSatisfy { $0 >= $1 }
                let falls = neverRises && (scores.last ?? 0) < (scores.first ?? 0)
                print("spearman \(file) \(d.name): \(Self.f3(rho))\(falls ? " (never rises)" : "")")
                #expect(rho >= 0.9 || falls, "\(file) \(d.name): Spearman \(rho), scores \(scores)")
            }
        }
    }
}
