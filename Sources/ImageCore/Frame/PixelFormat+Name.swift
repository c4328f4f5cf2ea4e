extension PixelFormat {
    /// The format's name as written in this package (`gray8`, `i420`, `nv12`, `xrgb8888`, `rgb888`),
    /// without reflection so it works in Embedded Swift.
    public var name: String {
        switch self {
        case .gray8: return "gray8"
        case .i420: return "i420"
        case .nv12: return "nv12"
        case .xrgb8888: return "xrgb8888"
        case .rgb888: return "rgb888"
        }
    }
}
