import ImageCore

/// Writes a frame's sequence number into its pixels (first and last 8 bytes of plane 0) so a
/// consumer can tell whether the slot was overwritten while it held a lease.
enum RingStamp {
    static func write(_ sequence: UInt64, into image: Image) {
        let p = image.luma
        p.base.storeBytes(of: sequence, as: UInt64.self)
        let lastRow = UnsafeMutableRawPointer(p.row(p.height - 1))
        lastRow.storeBytes(of: ~sequence, toByteOffset: p.rowBytes - 8, as: UInt64.self)
    }

    /// Whether both stamps in `image` equal `sequence`.
    static func matches(_ sequence: UInt64, in image: Image) -> Bool {
        let p = image.luma
        let first = p.base.loadUnaligned(as: UInt64.self)
        let lastRow = UnsafeMutableRawPointer(p.row(p.height - 1))
        let last = lastRow.loadUnaligned(fromByteOffset: p.rowBytes - 8, as: UInt64.self)
        return first == sequence && last == ~sequence
    }
}
