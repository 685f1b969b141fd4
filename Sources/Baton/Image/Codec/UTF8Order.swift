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

/// The positions of `keys` in UTF-8 order of their bytes (ties keep their order).
///
/// Each key's first sixteen bytes are read as two big-endian integers, which order most keys
/// (`Type:id`) alone; `memcmp` compares past them. Comparing the strings themselves cost about
/// 150 instructions a comparison, more than ordering the drain's rows saves SQLite (issue 10).
func utf8SortedPositions(of keys: [String]) -> [Int] {
    var entries: [UTF8SortEntry] = []
    entries.reserveCapacity(keys.count)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(keys.reduce(0) { $0 + $1.utf8.count })
    var sorted = true
    for (position, key) in keys.enumerated() {
        let start = bytes.count
        bytes.append(contentsOf: key.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            let entry = UTF8SortEntry(buffer, start: start, position: position)
            if sorted, let last = entries.last, entry.precedes(last, in: buffer.baseAddress!) { sorted = false }
            entries.append(entry)
        }
    }
    if !sorted {
        bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            entries.sort { $0.precedes($1, in: base) }
        }
    }
    return entries.map { Int($0.position) }
}

/// A key in ``utf8SortedPositions(of:)``: its first sixteen bytes, zero-padded, as integers
/// that compare as the bytes do, and where the rest lies.
private struct UTF8SortEntry {
    var high: UInt64
    var low: UInt64
    var start: Int32
    var count: Int32
    var position: Int32

    init(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, position: Int) {
        let count = bytes.count - start
        let first = UnsafeRawPointer(bytes.baseAddress! + start)
        high = Self.word(first, count: count)
        low = count > 8 ? Self.word(first + 8, count: count - 8) : 0
        self.start = Int32(start)
        self.count = Int32(count)
        self.position = Int32(position)
    }

    /// Up to eight bytes from `bytes` as a big-endian integer, zero-padded.
    @inline(__always)
    private static func word(_ bytes: UnsafeRawPointer, count: Int) -> UInt64 {
        if count >= 8 { return UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)) }
        var word: UInt64 = 0
        for index in 0..<8 {
            word = word << 8 | (index < count ? UInt64(bytes.load(fromByteOffset: index, as: UInt8.self)) : 0)
        }
        return word
    }

    /// Whether this key's bytes precede `other`'s; `base` is the buffer both lie in.
    @inline(__always)
    func precedes(_ other: UTF8SortEntry, in base: UnsafePointer<UInt8>) -> Bool {
        if high != other.high { return high < other.high }
        if low != other.low { return low < other.low }
        let common = Int(min(count, other.count))
        if common > 16 {
            let order = memcmp(base + Int(start) + 16, base + Int(other.start) + 16, common - 16)
            if order != 0 { return order < 0 }
        }
        return count < other.count
    }
}
