/// Memory's record keys → their dense ids: an insert-only open-addressing table that keeps each
/// entry's hash beside its id and reads the key itself from memory's own `keys`.
///
/// Growing moves stored hashes instead of hashing every key's text again (a dictionary of keys
/// did, at each doubling, while hydration interned link targets), and a probe compares a key's
/// bytes only when the hashes agree. Ids are never removed: memory numbers afresh by building a
/// new table (``RecordMemory/compact(slack:mutant:)``).
struct KeyIndex {
    /// One bucket: the id (-1 when empty) and the low 32 bits of its key's hash.
    private struct Entry {
        var id: Int32
        var hash: UInt32
    }

    private var entries: [Entry] = []
    private var count = 0
    /// The process's seed, as `Hasher` draws it (fixed under `SWIFT_DETERMINISTIC_HASHING`).
    private static let seed: Int = {
        var hasher = Hasher()
        hasher.combine(0x6B65_7973)
        return hasher.finalize()
    }()

    /// The hash of `key` as the table stores it.
    @inline(__always)
    private static func hash(_ key: RecordKey) -> UInt32 {
        UInt32(truncatingIfNeeded: TextHash.raw(key.rawValue, seed: seed))
    }

    /// Room for `capacity` keys without growing.
    mutating func reserveCapacity(_ capacity: Int) {
        if capacity > Self.limit(entries.count) { grow(to: capacity) }
    }

    /// The id of `key`, reading keys by id from `keys`.
    func id(of key: RecordKey, in keys: [RecordKey]) -> Int32? {
        guard !entries.isEmpty else { return nil }
        let hash = Self.hash(key)
        let mask = entries.count - 1
        var bucket = Int(hash) & mask
        while true {
            let entry = entries[bucket]
            if entry.id < 0 { return nil }
            if entry.hash == hash, keys[Int(entry.id)] == key { return entry.id }
            bucket = (bucket + 1) & mask
        }
    }

    /// The id of `key` if the table holds it; else enters `key` under `next` (which the caller
    /// then appends to `keys`) and answers -1. One hash and one probe either way.
    mutating func claim(_ key: RecordKey, next: Int32, in keys: [RecordKey]) -> Int32 {
        if count + 1 > Self.limit(entries.count) { grow(to: count + 1) }
        let hash = Self.hash(key)
        let mask = entries.count - 1
        var bucket = Int(hash) & mask
        while true {
            let entry = entries[bucket]
            if entry.id < 0 {
                entries[bucket] = Entry(id: next, hash: hash)
                count += 1
                return -1
            }
            if entry.hash == hash, keys[Int(entry.id)] == key { return entry.id }
            bucket = (bucket + 1) & mask
        }
    }

    /// How many keys a table of `buckets` buckets holds (three quarters full at most).
    private static func limit(_ buckets: Int) -> Int {
        buckets / 4 * 3
    }

    /// Rebuilds the table with room for `capacity` keys (at least double the buckets).
    private mutating func grow(to capacity: Int) {
        var buckets = max(16, entries.count * 2)
        while Self.limit(buckets) < capacity { buckets *= 2 }
        var fresh = [Entry](repeating: Entry(id: -1, hash: 0), count: buckets)
        let mask = buckets - 1
        for entry in entries where entry.id >= 0 {
            var bucket = Int(entry.hash) & mask
            while fresh[bucket].id >= 0 { bucket = (bucket + 1) & mask }
            fresh[bucket] = entry
        }
        entries = fresh
    }
}
