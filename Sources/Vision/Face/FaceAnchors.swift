/// One SSD anchor: centre in normalised input coordinates (0...1). BlazeFace short-range uses
/// fixed-size anchors, so width and height are 1 and the regressors are in input pixels.
public struct FaceAnchor: Sendable, Equatable {
    public var x: Float
    public var y: Float
    public init(x: Float, y: Float) { self.x = x; self.y = y }
}

/// The anchors of BlazeFace short-range, generated as MediaPipe's `SsdAnchorsCalculator` does
/// with the options of `face_detection_short_range_common.pbtxt`: 4 layers, strides
/// [8, 16, 16, 16], one aspect ratio (1.0) plus the interpolated scale, anchor offset 0.5,
/// fixed anchor size. Layers sharing a stride share one feature map: 16×16 cells × 2 anchors,
/// then 8×8 cells × 6 anchors = 896, ordered layer group, row, column, anchor.
public enum FaceAnchors {
    public static let strides = [8, 16, 16, 16]
    public static let inputSize = 128
    public static let anchorOffset: Float = 0.5

    public static func make(inputSize: Int = inputSize, strides: [Int] = strides) -> [FaceAnchor] {
        var anchors: [FaceAnchor] = []
        var layer = 0
        while layer < strides.count {
            // All consecutive layers with this stride go onto one feature map.
            var last = layer
            while last + 1 < strides.count && strides[last + 1] == strides[layer] { last += 1 }
            // Per layer: one anchor per aspect ratio (1.0) and one interpolated-scale anchor.
            let perCell = 2 * (last - layer + 1)
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
