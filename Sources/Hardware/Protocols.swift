import ImageCore

/// A source of camera frames: libcamera on a board, a folder of images or a synthetic pattern
/// elsewhere. Implementations hand each frame to `onFrame` and never block on the consumer.
public protocol FrameSource: AnyObject {
    /// A short human-readable name ("libcamera imx708", "folder ./faces", "synthetic").
    var name: String { get }
}

/// Where the rendered screen goes: a DRM/KMS framebuffer, PNG files, or nowhere.
public protocol DisplaySink: AnyObject {
    var name: String { get }
}

/// The shutter: a GPIO line, the keyboard, or a scripted sequence of presses.
public protocol ShutterButton: AnyObject {
    var name: String { get }
}
