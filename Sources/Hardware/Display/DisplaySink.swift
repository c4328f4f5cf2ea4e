import ImageCore

/// Where the rendered screen goes: a DRM/KMS framebuffer (`DRMDisplay`), PNG files
/// (`PNGDisplay`) or nowhere (`NullDisplay`).
///
/// Per screen: `drawFrame { screen in ... }` lends the XRGB8888 back buffer to draw into (the
/// overlay renderer draws straight into it, no intermediate copy); `present()` shows it.
public protocol DisplaySink: AnyObject {
    /// A short human-readable name ("DRM /dev/dri/card0 HDMI-A-1 1920x1080", "png out/screens").
    var name: String { get }
    var width: Int { get }
    var height: Int { get }
    /// Lends the back buffer (`.xrgb8888`) to `draw` to draw the next screen into. The view must
    /// not escape `draw`; throws when the back buffer is not free (a flip that never lands).
    func drawFrame(_ draw: (Image) -> Void) throws(HardwareError)
    /// Shows what was drawn since the last `present()`.
    func present() throws(HardwareError)
}
