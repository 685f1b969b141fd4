/// The row format's unsigned varint: seven bits a byte, low groups first, the high bit set on
/// every byte but the last, at most ten bytes.
package enum LEB128 {
    /// The most bytes one varint takes.
    package static let maxCount = 10

    /// Writes `value` at `base`, which has room for ``maxCount`` bytes; answers how many it wrote.
    @inline(__always)
    package static func write(_ value: UInt64, to base: UnsafeMutablePointer<UInt8>) -> Int {
        var value = value
        var count = 0
        while value >= 0x80 {
            base[count] = UInt8(truncatingIfNeeded: value) | 0x80
            value >>= 7
            count += 1
        }
        base[count] = UInt8(value)
        return count + 1
    }
}
