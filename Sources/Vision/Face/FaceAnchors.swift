/// One SSD anchor: centre in normalised input coordinates (0...1). BlazeFace (short and full
/// range) uses fixed-size anchors, so width and height are 1 and the regressors are in input pixels.
public struct FaceAnchor: Sendable, Equatable {
    public var x: Float
    public var y: Float
    public init(x: Float, y: Float) { self.x = x; self.y = y }
}

/// The anchors of BlazeFace, generated as MediaPipe's `SsdAnchorsCalculator` does with the options
/// of the detector's graph (anchor offset 0.5, fixed anchor size, one aspect ratio (1.0), plus the
/// interpolated scale when `perLayer` is 2). Short range: 4 layers, strides [8, 16, 16, 16];
/// layers sharing a stride share one feature map: 16×16 cells × 2 anchors, then 8×8 cells × 6
/// anchors = 896. Full range: 1 layer at stride 4, 48×48 cells × 1 anchor = 2304. Ordered layer
/// group, row, column, anchor.
public enum FaceAnchors {
    public static let strides = [8, 16, 16, 16]
    public static let inputSize = 128
    public static let anchorOffset: Float = 0.5

    /// The anchors of `model`.
    public static func make(for model: FaceDetectorModel) -> [FaceAnchor] {
        make(inputSize: model.inputSize, strides: model.strides, perLayer: model.anchorsPerLayer)
    }

    public static func make(inputSize: Int = inputSize, strides: [Int] = strides, perLayer: Int = 2) -> [FaceAnchor] {
        var anchors: [FaceAnchor] = []
        var layer = 0
        while layer < strides.count {
            // All consecutive layers with this stride go onto one feature map.
            var last = layer
            while last + 1 < strides.count && strides[last + 1] == strides[layer] { last += 1 }
            // Per layer: one anchor per aspect ratio (1.0) and, with `perLayer` 2, one interpolated-scale anchor.
            let perCell = perLayer * (last - layer + 1)
            let side = (inputSize + strides[layer] - 1) / strides[layer]
            for y in 0..<side {
                for x in 0..<side {
                    let cx = (Float(x) + anchorOffset) / Float(side)
                    let cy = (Float(y) + anchorOffset) / Float(side)
                    for _ in 0..<perCell { anchors.append(FaceAnchor(x: cx, y: cy)) }
                }
            }
            layer = last + 1
        }
        return anchors
    }
}
