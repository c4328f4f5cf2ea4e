import Config
import Testing

@Suite struct TOMLTests {
    @Test func parsesTheSubsetBoothUses() throws {
        let t = try TOMLParser.parse("""
            # board
            name = "Raspberry Pi 4"   # trailing comment
            rotation = 180
            scale = 1.5e0
            mirror = true
            'quoted key' = 'C:\\raw'
            sizes = [ 640, 480,
                      1_000 ]  # multi-line array
            [camera]
            id = ""
            preview = { width = 640, height = 480 }
            [gpio.shutter]
            chip = "/dev/gpiochip0"
            line = 0x11
            """, file: "b.toml")
        #expect(t["name"] == .string("Raspberry Pi 4"))
        #expect(t["rotation"] == .integer(180))
        #expect(t["scale"] == .float(1.5))
        #expect(t["mirror"] == .boolean(true))
        #expect(t["quoted key"] == .string("C:\\raw"))
        #expect(t["sizes"] == .array([.integer(640), .integer(480), .integer(1000)]))
        guard case .table(let gpio)? = t["gpio"], case .table(let shutter)? = gpio["shutter"] else {
            Issue.record("no gpio.shutter table"); return
        }
        #expect(shutter["line"] == .integer(17))
        guard case .table(let cam)? = t["camera"], case .table(let prev)? = cam["preview"] else { Issue.record("no preview"); return }
        #expect(prev["height"] == .integer(480))
        #expect(t.keys == ["name", "rotation", "scale", "mirror", "quoted key", "sizes", "camera", "gpio"])
    }

    @Test(arguments: [
        ("a = ", 1), ("a = 1\na = 2", 2), ("[x]\n[x]", 2), ("a = \"open", 1), ("a = [1, 2", 1),
        ("a = 1 b = 2", 1), ("[[t]]", 1), ("a = 12:00", 1), ("a = \"\"\"x\"\"\"", 1), ("a.b = 1\na = 2", 2),
    ])
    func malformedInputIsAnErrorWithLine(source: String, line: Int) {
        do {
            _ = try TOMLParser.parse(source, file: "bad.toml")
            Issue.record("parsed: \(source)")
        } catch {
            #expect(error.file == "bad.toml")
            #expect(error.line == line, "\(source): \(error)")
        }
    }

    @Test func readerNamesUnknownKeysAndBadValues() throws {
        let r = try ConfigReader.parse("mode = \"booth\"\n[display]\nconectr = \"HDMI-A-1\"\n", file: "/etc/booth/booth.toml")
        #expect(try r.string("mode", oneOf: ["passport", "booth"], default: "passport") == "booth")
        _ = try r.table("display")
        do {
            try r.finish()
            Issue.record("typo accepted")
        } catch {
            #expect(error.key == "display.conectr")
            #expect(error.description == "/etc/booth/booth.toml: 'display.conectr': unknown key")
        }
        let bad = try ConfigReader.parse("mode = \"selfie\"\ncount = 3.5\nfps = 200", file: "c.toml")
        #expect(throws: ConfigError.self) { _ = try bad.string("mode", oneOf: ["passport", "booth"], default: "passport") }
        #expect(throws: ConfigError.self) { _ = try bad.int("count") }
        #expect(throws: ConfigError.self) { _ = try bad.int("fps", in: 1...120) }
    }
}
