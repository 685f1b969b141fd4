/// Appends the row format's primitives (bytes, varints, doubles, strings) to a buffer it owns:
/// the bytes of the row being encoded, grown as needed and kept from row to row.
///
/// Writing a byte into an array checks that the array is unique and has room, through the
/// runtime, every time: a tenth of a drain's instructions went to appending the row's bytes
/// (issue 10). Here a write checks the room once and stores. Not copyable, so that its storage
/// has one owner and no reference count (a class's was retained around every write).
package struct RowBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes the row has so far.
    package private(set) var count = 0

    package init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The row's bytes, valid until the next write.
    package var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base, count: count)
    }

    /// Forgets the bytes written, keeping the storage.
    package mutating func removeAll() {
        count = 0
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private mutating func grow(to needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    @inline(__always)
    package mutating func byte(_ value: UInt8) {
        reserve(1)
        base[count] = value
        count += 1
    }

    /// An unsigned LEB128 varint (``LEB128``).
    @inline(__always)
    package mutating func varint(_ value: UInt64) {
        reserve(LEB128.maxCount)
        count += LEB128.write(value, to: base + count)
    }

    /// A non-negative `Int` as a varint.
    @inline(__always)
    package mutating func varint(_ value: Int) {
        precondition(value >= 0, "varints are unsigned")
        varint(UInt64(value))
    }

    /// Bytes as they are.
    @inline(__always)
    package mutating func raw(_ buffer: UnsafeRawBufferPointer) {
        guard let source = buffer.baseAddress, !buffer.isEmpty else { return }
        reserve(buffer.count)
        UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: buffer.count)
        count += buffer.count
    }

    /// Four bytes, little-endian.
    package mutating func uint32(_ value: UInt32) {
        reserve(4)
        var value = value
        for index in 0..<4 {
            base[count + index] = UInt8(truncatingIfNeeded: value)
            value >>= 8
        }
        count += 4
    }

    /// A double as its eight IEEE 754 bytes, little-endian.
    package mutating func double(_ value: Double) {
        reserve(8)
        var bits = value.bitPattern
        for index in 0..<8 {
            base[count + index] = UInt8(truncatingIfNeeded: bits)
            bits >>= 8
        }
        count += 8
    }

    /// A signed integer, zigzag-encoded so small magnitudes stay short.
    @inline(__always)
    package mutating func zigzag(_ value: Int) {
        let v = Int64(value)
        varint(UInt64(bitPattern: (v << 1) ^ (v >> 63)))
    }

    /// A string from `value`'s UTF-8 bytes after the first `prefixCount`: the rest's length as a
    /// varint, then those bytes.
    ///
    /// A native string lends its bytes without a copy of the string (or a retain of it).
    @inline(__always)
    package mutating func string(_ value: String, dropping prefixCount: Int = 0) {
        let written: Bool? = value.utf8.withContiguousStorageIfAvailable { utf8 in
            varint(utf8.count - prefixCount)
            raw(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[prefixCount...]))
            return true
        }
        if written != nil { return }
        var value = value
        value.withUTF8 { utf8 in
            varint(utf8.count - prefixCount)
            raw(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[prefixCount...]))
        }
    }

    /// `value`'s UTF-8 bytes alone, no length.
    package mutating func utf8(_ value: String) {
        var value = value
        value.withUTF8 { raw(UnsafeRawBufferPointer($0)) }
    }

    /// A copy of the row's bytes.
    package borrowing func array() -> [UInt8] {
        Array(bytes)
    }
}
