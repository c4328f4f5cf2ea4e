import ImageCore

/// Where the rendered screen goes: a DRM/KMS framebuffer (`DRMDisplay`), PNG files
/// (`PNGDisplay`) or nowhere (`NullDisplay`).
///
/// Per screen: `beginFrame()` gives the XRGB8888 back buffer to draw into (the overlay renderer
/// draws straight into it, no intermediate copy); `present()` shows it.
public protocol DisplaySink: AnyObject {
    /// A short human-readable name ("DRM /dev/dri/card0 HDMI-A-1 1920x1080", "png out/screens").
    var name: String { get }
    var width: Int { get }
    var height: Int { get }
    /// The image to draw the next screen into (`.xrgb8888`). Valid until `present()`.
    func beginFrame() throws(HardwareError) -> Image
    /// Shows what was drawn since `beginFrame()`.
    func present() throws(HardwareError)
}
