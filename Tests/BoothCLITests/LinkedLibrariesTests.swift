import Foundation
import Testing

/// The kiosk binary links no Foundation: `Kiosk`, `Hardware` and `booth` use `Posix` and at most
/// FoundationEssentials (libFoundation, ICU and FoundationInternationalization cost 6–7 MiB of
/// the kiosk's resident memory). One `import Foundation` in those modules would bring them back.
struct LinkedLibrariesTests {
    /// The DT_NEEDED names of a 64-bit little-endian ELF file (its dynamic section, read directly).
    static func neededLibraries(_ path: String) throws -> [String] {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        func u16(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 }
        func u32(_ o: Int) -> Int { u16(o) | u16(o + 2) << 16 }
        func u64(_ o: Int) -> Int { u32(o) | u32(o + 4) << 32 }
        guard bytes.count > 64, bytes[0..<4] == [0x7F, 0x45, 0x4C, 0x46], bytes[4] == 2, bytes[5] == 1 else {
            throw ELFError.notELF64(path)
        }
        let sectionTable = u64(0x28), entrySize = u16(0x3A), count = u16(0x3C)
        func section(_ i: Int) -> (type: Int, offset: Int, size: Int, link: Int) {
            let s = sectionTable + i * entrySize
            return (u32(s + 4), u64(s + 0x18), u64(s + 0x20), u32(s + 0x28))
        }
        guard let dynamic = (0..<count).map(section).first(where: { $0.type == 6 }) else { return [] }   // SHT_DYNAMIC
        let strings = section(dynamic.link).offset
        var names: [String] = []
        for entry in stride(from: dynamic.offset, to: dynamic.offset + dynamic.size, by: 16) {
            let tag = u64(entry)
            if tag == 0 { break }   // DT_NULL
            if tag == 1 {           // DT_NEEDED
                let start = strings + u64(entry + 8)
                let end = bytes[start...].firstIndex(of: 0) ?? bytes.count
                names.append(String(decoding: bytes[start..<end], as: UTF8.self))
            }
        }
        return names
    }

    enum ELFError: Error { case notELF64(String) }

    @Test func boothNeedsNoFoundationICUOrDispatch() throws {
        #if os(Linux)
        let booth = try #require(BoothCLI.executable, "\(BoothCLI.CLIError.notBuilt)")
        let needed = try Self.neededLibraries(booth)
        #expect(needed.contains("libswiftCore.so"), "\(needed)")   // the reader finds the dynamic section
        for library in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so", "libswiftDispatch.so"] {
            #expect(!needed.contains(library), "booth links \(library): an `import Foundation` in Kiosk, Hardware or booth? (\(needed))")
        }
        #endif
    }
}
