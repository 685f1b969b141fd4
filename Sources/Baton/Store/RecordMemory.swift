/// The store's server data, by dense record id.
///
/// Every key the store meets gets an id, a small integer, when it enters memory: when a commit or
/// hydration writes its record, when an optimistic layer touches it, or when a walk meets it as a
/// link target. Beside each record's data, memory keeps columns that walks read without touching
/// the record itself: flags, a type id, and the record's outline (its slots, and its links as
/// ids: ``RecordOutlines``). The
/// check and collection's mark follow ids through those and keep their marks in arrays indexed
/// by id, so a record reached again costs an array read instead of hashing its key.
///
/// Ids are never reused while they live: a record swept from memory keeps its id (links from
/// other records may still name it). When most ids belong to records memory no longer holds,
/// ``compact(slack:mutant:)`` numbers the living ones afresh and forgets every record's outline.
struct RecordMemory {
    /// Per-id flags.
    struct Flags: OptionSet {
        let rawValue: UInt8
        /// Memory holds the record's server data.
        static let present = Flags(rawValue: 1)
        /// The record is deleted (`@deleteRecord`).
        static let deleted = Flags(rawValue: 2)
        /// The check read the record's row this launch and memory has not dropped it since.
        static let hydrated = Flags(rawValue: 4)
        /// An optimistic layer touches the record: the overlay holds its visible version.
        static let overlaid = Flags(rawValue: 8)
        /// A client connection record (``ConnectionPage/isClientRecordKey(_:)``).
        static let connection = Flags(rawValue: 16)
        /// One of the operation roots, which collection never sweeps.
        static let operationRoot = Flags(rawValue: 32)
    }

    private var ids = KeyIndex()
    /// The key of each id.
    private(set) var keys: [RecordKey] = []
    /// The server data of each id; `nil` when memory does not hold the record.
    private(set) var data: [RecordData?] = []
    private(set) var flags: [Flags] = []
    /// The type of each id's data, as an index into ``typenames`` (-1 without data).
    private(set) var types: [Int32] = []
    /// Every type name memory has met, by type id.
    private(set) var typenames: [String] = []
    private var typeIDs: [String: Int32] = [:]
    /// The type id handed out or found last: a commit's records mostly share a few types.
    private var lastType: (name: String, id: Int32)?
    /// Each id's outline, written from its data when a walk first needs it.
    private(set) var outlines = RecordOutlines()
    /// How many ids hold data.
    private(set) var count = 0
    /// The mutant `connectionsToldByShape`: connection records told by the rule before
    /// 2026-12-06 (``ConnectionPage/looksLikeClientRecordKeyByOldRule(_:)``).
    var connectionsToldByShape = false
    /// The mutant `connectionKeyReadForward` (``ConnectionPage/isClientRecordKey(_:readingForward:)``).
    var connectionKeysReadForward = false
    /// The mutant `revivalKeepsDeletedFlag`: a deleted record named again keeps its deleted flag.
    var revivalKeepsDeletedFlag = false

    /// The number of ids handed out (the bound of every id).
    var idCount: Int { keys.count }

    /// Room for `additional` more keys without rehashing (growing geometrically, never to the
    /// exact size, so many small reservations stay linear).
    mutating func reserveCapacity(_ additional: Int) {
        let needed = keys.count + additional
        guard needed > keys.capacity else { return }
        let capacity = max(needed, keys.capacity * 2)
        ids.reserveCapacity(capacity)
        keys.reserveCapacity(capacity)
        data.reserveCapacity(capacity)
        flags.reserveCapacity(capacity)
        types.reserveCapacity(capacity)
        outlines.reserveCapacity(capacity)
    }

    // MARK: Ids

    /// The id of `key`, if memory has met it.
    func id(of key: RecordKey) -> Int? {
        ids.id(of: key, in: keys).map(Int.init)
    }

    /// The id of `key`, handing out the next one when memory meets the key first.
    mutating func intern(_ key: RecordKey) -> Int {
        // One probe finds the key or makes its entry (a lookup, then an insert, hashes twice).
        let next = Int32(keys.count)
        let found = ids.claim(key, next: next, in: keys)
        if found >= 0 { return Int(found) }
        let id = Int(next)
        keys.append(key)
        data.append(nil)
        types.append(-1)
        outlines.appendID()
        var flags: Flags = []
        // Both kinds of key start with `client:`; most keys are entities, which do not start with `c`.
        if key.rawValue.utf8.first == UInt8(ascii: "c") {
            let connection = connectionsToldByShape
                ? ConnectionPage.looksLikeClientRecordKeyByOldRule(key)
                : ConnectionPage.isClientRecordKey(key, readingForward: connectionKeysReadForward)
            if connection { flags.insert(.connection) }
            if Store.isOperationRoot(key) { flags.insert(.operationRoot) }
        }
        self.flags.append(flags)
        return id
    }

    /// The type id of `typename`, numbering it when memory meets it first.
    mutating func typeID(of typename: String) -> Int {
        Int(typeID(typename))
    }

    private mutating func typeID(_ typename: String) -> Int32 {
        if let lastType, lastType.name == typename { return lastType.id }
        let id: Int32
        if let known = typeIDs[typename] {
            id = known
        } else {
            id = Int32(typenames.count)
            typenames.append(typename)
            typeIDs[typename] = id
        }
        lastType = (typename, id)
        return id
    }

    // MARK: Data

    /// The server data of `key`.
    subscript(key: RecordKey) -> RecordData? {
        get { ids.id(of: key, in: keys).flatMap { data[Int($0)] } }
        set { set(key, newValue) }
    }

