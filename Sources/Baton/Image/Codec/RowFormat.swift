#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The image's binary row format, version ``ImageSchema/rowFormatVersion``.
///
/// A record's row (table `records`, column `row`):
///
///     flags        1 byte   bit 0 deleted, bit 1 entity; other bits zero
///     type         varint   name id of the record's type
///     cell count   varint
///     cells        cell × count, sorted by storage key (UTF-8 bytes)
///     checksum     4 bytes  CRC-32C, little-endian
///
/// A cell is its storage key's name id (varint) followed by a *cell value*. A query-root field's
/// row (table `root`, column `cell`) is one cell value followed by the checksum: its storage key
/// is the row's key.
///
/// A cell value is a tag byte, the tag's payload, then the field error when the tag's bit 7 is set
/// (message, path, extensions: two strings and a varint that is 0 when the error has no
/// extensions, else the length + 1 of their UTF-8 text that follows). When bit 6 is set as well
/// (format 4), a count (varint, at least 1) of further errors follows the first, then each of them
/// spelled the same way; bit 6 without bit 7 is damage. When bit 5 is set beside bit 7 (format 5),
/// each error is followed by its element indices (``FieldError/elementIndices``): a count, then
/// each index, varints; without it they are the numbers that end the error's path, and the
/// encoder sets it only when some error's differ (an error explaining a null list element whose
/// failed field lay deeper). Bits 4 and 5 without bit 7 are damage. Tags (bits 0-3): 0 null,
/// 1 false, 2 true, 3 int (zigzag varint), 4 double (8 bytes, little-endian IEEE 754 bits),
/// 5 string, 6 link (the target type's name id as a varint, 0 when unknown, then the key as a
/// string), 7 links (a count, then per element a varint that is 0 for null or the
/// type's name id + 1, followed for non-null elements by the key as a string), 8 list (a count,
/// then nested values: tag byte without the error bit, then payload), 9 object (canonical JSON
/// text as a string), 10 entity link (the target type's name id, never 0, then the key's bytes
/// after `Type:` as a string: the key is the type's name, a colon and those bytes), 11 entity
/// links (a count, then per element a varint `m`: 0 for null, else `m − 1 = 2 × t + e` with `t`
/// the type's name id (0 unknown) and `e` 1 when the string that follows is the key's bytes after
/// `Type:` (then `t` is never 0), 0 when it is the whole key), 12 exact number (format 6: a custom
/// scalar's number no `Int` or `Double` holds exactly, its canonical text as a string,
/// ``Value/decimal(_:)``). A string is its UTF-8 length as a varint, then its UTF-8. Tags 10 and 11 are format 3's: format 2 spelled every link's key in
/// full, and its rows read the same in format 3. Bit 6 is format 4's: a cell of format 3 held one
/// error at most, and its rows read the same in format 4. Bit 5 is format 5's, and format 4's rows
/// read the same in format 5. Tag 12 and bit 4 (beside bit 7: each error's other members,
/// ``FieldError/otherMembers``, follow its extensions, spelled like them) are format 6's, and
/// format 5's rows read the same in format 6.
///
/// The checksum is the CRC-32C of the row's key (UTF-8) followed by every byte of the row
/// before the checksum, so a row that lands under another key is as much a miss as a damaged one.
///
/// The entity bit is set when the key reads as `Type:id` for the record's own type: it starts
/// with the type name and a colon and not with `client:`. It is a hint for tools; no rule reads it.
///
/// The ids a row holds resolve through the `names` table, whose rows carry their own checksum
/// (``TableChecksum/name(id:_:)``: CRC-32C of the id as a varint, then the name's UTF-8); a name
/// that does not verify is never loaded, and a row or root cell that uses it is a miss. A fetch
/// time's row carries ``TableChecksum/fetch(operation:time:)``. `docs/design.md`, "The image's
/// format, byte by byte", describes every table and byte.
package enum RowFormat {
    static let deletedFlag: UInt8 = 0x01
    static let entityFlag: UInt8 = 0x02
    static let knownFlags: UInt8 = deletedFlag | entityFlag

    /// Bit 7 of a tag byte: a field error follows the payload.
    static let errorBit: UInt8 = 0x80
    /// Bit 6 of a cell's tag byte, only beside bit 7: a count of further errors follows the first.
    static let moreErrorsBit: UInt8 = 0x40
    /// Bit 5 of a cell's tag byte, only beside bit 7 (format 5): each error is followed by its
    /// element indices (a count, then each index), where without it they are the numbers that end
    /// the error's path.
    static let elementsBit: UInt8 = 0x20
    /// Bit 4 of a cell's tag byte, only beside bit 7 (format 6): each error's other members
    /// (``FieldError/otherMembers``) follow its extensions, spelled like them.
    static let membersBit: UInt8 = 0x10
    /// The error bits: what a cell's tag byte holds besides its kind.
    static let errorBits: UInt8 = errorBit | moreErrorsBit | elementsBit | membersBit
    /// The bits a tag byte may use besides the error bit.
    static let kindMask: UInt8 = 0x0F

    /// Nesting deeper than this in a scalar list is treated as damage (a miss), not recursed into:
    /// the depth a response may nest to (``JSONScanner``'s 512), so every list ingest accepts
    /// reads back. It was 128 until 2026-12-06, and a custom scalar's arrays nested deeper were
    /// written, then read as damage: the value was lost at the next launch.
    static let maxDepth = 512
    /// The limit before 2026-12-06, for the mutant that puts it back.
    static let oldMaxDepth = 128

    enum Tag: UInt8 {
        case null = 0
        case `false` = 1
        case `true` = 2
        case int = 3
        case double = 4
        case string = 5
        case link = 6
        case links = 7
        case list = 8
        case object = 9
        /// A link whose key is `Type:id` for the type it names: the type id, then the id alone.
        case entityLink = 10
        /// A list of links, each spelled in full or as an entity link's id alone (format 3).
        case entityLinks = 11
        /// A number no `Int` or `Double` holds exactly, its canonical text as a string (format 6).
        case decimal = 12
    }

    /// How many of `key`'s UTF-8 bytes a link can leave out for a target of type `typename`: the
    /// name and its colon when the key starts with them (`Character:1` for `Character`), else 0.
    static func entityPrefixCount(key: String, typename: String?) -> Int {
        guard let typename, !typename.isEmpty, startsWithType(key, typename) else { return 0 }
        return typename.utf8.count + 1
    }

    /// True when `key` names an entity of type `typename` (`Type:id`).
    package static func isEntity(key: String, typename: String) -> Bool {
        guard !typename.isEmpty, !startsWithClient(key) else { return false }
        return startsWithType(key, typename)
    }

    /// True when `key`'s bytes start with `typename`'s (not empty) and a colon, with more after.
    @inline(__always)
    private static func startsWithType(_ key: String, _ typename: String) -> Bool {
        let fast = key.utf8.withContiguousStorageIfAvailable { keyBytes in
            typename.utf8.withContiguousStorageIfAvailable { prefix -> Bool in
                guard keyBytes.count > prefix.count, keyBytes[prefix.count] == UInt8(ascii: ":"),
                      let k = keyBytes.baseAddress, let p = prefix.baseAddress
                else { return false }
                return memcmp(k, p, prefix.count) == 0
            }
        }
        if let fast, let result = fast { return result }
        let keyBytes = key.utf8
        let prefix = typename.utf8
        guard keyBytes.count > prefix.count, keyBytes.starts(with: prefix) else { return false }
        return keyBytes[keyBytes.index(keyBytes.startIndex, offsetBy: prefix.count)] == UInt8(ascii: ":")
    }

    /// True when `key` starts with `client:`.
    @inline(__always)
    private static func startsWithClient(_ key: String) -> Bool {
        let fast = key.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard bytes.count >= 7, let base = bytes.baseAddress else { return false }
            return memcmp(base, "client:", 7) == 0
        }
        return fast ?? key.utf8.starts(with: "client:".utf8)
    }
}
