import ImageCore

/// What goes behind the people.
public enum Background: @unchecked Sendable {
    /// One colour (bytes R, G, B).
    case color(red: UInt8, green: UInt8, blue: UInt8)
    /// A picture, scaled to cover the frame and centred (cropped, never stretched). Same pixel
    /// format as the frames (RGB888 or XRGB8888).
    case image(Image)
    /// The frame itself, blurred (the portrait-mode look). `strength` is the blur radius in
    /// percent of the frame's shorter side.
    case blurred(strength: Int)

    /// Passport backgrounds.
    public static let white = Background.color(red: 255, green: 255, blue: 255)
    public static let cream = Background.color(red: 243, green: 236, blue: 220)
    public static let lightGrey = Background.color(red: 216, green: 216, blue: 216)
}