    /// Sets the server data of `key` (`nil`: memory drops it) and returns the key's id (-1 when
    /// dropping a key memory never met).
    @discardableResult
    mutating func set(_ key: RecordKey, _ newValue: RecordData?) -> Int {
        if newValue == nil, ids.id(of: key, in: keys) == nil { return -1 }
        let id = intern(key)
        set(id: id, newValue)
        return id
    }

    /// Sets the server data of `id`; its outline is written again when next needed.
    mutating func set(id: Int, _ newValue: RecordData?) {
        var flags = self.flags[id]
        if let newValue {
            if !flags.contains(.present) { count += 1 }
            flags.insert(.present)
            if newValue.deleted { flags.insert(.deleted) } else if !revivalKeepsDeletedFlag { flags.remove(.deleted) }
            let type = types[id]
            if type < 0 || typenames[Int(type)] != newValue.typename { types[id] = typeID(newValue.typename) }
        } else {
            if flags.contains(.present) { count -= 1 }
            flags.remove([.present, .deleted])
            types[id] = -1
        }
        self.flags[id] = flags
        data[id] = newValue
        outlines.forget(id)
    }

    /// Every key whose record memory holds.
    var liveKeys: [RecordKey] {
        var out: [RecordKey] = []
        out.reserveCapacity(count)
        for id in flags.indices where flags[id].contains(.present) { out.append(keys[id]) }
        return out
    }

    // MARK: Flags

    @inline(__always)
    func has(_ flag: Flags, _ id: Int) -> Bool {
        flags[id].contains(flag)
    }

    /// True when `key` has an id and carries `flag`.
    func has(_ flag: Flags, _ key: RecordKey) -> Bool {
        guard let id = ids.id(of: key, in: keys) else { return false }
        return flags[Int(id)].contains(flag)
    }

    mutating func insert(_ flag: Flags, _ id: Int) {
        flags[id].insert(flag)
    }

    mutating func remove(_ flag: Flags, _ id: Int) {
        flags[id].remove(flag)
    }

    // MARK: Outlines

    /// Where `id`'s outline lies in ``outlines`` (written on first use; link targets memory has
    /// not met get ids of their own).
    @inline(__always)
    mutating func outline(of id: Int) -> Int {
        let start = outlines.start(of: id)
        if start >= 0 { return start }
        return writeOutline(of: id)
    }

    private mutating func writeOutline(of id: Int) -> Int {
        guard let record = data[id], !record.deleted, !record.cells.isEmpty else { return outlines.writeEmpty(id) }
        // The table keeps its cells in slot order, the order an outline lists its slots in.
        let entries = record.cells.entries
        let start = outlines.beginOutline(id, slots: entries.lazy.map(\.slot.index))
        for position in entries.indices {
            let value = entries[position].cell.value
            switch value {
            case .link, .links, .list:
                value.forEachLink { outlines.appendTarget(Int32(intern($0))) }
            default:
                break
            }
            outlines.closeSlot(position, at: start)
        }
        return start
    }

    /// Reclaims the space of outlines written again (outside walks only: it moves every outline).
    mutating func reclaimOutlines() {
        outlines.reclaimIfWasteful()
    }

    // MARK: Collection

    /// Marks in `marked` what each marked connection record owns: its edge copies and page info.
    func markOwnedByConnections(_ marked: inout IDSet) {
        for id in flags.indices where flags[id].contains(.connection) && marked.contains(id) {
            guard let connection = data[id] else { continue }
            for slot in [ChangeSetApplier.edgesSlot, ChangeSetApplier.pageInfoSlot] {
                connection.cells[slot]?.value.forEachLink { if let target = self.id(of: $0) { marked.insert(target) } }
            }
        }
    }

    /// Drops every record that is not `marked` and not an operation root; returns their keys.
    /// A swept record loses its hydrated flag (unless `keepsHydrated`, a mutant).
    mutating func sweep(keeping marked: IDSet, keepsHydrated: Bool) -> [RecordKey] {
        var swept: [RecordKey] = []
        for id in flags.indices where flags[id].contains(.present) && !flags[id].contains(.operationRoot) && !marked.contains(id) {
            swept.append(keys[id])
            set(id: id, nil)
            if !keepsHydrated { flags[id].remove(.hydrated) }
        }
        return swept
    }

    // MARK: Compaction

    /// Numbers again only the ids that still mean something (records memory holds, hydrated
    /// records, overlaid records) when they are under half of all ids, with `slack` ids to spare;
    /// every record's outline is forgotten then. Returns true when it compacted.
    @discardableResult
    mutating func compact(slack: Int, mutant: Mutant?) -> Bool {
        let meaningful: Flags = mutant.isOn(.compactionDropsOverlaid) ? [.present, .hydrated] : [.present, .hydrated, .overlaid]
        var living = 0
        for flag in flags where !flag.isDisjoint(with: meaningful) { living += 1 }
        guard keys.count > 2 * living + slack else { return false }
        var fresh = RecordMemory()
        fresh.connectionsToldByShape = connectionsToldByShape
        fresh.connectionKeysReadForward = connectionKeysReadForward
        fresh.revivalKeepsDeletedFlag = revivalKeepsDeletedFlag
        fresh.reserveCapacity(living)
        for id in keys.indices where !flags[id].isDisjoint(with: meaningful) {
            let newID = fresh.intern(keys[id])
            fresh.set(id: newID, data[id])
            fresh.flags[newID] = flags[id]
            if mutant.isOn(.compactionForgetsHydrated) { fresh.flags[newID].remove(.hydrated) }
        }
        self = fresh
        return true
    }
}
