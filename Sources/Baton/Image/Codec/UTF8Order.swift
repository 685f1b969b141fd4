#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Orders strings by their UTF-8 bytes (SQLite's `BINARY` collation), the same in every process.
///
/// Agrees with `CanonicalJSON.utf8Less`; compares contiguous UTF-8 with `memcmp` when it can.
@inline(__always)
func utf8Precedes(_ a: String, _ b: String) -> Bool {
    let fast = a.utf8.withContiguousStorageIfAvailable { left in
        b.utf8.withContiguousStorageIfAvailable { right -> Bool in
            let common = min(left.count, right.count)
            if common > 0, let l = left.baseAddress, let r = right.baseAddress {
                let order = memcmp(l, r, common)
                if order != 0 { return order < 0 }
            }
            return left.count < right.count
        }
    }
    if let fast, let result = fast { return result }
    return a.utf8.lexicographicallyPrecedes(b.utf8)
}

/// True when `a` and `b` have the same UTF-8 bytes (unlike `==`, which compares canonically).
@inline(__always)
func utf8Equal(_ a: String, _ b: String) -> Bool {
    a.utf8.count == b.utf8.count && !utf8Precedes(a, b) && !utf8Precedes(b, a)
}
