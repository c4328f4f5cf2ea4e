/// Bounds-checked access to a FlatBuffers byte buffer (little-endian, as the format requires).
///
/// Every read checks its range against the buffer first and throws `ModelError.truncated` when
/// it does not fit, so a hostile file can never make the reader touch memory outside `bytes`.
/// Positions are `Int`s computed from at most 32-bit offsets, so they cannot overflow.
struct FlatBuffer {
    let bytes: ModelBytes

    var count: Int { bytes.count }

    @inline(__always)
    func check(_ position: Int, _ size: Int, _ what: StaticString) throws(ModelError) {
        guard position >= 0, size >= 0, position <= bytes.count - size else {
            throw .truncated(String(describingStatic: what))
        }
    }

    func u8(_ p: Int, _ what: StaticString = "byte") throws(ModelError) -> UInt8 {
        try check(p, 1, what)
        return bytes[p]
    }

    func u16(_ p: Int, _ what: StaticString = "uint16") throws(ModelError) -> UInt16 {
        try check(p, 2, what)
        return UInt16(bytes[p]) | UInt16(bytes[p + 1]) << 8
    }

    func u32(_ p: Int, _ what: StaticString = "uint32") throws(ModelError) -> UInt32 {
        try check(p, 4, what)
        return UInt32(bytes[p]) | UInt32(bytes[p + 1]) << 8 | UInt32(bytes[p + 2]) << 16
            | UInt32(bytes[p + 3]) << 24
    }

    func u64(_ p: Int, _ what: StaticString = "uint64") throws(ModelError) -> UInt64 {
        let lo = try u32(p, what)
        let hi = try u32(p + 4, what)
        return UInt64(lo) | UInt64(hi) << 32
    }

    func i32(_ p: Int, _ what: StaticString = "int32") throws(ModelError) -> Int32 {
        Int32(bitPattern: try u32(p, what))
    }

    /// Follows a `uoffset_t` stored at `p` to the position it points at.
    func follow(_ p: Int, _ what: StaticString) throws(ModelError) -> Int {
        let target = p + Int(try u32(p, what))
        guard target < bytes.count else { throw .malformed(String(describingStatic: what) + " points past the end") }
        return target
    }

    /// The table whose start is at `position`, with its vtable checked.
    func table(at position: Int, _ what: StaticString) throws(ModelError) -> FlatTable {
        let soffset = Int(try i32(position, what))
        let vtable = position - soffset
        let vtableSize = Int(try u16(vtable, what))
        let inlineSize = Int(try u16(vtable + 2, what))
        guard vtableSize >= 4, vtableSize & 1 == 0, inlineSize >= 4 else {
            throw .malformed(String(describingStatic: what) + " has a bad vtable")
        }
        try check(vtable, vtableSize, what)
        try check(position, inlineSize, what)
        return FlatTable(buffer: self, position: position, vtable: vtable,
                         vtableSize: vtableSize, inlineSize: inlineSize, what: what)
    }

    /// The root table (the `uoffset_t` at byte 0).
    func root() throws(ModelError) -> FlatTable {
        try table(at: try follow(0, "root offset"), "root table")
    }
}

/// A vector's element region: `count` elements of `stride` bytes from `start`, all inside the buffer.
struct FlatVector {
    let start: Int
    let count: Int
}

/// One table of a `FlatBuffer`; field lookups go through its checked vtable.
struct FlatTable {
    let buffer: FlatBuffer
    let position: Int
    let vtable: Int
    let vtableSize: Int
    let inlineSize: Int
    let what: StaticString

    /// Absolute position of field `id`'s inline value, or nil when absent (default value).
    func field(_ id: Int, size: Int) throws(ModelError) -> Int? {
        let slot = 4 + 2 * id
        guard slot + 2 <= vtableSize else { return nil }
        let offset = Int(try buffer.u16(vtable + slot, what))
        if offset == 0 { return nil }
        guard offset + size <= inlineSize else {
            throw .malformed(String(describingStatic: what) + " field lies outside its table")
        }
        return position + offset
    }

