import ImageCore
import ImageFiles

/// The overlay's text face: Terminus Bold from Debian's console fonts (console-setup-linux,
/// also on Raspberry Pi OS). A bitmap console font needs no FreeType and no rasteriser at run
/// time, draws with integer spans, and Terminus is designed for legibility at a distance.
enum OverlayFont {
    static let candidates = [
        "/usr/share/consolefonts/Lat15-TerminusBold32x16.psf.gz",
        "/usr/share/consolefonts/Uni2-TerminusBold32x16.psf.gz",
        "/usr/share/consolefonts/Lat15-TerminusBold28x14.psf.gz",
        "/usr/share/consolefonts/Lat15-Fixed16.psf.gz",
    ]

    static func load() throws(KioskError) -> PSFFont {
        var problems: [String] = []
        for path in candidates {
            do {
                return try PSFFont(bytes: try Gzip.read(path))
            } catch let e as ImageFileError {
                if case .cannotOpen = e { continue }
                problems.append("\(e)")
            } catch {
                problems.append("\(path): \(error)")
            }
        }
        throw .display(.unsupported(device: "overlay font", detail: problems.isEmpty
            ? "no console font in /usr/share/consolefonts (apt-get install console-setup-linux)"
            : problems.joined(separator: "; ")))
    }
}
