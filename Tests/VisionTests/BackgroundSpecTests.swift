import Testing
import TestSupport
import Vision

@Suite struct BackgroundSpecTests {
    @Test func coloursBlursAndFilesParse() throws {
        #expect(try BackgroundSpec(parsing: "white") == .color(red: 255, green: 255, blue: 255))
        #expect(try BackgroundSpec(parsing: "Cream") == .color(red: 243, green: 236, blue: 220))
        #expect(try BackgroundSpec(parsing: "gray") == .color(red: 216, green: 216, blue: 216))
        #expect(try BackgroundSpec(parsing: "#00FF7f") == .color(red: 0, green: 255, blue: 127))
        #expect(try BackgroundSpec(parsing: "blur") == .blurred(strength: 4))
        #expect(try BackgroundSpec(parsing: "blur:50") == .blurred(strength: 50))
        let picture = Fixtures.models + "/astronaut.png"
        #expect(try BackgroundSpec(parsing: picture) == .file(picture))
    }

    @Test(arguments: ["#12345", "#GGGGGG", "#+12345", "blur:0", "blur:51", "blur:x", "/nonexistent/bg.jpg", ""])
    func badBackgroundsAreOneLineErrors(_ text: String) {
        do {
            let spec = try BackgroundSpec(parsing: text)
            Issue.record("\(text) parsed as \(spec)")
        } catch {
            #expect(!error.description.isEmpty && !error.description.contains("\n"))
        }
    }
}
