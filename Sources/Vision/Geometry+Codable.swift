import VisionKernels

// `Point2` and `Rect` live in VisionKernels, which has no Codable (Embedded Swift). Their JSON
// form is what the synthesized conformance wrote when they lived here: keyed by property name.

extension Point2: Codable {
    private enum CodingKeys: String, CodingKey { case x, y }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try c.decode(Float.self, forKey: .x), try c.decode(Float.self, forKey: .y))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(x, forKey: .x)
        try c.encode(y, forKey: .y)
    }
}

extension Rect: Codable {
    private enum CodingKeys: String, CodingKey { case x, y, width, height }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(x: try c.decode(Float.self, forKey: .x), y: try c.decode(Float.self, forKey: .y),
                  width: try c.decode(Float.self, forKey: .width), height: try c.decode(Float.self, forKey: .height))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(x, forKey: .x)
        try c.encode(y, forKey: .y)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
    }
}
