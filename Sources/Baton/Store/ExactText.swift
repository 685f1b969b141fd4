#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Text compared and hashed by its UTF-8 bytes.
///
/// Swift's `==` on `String` compares by Unicode canonical equivalence: `"é"` and `"e\u{301}"` are
/// equal to it. Keys are not: two entities whose ids differ only that way are two records, two
/// arguments that differ only that way are two fields, and SQLite compares the bytes. Every
/// dictionary or set of keys, storage keys or names goes through this wrapper (or a type whose
/// equality is defined the same way), never through `String` itself.
package struct ExactText: Hashable, Sendable, Comparable {
    package let string: String

    @inline(__always)
    package init(_ string: String) {
        self.string = string
    }

    @inline(__always)
    package static func == (lhs: ExactText, rhs: ExactText) -> Bool {
        bytesEqual(lhs.string, rhs.string)
    }

    @inline(__always)
    package func hash(into hasher: inout Hasher) {
        Self.hashBytes(string, into: &hasher)
    }

    /// The bytes' hash in a set or dictionary (``TextHash``): no `Hasher` run per probe.
    @inline(__always)
    package func _rawHashValue(seed: Int) -> Int {
        TextHash.raw(string, seed: seed)
    }

    package static func < (lhs: ExactText, rhs: ExactText) -> Bool {
        bytesLess(lhs.string, rhs.string)
    }

    /// True when the two strings are the same bytes.
    @inline(__always)
    package static func bytesEqual(_ a: String, _ b: String) -> Bool {
        // One string's bits (the same storage, or the same small string) are the same bytes:
        // most keys fit a small string, and interning a link target met before compared its
        // bytes through `memcmp` (issue 10). Other bits may still spell the same bytes.
        if unsafeBitCast(a, to: (UInt64, UInt64).self) == unsafeBitCast(b, to: (UInt64, UInt64).self) { return true }
        let x = a.utf8, y = b.utf8
        guard x.count == y.count else { return false }
        if let equal = x.withContiguousStorageIfAvailable({ xs in
            y.withContiguousStorageIfAvailable { ys in
                guard let a = xs.baseAddress, let b = ys.baseAddress else { return true }  // both empty
                return memcmp(a, b, xs.count) == 0
            }
        }), let equal {
            return equal
        }
        return x.elementsEqual(y)
    }

    /// Hashes the string's bytes (and their count, so that concatenations do not collide).
    @inline(__always)
    package static func hashBytes(_ string: String, into hasher: inout Hasher) {
        let bytes = string.utf8
        if bytes.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer($0)) }) == nil {
            for byte in bytes { hasher.combine(byte) }
        }
        hasher.combine(bytes.count)
    }

    /// Orders strings by their bytes, the same in every process and locale, as SQLite does.
    @inline(__always)
    package static func bytesLess(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
