import CZlib

/// Reads gzip-compressed files (Debian's console fonts are `.psf.gz`) with zlib; a plain file is
/// returned as is.
public enum Gzip {
    public static func read(_ path: String, limit: Int = 16 << 20) throws(ImageFileError) -> [UInt8] {
        let raw = try FileIO.read(path, limit: limit)
        guard raw.count >= 2, raw[0] == 0x1F, raw[1] == 0x8B else { return raw }
        return try inflate(raw, name: path, limit: limit)
    }

    /// Inflates a gzip stream, refusing output larger than `limit` (a hostile file cannot balloon).
    public static func inflate(_ input: [UInt8], name: String, limit: Int) throws(ImageFileError) -> [UInt8] {
        var stream = z_stream()
        // 15 + 16: a gzip header and trailer around the deflate data.
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corrupt(path: name, reason: "zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var input = input
        let status: Int32 = input.withUnsafeMutableBufferPointer { inp in
            stream.next_in = inp.baseAddress
            stream.avail_in = UInt32(inp.count)
            while true {
                let r: Int32 = chunk.withUnsafeMutableBufferPointer { c in
                    stream.next_out = c.baseAddress
                    stream.avail_out = UInt32(c.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                out += chunk.prefix(produced)
                if out.count > limit { return Z_MEM_ERROR }
                if r == Z_STREAM_END { return Z_STREAM_END }
                if r != Z_OK { return r }
                if produced == 0 && stream.avail_in == 0 { return Z_BUF_ERROR }
            }
        }
        guard status == Z_STREAM_END else {
            throw .corrupt(path: name, reason: status == Z_MEM_ERROR ? "larger than \(limit) bytes uncompressed" : "bad gzip data (zlib \(status))")
        }
        return out
    }
}
