/// CRC-32C (Castagnoli), reflected, polynomial 0x82F63B78, initial and final value 0xFFFFFFFF:
/// the checksum of the image's rows, names and fetch times, computed the oracle's own way.
package enum OracleCRC32C {
    private static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 {
            crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1
        }
        return crc
    }

    /// The checksum of the concatenation of `parts`.
    package static func checksum(_ parts: [UInt8]...) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for part in parts {
            for byte in part {
                crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
            }
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// `value` as an unsigned LEB128 varint: seven bits a byte, low groups first.
    package static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var out: [UInt8] = []
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
        return out
    }

    /// The eight bytes of a double's IEEE 754 bits, least significant first.
    package static func littleEndian(_ value: Double) -> [UInt8] {
        let bits = value.bitPattern
        return (0..<8).map { UInt8(truncatingIfNeeded: bits >> (8 * UInt64($0))) }
    }

    /// The checksum a `names` row must carry: over the id as a varint, then the name's UTF-8.
    package static func nameChecksum(id: Int, name: String) -> UInt32 {
        checksum(varint(UInt64(max(id, 0))), Array(name.utf8))
    }

    /// The checksum a `fetches` row must carry: over the operation identity's UTF-8, then the
    /// time's eight little-endian bytes.
    package static func fetchChecksum(operation: String, time: Double) -> UInt32 {
        checksum(Array(operation.utf8), littleEndian(time))
    }
}
