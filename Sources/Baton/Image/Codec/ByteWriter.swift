/// Appends the row format's primitives to a byte buffer: bytes, varints, doubles, strings.
package struct ByteWriter {
    /// The bytes written so far.
    package var bytes: [UInt8]

    package init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Forgets the bytes written, keeping the storage.
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    package var count: Int { bytes.count }

    package mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    /// An unsigned LEB128 varint: seven bits a byte, low groups first, at most ten bytes.
    package mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// A non-negative `Int` as a varint.
    package mutating func varint(_ value: Int) {
        precondition(value >= 0, "varints are unsigned")
        varint(UInt64(value))
    }

    /// A signed integer, zigzag-encoded so small magnitudes stay short.
    package mutating func zigzag(_ value: Int) {
        let v = Int64(value)
        varint(UInt64(bitPattern: (v << 1) ^ (v >> 63)))
    }

    /// A double as its eight IEEE 754 bytes, little-endian.
    package mutating func double(_ value: Double) {
        var bits = value.bitPattern.littleEndian
        withUnsafeBytes(of: &bits) { bytes.append(contentsOf: $0) }
    }

    /// Four bytes, little-endian.
    package mutating func uint32(_ value: UInt32) {
        var le = value.littleEndian
        withUnsafeBytes(of: &le) { bytes.append(contentsOf: $0) }
    }

    /// A string: its UTF-8 length as a varint, then its UTF-8.
    package mutating func string(_ value: String) {
        string(value, dropping: 0)
    }

    /// A string from `value`'s UTF-8 bytes after the first `dropping`: the rest's length as a
    /// varint, then those bytes.
    ///
    /// A native string's bytes are copied as one block (the generic append of a `UTF8View`
    /// copies byte by byte, a tenth of the writer's time per row).
    package mutating func string(_ value: String, dropping prefixCount: Int) {
        // A native string lends its bytes without a copy of the string (or a retain of it).
        let written: Bool? = value.utf8.withContiguousStorageIfAvailable { utf8 in
            varint(utf8.count - prefixCount)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[prefixCount...]))
            return true
        }
        if written != nil { return }
        var value = value
        value.withUTF8 { utf8 in
            varint(utf8.count - prefixCount)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[prefixCount...]))
        }
    }

    /// Raw bytes as they are.
    package mutating func raw(_ buffer: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: buffer)
    }
}