    func int32(_ id: Int, default value: Int32 = 0) throws(ModelError) -> Int32 {
        guard let p = try field(id, size: 4) else { return value }
        return try buffer.i32(p, what)
    }

    func uint32(_ id: Int, default value: UInt32 = 0) throws(ModelError) -> UInt32 {
        guard let p = try field(id, size: 4) else { return value }
        return try buffer.u32(p, what)
    }

    func uint64(_ id: Int, default value: UInt64 = 0) throws(ModelError) -> UInt64 {
        guard let p = try field(id, size: 8) else { return value }
        return try buffer.u64(p, what)
    }

    func uint8(_ id: Int, default value: UInt8 = 0) throws(ModelError) -> UInt8 {
        guard let p = try field(id, size: 1) else { return value }
        return try buffer.u8(p, what)
    }

    func int8(_ id: Int, default value: Int8 = 0) throws(ModelError) -> Int8 {
        Int8(bitPattern: try uint8(id, default: UInt8(bitPattern: value)))
    }

    func bool(_ id: Int, default value: Bool = false) throws(ModelError) -> Bool {
        try uint8(id, default: value ? 1 : 0) != 0
    }

    /// A sub-table referenced by field `id`.
    func table(_ id: Int, _ what: StaticString) throws(ModelError) -> FlatTable? {
        guard let p = try field(id, size: 4) else { return nil }
        return try buffer.table(at: try buffer.follow(p, what), what)
    }

    /// A vector of `elementSize`-byte scalars (or offsets) referenced by field `id`.
    func vector(_ id: Int, elementSize: Int, _ what: StaticString) throws(ModelError) -> FlatVector? {
        guard let p = try field(id, size: 4) else { return nil }
        let header = try buffer.follow(p, what)
        let count = Int(try buffer.u32(header, what))
        // count ≤ 2^32 and elementSize ≤ 8, so the product cannot overflow an Int.
        try buffer.check(header + 4, count * elementSize, what)
        return FlatVector(start: header + 4, count: count)
    }

    func int32Vector(_ id: Int, _ what: StaticString) throws(ModelError) -> [Int32] {
        guard let v = try vector(id, elementSize: 4, what) else { return [] }
        var out = [Int32]()
        out.reserveCapacity(v.count)
        for i in 0..<v.count { out.append(try buffer.i32(v.start + 4 * i, what)) }
        return out
    }

    func floatVector(_ id: Int, _ what: StaticString) throws(ModelError) -> [Float] {
        guard let v = try vector(id, elementSize: 4, what) else { return [] }
        var out = [Float]()
        out.reserveCapacity(v.count)
        for i in 0..<v.count { out.append(Float(bitPattern: try buffer.u32(v.start + 4 * i, what))) }
        return out
    }

    func int64Vector(_ id: Int, _ what: StaticString) throws(ModelError) -> [Int64] {
        guard let v = try vector(id, elementSize: 8, what) else { return [] }
        var out = [Int64]()
        out.reserveCapacity(v.count)
        for i in 0..<v.count { out.append(Int64(bitPattern: try buffer.u64(v.start + 8 * i, what))) }
        return out
    }

    /// The tables of a vector of tables.
    func tables(_ id: Int, _ what: StaticString) throws(ModelError) -> [FlatTable] {
        guard let v = try vector(id, elementSize: 4, what) else { return [] }
        var out = [FlatTable]()
        out.reserveCapacity(v.count)
        for i in 0..<v.count {
            out.append(try buffer.table(at: try buffer.follow(v.start + 4 * i, what), what))
        }
        return out
    }

    /// A string field (UTF-8, invalid sequences repaired), or nil when absent.
    func string(_ id: Int, _ what: StaticString) throws(ModelError) -> String? {
        guard let v = try vector(id, elementSize: 1, what) else { return nil }
        return String(decoding: buffer.bytes[v.start..<(v.start + v.count)], as: UTF8.self)
    }
}

extension String {
    init(describingStatic s: StaticString) {
        self = s.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
    }
}
