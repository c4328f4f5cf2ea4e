/// The custom options of a MediaPipe operator: a FlexBuffers map (the schema-less binary format
/// of the FlatBuffers project) of named integers, floats and integer vectors. Only what those
/// operators store is read: inline and indirect integers and floats, typed integer vectors and
/// untyped vectors of integers. Every offset is checked against the bytes; a value of another
/// kind, or bytes that are not a map, are `ModelError.malformed` naming the operator.
package struct CustomOptionsMap {
    package enum Value {
        case int(Int)
        case float(Double)
        case ints([Int])
        case other
    }

    package private(set) var entries: [(key: String, value: Value)] = []
    package let label: String

    package init(_ bytes: [UInt8], label: String) throws(ModelError) {
        self.label = label
        let n = bytes.count
        guard n >= 3 else { throw .malformed(label + " custom options are too short for a map") }
        let rootWidth = Int(bytes[n - 1])
        let packed = bytes[n - 2]
        guard rootWidth == 1 || rootWidth == 2 || rootWidth == 4 || rootWidth == 8, n - 2 - rootWidth >= 0 else {
            throw .malformed(label + " custom options have a bad root width")
        }
        guard packed >> 2 == 9 else { throw .malformed(label + " custom options are not a map") }
        let w = 1 << Int(packed & 3)
        let rootAt = n - 2 - rootWidth
        let map = try Self.back(bytes, from: rootAt, width: rootWidth, label)
        guard map - 3 * w >= 0, map <= n else { throw .malformed(label + " custom options: map out of range") }
        let size = try Self.unsigned(bytes, map - w, w, label)
        let keysWidth = try Self.unsigned(bytes, map - 2 * w, w, label)
        let keys = try Self.back(bytes, from: map - 3 * w, width: w, label)
        guard keysWidth == 1 || keysWidth == 2 || keysWidth == 4 || keysWidth == 8, size <= n,
              map + size * w + size <= n, keys + size * keysWidth <= n else {
            throw .malformed(label + " custom options: map entries out of range")
        }
        for i in 0..<size {
            let keyAt = try Self.back(bytes, from: keys + i * keysWidth, width: keysWidth, label)
            var end = keyAt
            while end < n && bytes[end] != 0 { end += 1 }
            guard end < n else { throw .malformed(label + " custom options: unterminated key") }
            let key = String(decoding: bytes[keyAt..<end], as: UTF8.self)
            let slot = map + i * w
            let type = bytes[map + size * w + i]
            let childWidth = 1 << Int(type & 3)
            let value: Value
            switch type >> 2 {
            case 1: value = .int(try Self.signed(bytes, slot, w, label))
            case 2: value = .int(try Self.unsigned(bytes, slot, w, label))
            case 3: value = .float(try Self.float(bytes, slot, w, label))
            case 6: value = .int(try Self.signed(bytes, try Self.back(bytes, from: slot, width: w, label), childWidth, label))
            case 7: value = .int(try Self.unsigned(bytes, try Self.back(bytes, from: slot, width: w, label), childWidth, label))
            case 8: value = .float(try Self.float(bytes, try Self.back(bytes, from: slot, width: w, label), childWidth, label))
            case 10, 11, 12:
                let v = try Self.back(bytes, from: slot, width: w, label)
                guard v - childWidth >= 0 else { throw .malformed(label + " custom options: vector out of range") }
                let count = try Self.unsigned(bytes, v - childWidth, childWidth, label)
                guard count <= n, v + count * childWidth + (type >> 2 == 10 ? count : 0) <= n else {
                    throw .malformed(label + " custom options: vector out of range")
                }
                var values = [Int]()
                values.reserveCapacity(count)
                for j in 0..<count {
                    let at = v + j * childWidth
                    var elementType = type >> 2 == 12 ? UInt8(2) : UInt8(1)
                    if type >> 2 == 10 { elementType = bytes[v + count * childWidth + j] >> 2 }
                    switch elementType {
                    case 1: values.append(try Self.signed(bytes, at, childWidth, label))
                    case 2: values.append(try Self.unsigned(bytes, at, childWidth, label))
                    default: throw .malformed(label + " custom option '" + key + "' holds a non-integer in its vector")
                    }
                }
                value = .ints(values)
            default: value = .other
            }
            entries.append((key, value))
        }
    }

    private func value(_ key: String) -> Value? {
        for e in entries where e.key == key { return e.value }
        return nil
    }

    package func int(_ key: String) throws(ModelError) -> Int {
        guard case .int(let v)? = value(key) else { throw .malformed(label + " custom options lack the integer '" + key + "'") }
        return v
    }

    package func float(_ key: String) throws(ModelError) -> Float {
        switch value(key) {
        case .float(let v)?: return Float(v)
        case .int(let v)?: return Float(v)
        default: throw .malformed(label + " custom options lack the number '" + key + "'")
        }
    }

    package func ints(_ key: String) throws(ModelError) -> [Int] {
        guard case .ints(let v)? = value(key) else { throw .malformed(label + " custom options lack the integer list '" + key + "'") }
        return v
    }

    // MARK: Reading

    private static func unsigned(_ b: [UInt8], _ at: Int, _ width: Int, _ label: String) throws(ModelError) -> Int {
        guard at >= 0, at + width <= b.count, width == 1 || width == 2 || width == 4 || width == 8 else {
            throw .malformed(label + " custom options: read out of range")
        }
        var v: UInt64 = 0
        for k in 0..<width { v |= UInt64(b[at + k]) << (8 * UInt64(k)) }
        guard v <= UInt64(Int32.max) else { throw .malformed(label + " custom options: value out of range") }
        return Int(v)
    }

    private static func signed(_ b: [UInt8], _ at: Int, _ width: Int, _ label: String) throws(ModelError) -> Int {
        guard at >= 0, at + width <= b.count, width == 1 || width == 2 || width == 4 || width == 8 else {
            throw .malformed(label + " custom options: read out of range")
        }
        var v: UInt64 = 0
        for k in 0..<width { v |= UInt64(b[at + k]) << (8 * UInt64(k)) }
        let shift = UInt64(64 - 8 * width)
        let s = Int64(bitPattern: v << shift) >> Int64(shift)
        guard s >= Int64(Int32.min), s <= Int64(Int32.max) else { throw .malformed(label + " custom options: value out of range") }
        return Int(s)
    }

    private static func float(_ b: [UInt8], _ at: Int, _ width: Int, _ label: String) throws(ModelError) -> Double {
        guard at >= 0, at + width <= b.count, width == 4 || width == 8 else { throw .malformed(label + " custom options: bad float") }
        var v: UInt64 = 0
        for k in 0..<width { v |= UInt64(b[at + k]) << (8 * UInt64(k)) }
        return width == 4 ? Double(Float(bitPattern: UInt32(v))) : Double(bitPattern: v)
    }

    /// The position an offset stored at `from` points back to.
    private static func back(_ b: [UInt8], from: Int, width: Int, _ label: String) throws(ModelError) -> Int {
        let offset = try unsigned(b, from, width, label)
        guard offset <= from else { throw .malformed(label + " custom options: offset out of range") }
        return from - offset
    }
}
