import ImageFiles
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct GzipTests {
    /// "hello\n" compressed by gzip -n.
    let hello: [UInt8] = [0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0xe7,
                          0x02, 0x00, 0x20, 0x30, 0x3a, 0x36, 0x06, 0x00, 0x00, 0x00]

    @Test func inflatesAndRejectsDamage() throws {
        #expect(try Gzip.inflate(hello, name: "h.gz", limit: 100) == Array("hello\n".utf8))
        #expect(throws: ImageFileError.self) { _ = try Gzip.inflate(Array(hello.prefix(15)), name: "h.gz", limit: 100) }
        #expect(throws: ImageFileError.self) { _ = try Gzip.inflate(hello, name: "h.gz", limit: 3) }
        var bad = hello
        bad[12] ^= 0xFF
        #expect(throws: ImageFileError.self) { _ = try Gzip.inflate(bad, name: "h.gz", limit: 100) }
    }

    @Test(.enabled(if: access("/usr/share/consolefonts/Lat15-TerminusBold32x16.psf.gz", R_OK) == 0))
    func readsDebiansConsoleFont() throws {
        let psf = try Gzip.read("/usr/share/consolefonts/Lat15-TerminusBold32x16.psf.gz")
        #expect(Array(psf.prefix(4)) == [0x72, 0xb5, 0x4a, 0x86])   // PSF2 magic
    }
}
