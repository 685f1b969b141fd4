/// A hash of text by its UTF-8 bytes for dictionaries and sets of keys and names, cheaper than a
/// full `Hasher` run: eight bytes at a time, each word mixed in by a multiply, then a 64-bit
/// finalizer (MurmurHash3's). The table's seed goes in first, so a table's layout still differs
/// from process to process and nothing may depend on it.
///
/// Keys are hashed again whenever a table grows and on every probe (hydration interns every link
/// target of every row it reads), where `Hasher`'s setup and finalization cost more than the bytes.
package enum TextHash {
    /// The hash of `string`'s bytes (and their count) under a table's `seed`.
    @inline(__always)
    package static func raw(_ string: String, seed: Int) -> Int {
        let utf8 = string.utf8
        if let hash = utf8.withContiguousStorageIfAvailable({ raw(UnsafeRawBufferPointer($0), seed: seed) }) {
            return hash
        }
        return raw(Array(utf8), seed: seed)
    }

    /// The hash of the bytes of `array` under `seed`.
    private static func raw(_ array: [UInt8], seed: Int) -> Int {
        array.withUnsafeBytes { raw($0, seed: seed) }
    }

    /// The hash of `bytes` under `seed`.
    @inline(__always)
    package static func raw(_ bytes: UnsafeRawBufferPointer, seed: Int) -> Int {
        let count = bytes.count
        var state = UInt64(bitPattern: Int64(seed)) ^ (UInt64(count) &* 0x9E37_79B9_7F4A_7C15)
        var offset = 0
        if let base = bytes.baseAddress {
            while count - offset >= 8 {
                state = mix(state, base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            if offset < count {
                var tail: UInt64 = 0
                var shift: UInt64 = 0
                while offset < count {
                    tail |= UInt64(base.load(fromByteOffset: offset, as: UInt8.self)) << shift
                    shift += 8
                    offset += 1
                }
                state = mix(state, tail)
            }
        }
        state = (state ^ (state >> 33)) &* 0xFF51_AFD7_ED55_8CCD
        state = (state ^ (state >> 33)) &* 0xC4CE_B9FE_1A85_EC53
        return Int(bitPattern: UInt(truncatingIfNeeded: state ^ (state >> 33)))
    }

    @inline(__always)
    private static func mix(_ state: UInt64, _ word: UInt64) -> UInt64 {
        let product = (state ^ word) &* 0x87C3_7B91_1142_53D5
        return product ^ (product >> 29)
    }
}
