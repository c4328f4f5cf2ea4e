import Kiosk
import Testing

@Test func versionIsSemantic() {
    #expect(BoothVersion.string.split(separator: ".").count == 3)
}
