import Config
import Testing

/// Numbers in config files: a bad one is refused with the key named, and no value — huge, infinite
/// or NaN — reaches the code behind the reader.
@Suite struct ConfigNumberTests {
    @Test(arguments: ["99999999999999999999", "1e999", "1x", "--1"])
    func anUnreadableNumberNamesItsKey(_ text: String) throws {
        do {
            _ = try TOMLParser.parse("[gpio]\nscript = [1, \(text)]\n", file: "b.toml")
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.key == "gpio.script", "\(error)")
            #expect(error.description.hasPrefix("b.toml:2: 'gpio.script': "), "\(error)")
        }
    }

    @Test(arguments: ["inf", "-inf", "nan", "+nan", "1e308"])
    func nonFiniteNumbersAreRefusedByTheReader(_ text: String) throws {
        let r = try ConfigReader.parse("speed = \(text)\nlist = [\(text)]\n", file: "c.toml")
        if text == "1e308" {
            #expect(try r.double("speed") == 1e308)
            #expect(throws: ConfigError.self) { try r.double("speed", in: 0...60) }
            #expect(try r.doubles("list") == [1e308])
        } else {
            #expect(throws: ConfigError.self) { try r.double("speed") }
            #expect(throws: ConfigError.self) { try r.doubles("list") }
        }
    }
}
