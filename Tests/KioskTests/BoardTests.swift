import Config
import Foundation
import Kiosk
import TestSupport
import Testing
import Vision

@Suite struct BoardTests {
    static let boards = ["rpi4", "rpi5", "rpizero2w", "dev"]

    @Test(arguments: boards)
    func shippedBoardsParse(name: String) throws {
        let path = Fixtures.packageRoot + "/boards/\(name).toml"
        let board = try Board.parse(try String(contentsOfFile: path, encoding: .utf8), file: path)
        #expect(board.name == name)
        #expect(board.camera.previewWidth >= 320)
        if name == "dev" {
            #expect(board.camera.source == .folder && board.display.kind == .png)
        } else {
            #expect(board.camera.source == .libcamera && board.display.kind == .drm && board.gpio.shutter == .gpio)
        }
    }

    @Test(arguments: [
        ("[camera]\nrotation = 45", "camera.rotation"),
        ("[camera]\npreveiw = [640, 480]", "camera.preveiw"),
        ("[camera]\npreview = [640]", "camera.preview"),
        ("[camera]\nsource = \"webcam\"", "camera.source"),
        ("[camera]\nsource = \"folder\"", "camera.folder"),
        ("[display]\nmode = \"big\"", "display.mode"),
        ("[gpio]\nshutter_line = 17\nled_line = 17", "gpio"),
        ("[gpio]\ndebounce_ms = \"30\"", "gpio.debounce_ms"),
        ("colour = 1", "colour"),
    ])
    func badBoardFilesNameTheKey(source: String, key: String) {
        do {
            _ = try Board.parse(source, file: "x.toml")
            Issue.record("accepted: \(source)")
        } catch {
            #expect(error.key == key, "\(error)")
        }
    }

    @Test func kioskConfigDefaultsAndErrors() throws {
        let c = try KioskConfig.parse("board = \"rpi5\"\nmode = \"booth\"\nbackground = \"/srv/xmas.jpg\"\n", file: "b.toml")
        #expect(c.board == "rpi5" && c.mode == .booth && c.profile == "uk" && c.countdown == 3)
        #expect(throws: ConfigError.self) { _ = try KioskConfig.parse("mode = \"selfie\"", file: "b.toml") }
        #expect(throws: ConfigError.self) { _ = try KioskConfig.parse("photo_dir = \"photos\"", file: "b.toml") }
        #expect(throws: ConfigError.self) { _ = try KioskConfig.parse("profil = \"uk\"", file: "b.toml") }
        let shipped = Fixtures.packageRoot + "/systemd/booth.toml"
        let text = try String(contentsOfFile: shipped, encoding: .utf8)
        let parsed = try KioskConfig.parse(text, file: shipped)
        #expect(parsed.board == "rpi4" && parsed.photoDirectory == "/var/lib/booth/photos")
        #expect(parsed.detector == .auto)
    }

    /// `detector`: auto picks the full-range model in booth mode and the short-range one in
    /// passport mode; short and full are taken as given; anything else names the key.
    @Test func kioskConfigDetector() throws {
        #expect(try KioskConfig.parse("mode = \"booth\"", file: "b.toml").liveDetector == .full)
        #expect(try KioskConfig.parse("mode = \"passport\"", file: "b.toml").liveDetector == .short)
        #expect(try KioskConfig.parse("mode = \"booth\"\ndetector = \"short\"", file: "b.toml").liveDetector == .short)
        #expect(try KioskConfig.parse("detector = \"full\"", file: "b.toml").liveDetector == .full)
        #expect(KioskConfig.defaults.detector == .auto && KioskConfig.defaults.liveDetector == .short)
        for bad in ["\"far\"", "\"\"", "1", "true"] {
            do {
                _ = try KioskConfig.parse("detector = \(bad)", file: "b.toml")
                Issue.record("detector = \(bad) was accepted")
            } catch {
                #expect(error.key == "detector", "\(error)")
            }
        }
    }
}
