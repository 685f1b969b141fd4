import Glibc

/// A plain search for bytes in bytes: `memchr` finds each place the needle's first byte occurs,
/// `memcmp` compares the rest. The simulator searches files of hundreds of kilobytes for texts
/// at every erase and every rot, too often for the standard library's generic search (it was a
/// fifth of the simulator's time at 2,000 events, 2026-12-07).
package enum ByteSearch {
    /// The offset of the first occurrence of `needle` in `haystack` at or after `start`; an
    /// empty needle is found at `start`.
    package static func firstOffset(of needle: ArraySlice<UInt8>, in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard let first = needle.first else { return start <= haystack.count ? start : nil }
        return haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { pin in
                guard let base = hay.baseAddress, let pattern = pin.baseAddress, start >= 0, hay.count - start >= pin.count else { return nil }
                var at = base + start
                let last = base + (hay.count - pin.count)
                while at <= last {
                    guard let found = memchr(at, Int32(first), last - at + 1) else { return nil }
                    if memcmp(found, pattern, pin.count) == 0 { return UnsafeRawPointer(found) - base }
                    at = UnsafeRawPointer(found) + 1
                }
                return nil
            }
        }
    }
}
