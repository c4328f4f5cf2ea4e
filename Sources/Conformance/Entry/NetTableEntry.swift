/// `booth_conformance_net` with a calibration table: loads model `name` (`bytes`) on the float
/// (`path` 0) or integer (`path` 1) path with `table` (`CalibrationTable` text, e.g. a shipped
/// table with per-layer widths) and runs it `iterations` times, for instruction counting of a
/// mixed-precision program (`scripts/arm/bench`'s `--net … TABLE`). Returns the output checksum's
/// low 31 bits, or -1 after printing why the model could not run.
@_cdecl("booth_conformance_net_table")
public func boothConformanceNetTable(_ name: UnsafePointer<UInt8>, _ nameCount: Int, _ bytes: UnsafePointer<UInt8>,
                                     _ count: Int, _ path: Int32, _ iterations: Int,
                                     _ table: UnsafePointer<UInt8>, _ tableCount: Int) -> Int32 {
    let file = String(decoding: UnsafeBufferPointer(start: name, count: nameCount), as: UTF8.self)
    do throws(NetworkBench.Failure) {
        let h = try NetworkBench.run(file: file, bytes: Array(UnsafeBufferPointer(start: bytes, count: count)),
                                     integer: path != 0, iterations: iterations,
                                     table: Array(UnsafeBufferPointer(start: table, count: tableCount)))
        return Int32(truncatingIfNeeded: h & 0x7FFF_FFFF)
    } catch {
        print("net: \(error.description)")
        return -1
    }
}
