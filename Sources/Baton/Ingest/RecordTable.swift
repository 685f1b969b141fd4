/// An open-addressing index from record keys to positions in the normalizer's record list.
///
/// Keys are hashed with FNV-1a over their UTF-8 bytes, a streaming hash: the hash of `Type:` can
/// be kept per type and continued over an id's bytes, so an entity met again is found without
/// making its key's string. The table only answers lookups; nothing iterates it, so record order
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

    static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01B3

    /// FNV-1a of `bytes`, continuing from `hash`.
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer, from hash: UInt64 = offsetBasis) -> UInt64 {
        var hash = hash
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* prime
        }
        return hash
    }

    /// FNV-1a of `text`'s UTF-8.
    static func hash(_ text: String) -> UInt64 {
        if let hash = text.utf8.withContiguousStorageIfAvailable({ RecordTable.hash(UnsafeRawBufferPointer($0)) }) {
            return hash
        }
        var hash = offsetBasis
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* prime }
        return hash
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
