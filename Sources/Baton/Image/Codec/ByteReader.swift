/// Reads the row format's primitives from borrowed bytes; every read is bounds-checked and
/// answers `nil` instead of trapping.
package struct ByteReader {
    let base: UnsafeRawBufferPointer
    /// The offset of the next byte to read.
    package private(set) var offset: Int
    /// The end of the readable range (exclusive).
    let end: Int

    package init(_ base: UnsafeRawBufferPointer, from offset: Int = 0, to end: Int? = nil) {
        self.base = base
        self.offset = offset
        self.end = end ?? base.count
    }

    /// True when every byte has been read.
    package var isAtEnd: Bool { offset == end }

    /// How many bytes are left.
    package var remaining: Int { end - offset }

    package mutating func byte() -> UInt8? {
        guard offset < end else { return nil }
        defer { offset += 1 }
        return base[offset]
    }

    /// An unsigned LEB128 varint; `nil` when truncated or longer than 64 bits.
    package mutating func varint() -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while offset < end {
            let byte = base[offset]
            offset += 1
            if shift == 63 {
                // The tenth byte may only carry the top bit.
                guard byte <= 1 else { return nil }
                return result | (UInt64(byte) << 63)
            }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
        return nil
    }

    /// A varint that must fit a non-negative `Int`.
    package mutating func count() -> Int? {
        guard let value = varint(), value <= UInt64(Int.max) else { return nil }
        return Int(value)
    }

    /// A zigzag-encoded signed integer.
    package mutating func zigzag() -> Int? {
        guard let raw = varint() else { return nil }
        let value = Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
        return Int(value)
    }

    /// Eight little-endian bytes as a double.
    package mutating func double() -> Double? {
        guard remaining >= 8 else { return nil }
        var bits: UInt64 = 0
        for index in 0..<8 {
            bits |= UInt64(base[offset + index]) << (8 * UInt64(index))
        }
        offset += 8
        return Double(bitPattern: bits)
    }

    /// Four little-endian bytes.
    package mutating func uint32() -> UInt32? {
        guard remaining >= 4 else { return nil }
        var value: UInt32 = 0
        for index in 0..<4 {
            value |= UInt32(base[offset + index]) << (8 * UInt32(index))
        }
        offset += 4
        return value
    }

    /// A length-prefixed UTF-8 string; `nil` when truncated or not valid UTF-8.
    package mutating func string() -> String? {
        guard let length = count(), length <= remaining else { return nil }
        let start = offset
        offset += length
        return Self.validUTF8(UnsafeRawBufferPointer(rebasing: base[start..<start + length]))
    }

    /// A length-prefixed string's bytes, checked to be UTF-8, without making a `String`; `nil`
    /// when truncated or not valid UTF-8.
    package mutating func span() -> UnsafeRawBufferPointer? {
        guard let length = count(), length <= remaining else { return nil }
        let bytes = UnsafeRawBufferPointer(rebasing: base[offset..<offset + length])
        guard Self.isValidUTF8(bytes) else { return nil }
        offset += length
        return bytes
    }

    /// Moves past `length` bytes; `false` when fewer remain.
    package mutating func skip(_ length: Int) -> Bool {
        guard length >= 0, length <= remaining else { return false }
        offset += length
        return true
    }

    /// True when `bytes` are valid UTF-8 (ASCII checked first, as most text in rows is).
    static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        isASCII(bytes) || String(validating: bytes.bindMemory(to: UInt8.self), as: UTF8.self) != nil
    }

    /// True when every byte is below 0x80, read eight bytes at a time.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var seen: UInt64 = 0
        var offset = 0
        while count - offset >= 8 {
            seen |= base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < count {
            seen |= UInt64(base.load(fromByteOffset: offset, as: UInt8.self))
            offset += 1
        }
        return seen & 0x8080_8080_8080_8080 == 0
    }

    /// `head`, one ASCII `separator` byte, then `tail` (valid UTF-8), as one string made at once.
    static func joined(_ head: String, separator: UInt8, _ tail: UnsafeRawBufferPointer) -> String {
        var head = head
        return head.withUTF8 { head in
            String(unsafeUninitializedCapacity: head.count + 1 + tail.count) { buffer in
                let base = UnsafeMutableRawBufferPointer(buffer)
                base.copyMemory(from: UnsafeRawBufferPointer(head))
                base[head.count] = separator
                UnsafeMutableRawBufferPointer(rebasing: base[(head.count + 1)...]).copyMemory(from: tail)
                return head.count + 1 + tail.count
            }
        }
    }

    /// The string `bytes` spell in UTF-8, or `nil` when they are not valid UTF-8.
    static func validUTF8(_ bytes: UnsafeRawBufferPointer) -> String? {
        if bytes.isEmpty { return "" }
        let units = bytes.bindMemory(to: UInt8.self)
        // ASCII is valid UTF-8 as it is, and most text in rows is ASCII: decode without validating.
        if isASCII(bytes) {
            // Text that fits a small string is made in place (`String(decoding:)` validates the
            // bytes once more first).
            if bytes.count <= 15 {
                return String(unsafeUninitializedCapacity: bytes.count) { buffer in
                    UnsafeMutableRawBufferPointer(buffer).copyMemory(from: bytes)
                    return bytes.count
                }
            }
            return String(decoding: units, as: UTF8.self)
        }
        return String(validating: units, as: UTF8.self)
    }
}
