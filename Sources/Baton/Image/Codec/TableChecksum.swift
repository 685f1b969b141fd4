/// The checksums of the image's small tables, `names` and `fetches` (row format 2).
///
/// A row's checksum covers its key and bytes but not the names its ids refer to, so each name
/// carries a checksum of its own, over its id and its text: a name whose bytes or id were
/// damaged, or two names whose texts were swapped, no longer verify and are never loaded. A
/// fetch time carries one over its operation and its time: damage is an unknown age, never a
/// wrong one. Both are CRC-32C (``CRC32C``), stored as non-negative integers.
package enum TableChecksum {
    /// The checksum of name `id` spelled by the UTF-8 `bytes`: the CRC-32C of the id as an
    /// unsigned LEB128 varint followed by the bytes.
    ///
    /// The varint is written on the stack, not into an array per name: opening verifies every
    /// name of the file.
    package static func name(id: Int, utf8 bytes: UnsafeRawBufferPointer) -> UInt32 {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: LEB128.maxCount) { varint in
            let count = LEB128.write(UInt64(bitPattern: Int64(id)), to: varint.baseAddress!)
            let crc = CRC32C.update(CRC32C.initial, with: UnsafeRawBufferPointer(start: varint.baseAddress, count: count))
            return CRC32C.finalize(CRC32C.update(crc, with: bytes))
        }
    }

    /// The checksum of name `id` spelled `name`.
    package static func name(id: Int, _ name: String) -> UInt32 {
        var name = name
        return name.withUTF8 { self.name(id: id, utf8: UnsafeRawBufferPointer($0)) }
    }

    /// The checksum of `operation`'s fetch `time`: the CRC-32C of the operation's UTF-8 followed by
    /// the 8 little-endian bytes of the time's IEEE 754 bits.
    ///
    /// Write ``storedTime(_:)`` of a time, not the time itself: SQLite gives negative zero back as
    /// zero.
    package static func fetch(operation: String, time: Double) -> UInt32 {
        let crc = CRC32C.update(CRC32C.initial, with: operation)
        return CRC32C.finalize(withUnsafeBytes(of: time.bitPattern.littleEndian) { CRC32C.update(crc, with: $0) })
    }

    /// The time as the image stores it: negative zero as zero (SQLite keeps a whole `REAL` as
    /// an integer, and negative zero comes back as zero); every other time unchanged.
    package static func storedTime(_ time: Double) -> Double {
        time == 0 ? 0 : time
    }

    /// A checksum as the image stores it, in an `INTEGER` column.
    package static func stored(_ crc: UInt32) -> Int {
        Int(crc)
    }
}
