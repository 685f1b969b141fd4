#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A string the oracle compares, hashes and orders by its UTF-8 bytes.
///
/// Swift's `==` on `String` treats canonically equivalent spellings as equal (`é` precomposed and
/// `e` + combining accent), and the world generates both. Record keys, storage keys, operation
/// identities and string values are different data when their bytes differ, so the oracle keeps
/// them in this wrapper and never compares them as `String`.
package struct OracleText: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The text; its UTF-8 bytes are what count.
    package let string: String

    package init(_ string: String) {
        self.string = string
    }

    package init(stringLiteral value: String) {
        self.string = value
    }

    /// Text from UTF-8 bytes (already known to be valid UTF-8).
    package init(utf8 bytes: some Collection<UInt8>) {
        self.string = String(decoding: bytes, as: UTF8.self)
    }

    package var description: String { string }

    /// The UTF-8 bytes.
    package var bytes: [UInt8] { Array(string.utf8) }

    package static func == (lhs: OracleText, rhs: OracleText) -> Bool {
        let left = lhs.string.utf8
        let right = rhs.string.utf8
        guard left.count == right.count else { return false }
        // Native strings hold their bytes contiguously: compare the buffers rather than walking
        // two UTF-8 views index by index (the oracle's dictionaries compare keys constantly).
        let fast: Bool?? = left.withContiguousStorageIfAvailable { a in
            right.withContiguousStorageIfAvailable { b in
                guard let x = a.baseAddress, let y = b.baseAddress else { return true }  // both empty
                return memcmp(x, y, a.count) == 0
            }
        }
        if let fast, let equal = fast { return equal }
        return left.elementsEqual(right)
    }

    /// The bytes' hash in a set or dictionary: the model's own 64-bit mix of the bytes (8 at a
    /// time) and their count, with the table's seed, instead of a full `Hasher` run per probe
    /// (the model's dictionaries are keyed by text and probed for every record and cell).
    @inline(__always)
    package func _rawHashValue(seed: Int) -> Int {
        Int(bitPattern: UInt(truncatingIfNeeded: Self.mix(string, seed: UInt64(bitPattern: Int64(seed)))))
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(Self.mix(string, seed: 0))
    }

    /// A 64-bit hash of `text`'s UTF-8 bytes and their count, mixed with `seed`.
    @inline(__always)
    static func mix(_ text: String, seed: UInt64) -> UInt64 {
        if let fast = text.utf8.withContiguousStorageIfAvailable({ mixBytes(UnsafeRawBufferPointer($0), seed: seed) }) {
            return fast
        }
        return Array(text.utf8).withUnsafeBytes { mixBytes($0, seed: seed) }
    }

    private static func mixBytes(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        let count = bytes.count
        var h = seed ^ (UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15)
        var i = 0
        while i + 8 <= count {
            let word = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            h = (h ^ word) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 29
            i += 8
        }
        if i < count {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < count {
                tail |= UInt64(bytes[i]) << shift
                shift += 8
                i += 1
            }
            h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
        }
        h = (h ^ (h >> 30)) &* 0xBF58_476D_1CE4_E5B9
        h = (h ^ (h >> 27)) &* 0x94D0_49BB_1331_11EB
        return h ^ (h >> 31)
    }

    package static func < (lhs: OracleText, rhs: OracleText) -> Bool {
        let fast: Bool?? = lhs.string.utf8.withContiguousStorageIfAvailable { a in
            rhs.string.utf8.withContiguousStorageIfAvailable { b in
                let common = min(a.count, b.count)
                if common > 0, let x = a.baseAddress, let y = b.baseAddress {
                    let order = memcmp(x, y, common)
                    if order != 0 { return order < 0 }
                }
                return a.count < b.count
            }
        }
        if let fast, let precedes = fast { return precedes }
        return lhs.string.utf8.lexicographicallyPrecedes(rhs.string.utf8)
    }

    /// True when the text starts with the bytes of `prefix`.
    package func hasPrefix(_ prefix: String) -> Bool {
        string.utf8.starts(with: prefix.utf8)
    }

    /// The text followed by `suffix`, byte for byte.
    package func appending(_ suffix: String) -> OracleText {
        OracleText(string + suffix)
    }
}
