import CBatonCRC

/// CRC-32C (Castagnoli, reflected polynomial `0x82F63B78`), table-driven, slicing by eight bytes.
///
/// `CRC32C.checksum("123456789".utf8) == 0xE3069283`. To checksum several pieces as one, start
/// from ``initial``, ``update(_:with:)`` with each piece, then ``finalize(_:)``.
package enum CRC32C {
    /// The running state before any byte.
    package static let initial: UInt32 = 0xFFFF_FFFF

    /// Eight tables of 256 entries: table `k` advances the CRC of a byte followed by `k` zero bytes.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 {
                crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1
            }
            tables[byte] = crc
        }
        for byte in 0..<256 {
            var crc = tables[byte]
            for slice in 1..<8 {
                crc = tables[Int(crc & 0xFF)] ^ (crc >> 8)
                tables[slice * 256 + byte] = crc
            }
        }
        return tables
    }()

    /// Whether the processor's CRC-32C instruction is at hand (SSE 4.2, ARMv8's CRC extension):
    /// rows are checked on every read, and the instruction takes a fraction of the tables' time.
    private static let hasInstruction = baton_crc32c_available() != 0

    /// Feeds `bytes` into the running state `crc`.
    package static func update(_ crc: UInt32, with bytes: UnsafeRawBufferPointer) -> UInt32 {
        if hasInstruction, let base = bytes.baseAddress {
            return baton_crc32c_update(crc, base, bytes.count)
        }
        return updateByTables(crc, with: bytes)
    }

    /// ``update(_:with:)`` by the tables alone (where the instruction is missing, and for tests
    /// that hold the two to the same answers).
    package static func updateByTables(_ crc: UInt32, with bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = crc
        var index = 0
        let count = bytes.count
        tables.withUnsafeBufferPointer { t in
            while count - index >= 8 {
                let low = crc ^ (UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8
                    | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24)
                crc = t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
                    ^ t[3 * 256 + Int(bytes[index + 4])] ^ t[2 * 256 + Int(bytes[index + 5])]
                    ^ t[1 * 256 + Int(bytes[index + 6])] ^ t[Int(bytes[index + 7])]
                index += 8
            }
            while index < count {
                crc = t[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
                index += 1
            }
        }
        return crc
    }

    /// Feeds the UTF-8 of `text` into the running state `crc`.
    package static func update(_ crc: UInt32, with text: String) -> UInt32 {
        var text = text
        return text.withUTF8 { update(crc, with: UnsafeRawBufferPointer($0)) }
    }

    /// The checksum of a finished running state.
    package static func finalize(_ crc: UInt32) -> UInt32 {
        ~crc
    }

    /// The checksum of `bytes`.
    package static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        let array = Array(bytes)
        return array.withUnsafeBytes { finalize(update(initial, with: $0)) }
    }
}
