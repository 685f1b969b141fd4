/// An open-addressing index from record keys to positions in the normalizer's record list.
///
/// Keys are hashed eight bytes at a time by a streaming hash (``KeyHasher``): the state after
/// `Type:` is kept per type and continued over an id's bytes, so an entity met again is found
/// without making its key's string, and a long path key costs a multiply per word, not per byte. The table only answers lookups; nothing iterates it, so record order
/// never depends on hashing.
struct RecordTable {
    /// Probed linearly from a key's bucket: the high 32 bits of the key's hash and, below them,
    /// its record's position plus one (0: empty), so a probe reads one word per bucket.
    private(set) var buckets: [UInt64]
    /// The hash of each record's key, by position (for growing).
    private(set) var hashes: [UInt64] = []
    private(set) var mask: Int

    init() {
        buckets = Array(repeating: 0, count: 256)
        mask = 255
    }

    /// The high half of `hash`, as a bucket holds it.
    @inline(__always)
    static func tag(_ hash: UInt64) -> UInt64 { hash & 0xFFFF_FFFF_0000_0000 }

    /// The hash of `bytes` after what `start` has taken in (a type's `Type:`).
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer, from start: KeyHasher = KeyHasher()) -> UInt64 {
        var hasher = start
        hasher.combine(bytes)
        return hasher.finish()
    }

    /// The hash of `text`'s UTF-8: the same as of its bytes split anywhere and taken in turn.
    static func hash(_ text: String) -> UInt64 {
        if let hash = text.utf8.withContiguousStorageIfAvailable({ RecordTable.hash(UnsafeRawBufferPointer($0)) }) {
            return hash
        }
        return Array(text.utf8).withUnsafeBytes { RecordTable.hash($0) }
    }

    /// True when `key` is `prefix` followed by `id`.
    static func key(_ key: String, is prefix: [UInt8], _ id: UnsafeRawBufferPointer) -> Bool {
        let utf8 = key.utf8
        guard utf8.count == prefix.count + id.count else { return false }
        return utf8.withContiguousStorageIfAvailable { stored in
            for i in 0..<prefix.count where stored[i] != prefix[i] { return false }
            let offset = prefix.count
            for i in 0..<id.count where stored[offset + i] != id[i] { return false }
            return true
        } ?? utf8.elementsEqual(prefix + Array(id))
    }

    /// The first bucket to probe for `hash`.
    @inline(__always)
    func bucket(for hash: UInt64) -> Int {
        Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
    }

    /// Adds the next record (position `hashes.count`), whose key hashes to `hash`.
    mutating func insert(_ hash: UInt64) {
        hashes.append(hash)
        if hashes.count * 2 > buckets.count {
            grow()
        } else {
            place(hashes.count - 1)
        }
    }

    private mutating func place(_ position: Int) {
        let hash = hashes[position]
        var bucket = bucket(for: hash)
        while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
        buckets[bucket] = RecordTable.tag(hash) | UInt64(truncatingIfNeeded: position + 1)
    }

    private mutating func grow() {
        let size = buckets.count * 2
        buckets = Array(repeating: 0, count: size)
        mask = size - 1
        for position in hashes.indices { place(position) }
    }
}

/// A streaming hash of bytes for ``RecordTable``: words of eight bytes at their positions in the
/// whole text, so taking in `Type:` and then an id gives what taking in `Type:id` at once gives,
/// wherever the text is split.
struct KeyHasher: Sendable {
    private var state: UInt64 = 0x243F_6A88_85A3_08D3
    /// Bytes taken in since the last whole word, the first in the low byte.
    private var pending: UInt64 = 0
    private var pendingCount = 0
    private var length = 0

    /// Takes in `bytes` after everything taken in so far.
    @inline(__always)
    mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        let count = bytes.count
        length &+= count
        // An id after `Type:` is mostly a few bytes that complete no word.
        if pendingCount + count < 8 {
            for index in 0..<count {
                pending |= UInt64(bytes[index]) << (8 * UInt64(pendingCount + index))
            }
            pendingCount += count
            return
        }
        var index = 0
        while pendingCount != 0, index < count {
            take(bytes[index])
            index += 1
        }
        while count - index >= 8 {
            mix(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
            index += 8
        }
        while index < count {
            take(bytes[index])
            index += 1
        }
    }

    /// The hash of everything taken in: a multiply carries every bit up into the tag's high half,
    /// and the shift brings them down into the bucket's bits.
    @inline(__always)
    func finish() -> UInt64 {
        let hash = (state ^ pending ^ (UInt64(truncatingIfNeeded: length) << 56)) &* 0xFF51_AFD7_ED55_8CCD
        return hash ^ (hash >> 32)
    }

    @inline(__always)
    private mutating func take(_ byte: UInt8) {
        pending |= UInt64(byte) << (8 * UInt64(pendingCount))
        pendingCount += 1
        if pendingCount == 8 {
            mix(pending)
            pending = 0
            pendingCount = 0
        }
    }

    @inline(__always)
    private mutating func mix(_ word: UInt64) {
        state = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
        state ^= state >> 29
    }
}
