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
            right.withContiguousStorageIfAvailable { b in a.elementsEqual(b) }
        }
        if let fast, let equal = fast { return equal }
        return left.elementsEqual(right)
    }

    package func hash(into hasher: inout Hasher) {
        let done: Void? = string.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if done == nil {
            Array(string.utf8).withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    package static func < (lhs: OracleText, rhs: OracleText) -> Bool {
        let fast: Bool?? = lhs.string.utf8.withContiguousStorageIfAvailable { a in
            rhs.string.utf8.withContiguousStorageIfAvailable { b in a.lexicographicallyPrecedes(b) }
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
