/// One drain's transaction: everything it writes, in order, on the image's connection.
///
/// Order inside the transaction: the launch's eviction (first drain of a launch only), the
/// overflow wipe (when asked), the check's stamps, then each batch in queue order (its snapshots
/// in UTF-8 order of their keys, then its root fields and fetch times), then the stamps of the
/// names the written rows use. A name the image lacks is added when the first row that uses it
/// is written (a snapshot's new link types sorted by UTF-8 first, then its type and storage keys
/// in cell order), so ids follow the write order and never a dictionary's. Names are worked on
/// in a copy of the image's table that the image keeps only on commit.
///
/// Its stored properties are marked `@exclusivity(unchecked)`: the transaction is used by one
/// drain on one thread, no method hands out a property while another writes it, and the dynamic
/// checks cost a sixth of the writer's own time per row (issue 10, phase C).
final class DrainTransaction {
    let connection: Connection
    let state: ImageState
    /// What this launch stamps into `used` columns (``ImageSchema/stamp(ofLaunch:)``).
    let stamp: Int
    let rules: ImageRules
    /// The image's names as this transaction leaves them.
    @exclusivity(unchecked) var names: NameTable
    /// Name ids the transaction's rows use (and the check read): stamped `used = G` at the end.
    @exclusivity(unchecked) var stamps = NameIDSet()
    @exclusivity(unchecked) var summary = DrainSummary()
    /// Row writes so far (snapshots, root fields, fetch times), for `drain(stoppingAfter:)`.
    var writes = 0

    @exclusivity(unchecked) private var encoder: RowEncoder
    /// The encoder of rows made inside a merging upsert (``mergeStored(used:row:)``), while
    /// SQLite reads the fresh row where `encoder` holds it.
    @exclusivity(unchecked) private var mergeEncoder: RowEncoder
    /// The row a merge reads, copied out of SQLite, and where its cells lie.
    @exclusivity(unchecked) private var oldRow: [UInt8] = []
    @exclusivity(unchecked) private var oldSpans: [RowCellSpan] = []
    @exclusivity(unchecked) private var oldSink = RowDecodeSink()
    /// The last link type resolved, and its id: links of a drain mostly share a few types.
    @exclusivity(unchecked) private var lastLinkType: String?
    @exclusivity(unchecked) private var lastLinkTypeID = 0
    /// Scratch of one row's encoding: its fresh cells in UTF-8 order of their storage keys, their
    /// name ids, the type of each of their links in the order the encoder meets them, and the
    /// old cells kept.
    @exclusivity(unchecked) private var fresh: [FreshCell] = []
    @exclusivity(unchecked) private var freshIDs: [Int] = []
    @exclusivity(unchecked) private var resolvedLinkTypes: [RowEncoder.LinkType] = []
    @exclusivity(unchecked) private var kept: [(rank: Int32, span: RowCellSpan)] = []
    /// Every slot's place in UTF-8 order (``SlotTable/utf8Ranks()``), fetched again when a slot
    /// is past its end.
    @exclusivity(unchecked) private var ranks: [Int32] = []
    /// The commit's types that the last snapshot looked its links up in, and their table.
    @exclusivity(unchecked) private var typesOwner: RecordTypes?
    @exclusivity(unchecked) private var typesTable: [RecordKey: String] = [:]
    /// The last record type interned, and its id: a commit's records mostly share a few types.
    @exclusivity(unchecked) private var lastType: String?
    @exclusivity(unchecked) private var lastTypeID = 0
    /// The snapshot's own link types (``Snapshot/recordCells``'s `known`), looked up before `typesTable`.
    @exclusivity(unchecked) private var freshKnown: [RecordKey: String] = [:]
    /// Whether the encoder looks each link's type up as it meets the link (a snapshot whose
    /// names the image all holds) instead of reading `resolvedLinkTypes`.
    private var looksUpLinkTypes = false
    /// Whether a lookup met a link type the image lacks: the row is then written the long way.
    private var missedLinkType = false
    /// The statements every snapshot runs, held for the drain (the connection's cache hashes
    /// their text on every lookup).
    @exclusivity(unchecked) private var selectRecord: Statement?
    @exclusivity(unchecked) private var upsertRecord: Statement?
    @exclusivity(unchecked) private var upsertMergedRecord: Statement?
    @exclusivity(unchecked) private var upsertNameStatement: Statement?
    @exclusivity(unchecked) private var setNameChecksumStatement: Statement?
    @exclusivity(unchecked) private var insertNameStatement: Statement?
    @exclusivity(unchecked) private var largestNameIDStatement: Statement?
    /// The id the next new name gets (the largest id plus one), once a name was added.
    private var nextNameID: Int?
    /// The context of ``RowMergeFunction`` on this connection, once a snapshot merged.
    private var mergeContext: RowMergeFunction.Context?
    /// The row a merging upsert is writing: its key, type id and entity flag, for
    /// ``mergeStored(used:row:)``.
    private var mergeKey = ""
    private var mergeTypeID = 0
    private var mergeEntity = false
    /// Ids of storage-key names this snapshot added to the table: the stored row is read as if
    /// they were still unknown, as it was when the row was read before its names were added.
    @exclusivity(unchecked) private var keyNamesAdded: [Int] = []
    /// Whether the last ``intern(_:)`` gave the table an id it did not hold.
    private var lastInternAddedID = false

    /// Where the `fresh` cells are: a store's record's cells, or a snapshot's named cells.
    @exclusivity(unchecked) private var freshRecord: CellTable = [:]
    @exclusivity(unchecked) private var freshNamed: [NamedCell] = []

    /// One fresh cell of the row being written: where it is rather than a copy, so collecting,
    /// sorting and forgetting a row's cells retains and releases nothing.
    private struct FreshCell {
        var slot: SlotID
        /// The slot's place in UTF-8 order of storage keys.
        var rank: Int32
        /// The cell's index in `freshRecord`, or `nil` for `freshNamed[named]`.
        var record: Int?
        var named: Int
    }

    /// The cell `fresh` points at.
    @inline(__always)
    private func cell(_ fresh: FreshCell) -> Cell {
        if let index = fresh.record { return freshRecord.entries[index].cell }
        return freshNamed[fresh.named].cell
    }

    init(connection: Connection, state: ImageState) {
        self.connection = connection
        self.state = state
        self.stamp = ImageSchema.stamp(ofLaunch: state.generation)
        self.rules = state.rules
        self.names = state.names
        self.encoder = RowEncoder(normalizesNegativeZero: state.rules.negativeZeroNormalized)
        self.mergeEncoder = RowEncoder(normalizesNegativeZero: state.rules.negativeZeroNormalized)
    }

    // MARK: Housekeeping

    /// Deletes the rows (and names) of earlier launches that this launch no longer reads.
    func evict() throws(SQLiteError) {
        guard let visibleFrom = state.visibleFrom else { return }
        for sql in ImageSchema.SQL.evict {
            let statement = try connection.cached(sql)
            defer { statement.reset() }
            try statement.bind(ImageSchema.stamp(ofLaunch: visibleFrom), at: 1)
            try statement.run()
        }
        summary.evicted = true
    }

    /// Empties every aging table, after the queue overflowed or the store was erased
    /// (`erasing`). The connection runs with `secure_delete` on (``ImageOpener``), so what the
    /// deletions remove is overwritten with zeros, in the WAL until the erase's checkpoint
    /// (``ImageCheckpoint/afterCommit(_:erased:)``) puts it in the file.
    func wipe(erasing: Bool = false) throws(SQLiteError) {
        for (table, _) in ImageSchema.agingTables where !(erasing && rules.eraseKeepsNames && table == "names") {
            try connection.execute("DELETE FROM \(table)")
        }
        names = NameTable()
        nextNameID = nil
        lastType = nil
        lastLinkType = nil
        summary.wiped = true
        summary.erased = erasing
    }

    /// Stamps what the check read, in UTF-8 order of keys.
    func stamp(_ touches: ImageTouches) throws(SQLiteError) {
        var stamped = try stamp(touches.records, sql: ImageSchema.SQL.stampRecord)
        stamped += try stamp(touches.rootFields, sql: ImageSchema.SQL.stampRoot)
        stamped += try stamp(touches.fetches, sql: ImageSchema.SQL.stampFetch)
        stamps.formUnion(touches.names)
        summary.touches = stamped + touches.names.count
    }

    /// Stamps each of `keys` once, in UTF-8 order (the table's own); answers how many there were.
    private func stamp(_ keys: [String], sql: String) throws(SQLiteError) -> Int {
        guard !keys.isEmpty else { return 0 }
        let statement = try connection.cached(sql)
        defer { statement.reset() }
        var stamped = 0
        var previous: String?
        for index in utf8SortedPositions(of: keys) {
            let key = keys[index]
            // The same key read twice stands next to itself: stamped once.
            if let previous, previous.utf8.elementsEqual(key.utf8) { continue }
            previous = key
            stamped += 1
            statement.reset()
            try statement.bind(stamp, at: 1)
            try statement.bind(key, at: 2)
            try statement.run()
        }
        return stamped
    }

    // MARK: Names

    /// The id of `name`, adding the name to the image when it is new; marks it for stamping.
    private func intern(_ name: String) throws(SQLiteError) -> Int {
        if let id = names.id(of: name) {
            stamps.insert(id)
            return id
        }
        if let id = try insertNew(name) {
            lastInternAddedID = true
            names.insert(id: id, name: name, stamped: true)
            stamps.insert(id)
            summary.newNames += 1
            return id
        }
        let statement = try held(&upsertNameStatement, ImageSchema.SQL.upsertName)
        defer { statement.reset() }
        try statement.bind(name, at: 1)
        try statement.bind(stamp, at: 2)
        guard try statement.step() else {
            throw SQLiteError(extendedCode: .internal, message: "no id returned for a name", sql: statement.sql)
        }
        // A name still in the file but aged out of memory (or not loaded because its checksum
        // failed) gets its old id back: the upsert's RETURNING.
        let id = statement.int(0)
        let sameText = statement.withText(1) { stored in
            var name = name
            return name.withUTF8 { stored.elementsEqual(UnsafeRawBufferPointer($0)) }
        }
        let storedChecksum = statement.int(2)
        statement.reset()
        guard sameText else {
            // The UNIQUE index found the name on a row that spells another: index and table disagree.
            throw SQLiteError(extendedCode: .corrupt, message: "the names index and table disagree on \(name)", sql: statement.sql)
        }
        let checksum = TableChecksum.stored(TableChecksum.name(id: id, name))
        if storedChecksum != checksum, !(rules.nameRepairSkipped && storedChecksum != 0) {
            // A new name (its id was not known before the insert), or a damaged checksum over a
            // name whose text is intact: the row is set right for every row that uses the id.
            let fix = try held(&setNameChecksumStatement, ImageSchema.SQL.setNameChecksum)
            defer { fix.reset() }
            try fix.bind(checksum, at: 1)
            try fix.bind(id, at: 2)
            try fix.run()
        }
        lastInternAddedID = names.name(ofID: id) == nil
        names.insert(id: id, name: name, stamped: true)
        stamps.insert(id)
        summary.newNames += 1
        return id
    }

    /// Adds `name`, which the image's table lacks, as a new row under the id SQLite would give
    /// it (the largest id plus one) with its checksum, in one statement: the upsert that answers
    /// the id, then the checksum's update, cost three times as much (issue 10). `nil` when the
    /// file holds the name already (aged out of memory, or not loaded because its checksum
    /// failed): the upsert then gives it its old id back.
    private func insertNew(_ name: String) throws(SQLiteError) -> Int? {
        let id: Int
        if let nextNameID {
            id = nextNameID
        } else {
            let largest = try held(&largestNameIDStatement, ImageSchema.SQL.largestNameID)
            defer { largest.reset() }
            guard try largest.step() else { return nil }
            let largestID = largest.isNull(0) ? 0 : largest.int(0)
            // Past the largest id SQLite picks at random; leave that to SQLite.
            guard largestID >= 0, largestID < Int(Int64.max) else { return nil }
            id = largestID + 1
        }
        let statement = try held(&insertNameStatement, ImageSchema.SQL.insertNewName)
        defer { statement.reset() }
        try statement.bind(id, at: 1)
        try statement.bind(name, at: 2)
        try statement.bind(stamp, at: 3)
        try statement.bind(TableChecksum.stored(TableChecksum.name(id: id, name)), at: 4)
        try statement.run()
        guard connection.changes == 1 else { return nil }
        nextNameID = id + 1
        return id
    }

    /// Adds the link types of `linkTypes` the image lacks, in UTF-8 order (a dictionary's order
    /// must not decide ids). Usually every type is known and this only compares strings.
    private func internLinkTypes(_ linkTypes: [RecordKey: String]) throws(SQLiteError) {
        var missing: [String] = []
        var lastKnown: String?
        for type in linkTypes.values {
            if let lastKnown, lastKnown == type { continue }
            if names.id(of: type) == nil {
                missing.append(type)
            } else {
                lastKnown = type
            }
        }
        guard !missing.isEmpty else { return }
        missing.sort(by: utf8Precedes)
        for (index, type) in missing.enumerated() where index == 0 || !utf8Equal(missing[index - 1], type) {
            if names.id(of: type) == nil { _ = try intern(type) }
        }
    }

    /// Stamps `used = G` on every name the drain's rows use that is not stamped yet.
    func stampNames() throws(SQLiteError) {
        let pending = stamps.members.filter { !names.isStamped($0) }
        guard !pending.isEmpty else { return }
        let statement = try connection.cached(ImageSchema.SQL.stampName)
        defer { statement.reset() }
        for id in pending.sorted() {
            statement.reset()
            try statement.bind(stamp, at: 1)
            try statement.bind(id, at: 2)
            try statement.run()
        }
        names.noteStamped(pending)
    }

    /// The type recorded with a link to `key` (unknown when the image has no id for it); stamps it.
    private func linkType(_ type: String?) -> RowEncoder.LinkType {
        guard let type else { return .unknown }
        if let lastLinkType, lastLinkType == type { return RowEncoder.LinkType(id: lastLinkTypeID, name: type) }
        guard let id = names.id(of: type) else { return .unknown }
        stamps.insert(id)
        lastLinkType = type
        lastLinkTypeID = id
        return RowEncoder.LinkType(id: id, name: type)
    }


    /// The id of a record's type, adding it when the image lacks it; marks it for stamping.
    private func typeID(of typename: String) throws(SQLiteError) -> Int {
        if let lastType, utf8Equal(lastType, typename) {
            stamps.insert(lastTypeID)
            return lastTypeID
        }
        let id = try intern(typename)
        lastType = typename
        lastTypeID = id
        return id
    }

    /// The id of the storage key of `slot`, adding the name when the image lacks it; marks it
    /// for stamping. An array read for a name the image has.
    private func nameID(of slot: SlotID) throws(SQLiteError) -> Int {
        if let id = names.id(ofSlot: slot) {
            stamps.insert(id)
            return id
        }
        lastInternAddedID = false
        let id = try intern(slot.name)
        if lastInternAddedID { keyNamesAdded.append(id) }
        return id
    }

    // MARK: Cell order

    /// The place of `slot` among storage keys in UTF-8 order.
    @inline(__always)
    private func rank(of slot: SlotID) -> Int32 {
        let index = Int(slot.index)
        if index < ranks.count { return ranks[index] }
        ranks = SlotTable.shared.utf8Ranks()
        return ranks[index]
    }

    /// Sets `fresh` to a store's record's cells in UTF-8 order of their storage keys.
    private func collect(_ cells: CellTable) {
        fresh.removeAll(keepingCapacity: true)
        freshRecord = cells
        for (index, entry) in cells.entries.enumerated() {
            fresh.append(FreshCell(slot: entry.slot, rank: rank(of: entry.slot), record: index, named: 0))
        }
        if fresh.count > 1 { fresh.sort { $0.rank < $1.rank } }
    }

    /// Sets `fresh` to named cells in UTF-8 order of their storage keys, the last of duplicates kept.
    private func collect(named cells: [NamedCell]) {
        fresh.removeAll(keepingCapacity: true)
        let slots = SlotTable.shared.slots(cells.lazy.map(\.storageKey))
        freshNamed = cells
        for (position, slot) in slots.enumerated() {
            fresh.append(FreshCell(slot: slot, rank: rank(of: slot), record: nil, named: position))
        }
        // A stable sort keeps duplicates in their order; the last of each run is kept.
        fresh.sort { $0.rank < $1.rank }
        var write = 0
        for read in fresh.indices {
            if write > 0 && fresh[write - 1].rank == fresh[read].rank {
                fresh[write - 1] = fresh[read]
            } else {
                fresh[write] = fresh[read]
                write += 1
            }
        }
        fresh.removeLast(fresh.count - write)
    }

    /// Sets `resolvedLinkTypes` to the type of every link of `fresh`, in the encoder's order, from
    /// `type(of:)`, as the ids they are written with; adds the types the image lacks first, in
    /// UTF-8 order (as ``internLinkTypes(_:)`` does for a snapshot's link-type table). Stamps the
    /// types when `stamping` (a row that is written with its cells).
    ///
    /// One pass looks each link's type up once: it used to be noted, checked against the image's
    /// names and resolved in three passes over the same links, a fifth of the writer's own time.
    private func resolveLinkTypes(stamping: Bool, _ type: (RecordKey) -> String?) throws(SQLiteError) {
        var missing: [String] = []
        resolveKnownLinkTypes(stamping: stamping, missing: &missing, type)
        guard !missing.isEmpty else { return }
        missing.sort(by: utf8Precedes)
        for (index, type) in missing.enumerated() where index == 0 || !utf8Equal(missing[index - 1], type) {
            if names.id(of: type) == nil { _ = try intern(type) }
        }
        // Every type is known now.
        resolveKnownLinkTypes(stamping: stamping, missing: &missing, type)
    }

    /// One pass of ``resolveLinkTypes(stamping:_:)``: a type the image lacks is unknown and
    /// noted in `missing`.
    private func resolveKnownLinkTypes(stamping: Bool, missing: inout [String], _ type: (RecordKey) -> String?) {
        resolvedLinkTypes.removeAll(keepingCapacity: true)
        for fresh in fresh {
            let value = cell(fresh).value
            switch value {
            case .link, .links, .list:
                value.forEachLink { key in
                    guard let name = type(key) else {
                        resolvedLinkTypes.append(.unknown)
                        return
                    }
                    if let lastLinkType, lastLinkType == name {
                        resolvedLinkTypes.append(RowEncoder.LinkType(id: lastLinkTypeID, name: name))
                        return
                    }
                    guard let id = names.id(of: name) else {
                        missing.append(name)
                        resolvedLinkTypes.append(.unknown)
                        return
                    }
                    if stamping {
                        stamps.insert(id)
                        lastLinkType = name
                        lastLinkTypeID = id
                    }
                    resolvedLinkTypes.append(RowEncoder.LinkType(id: id, name: name))
                }
            default:
                break
            }
        }
    }

    // MARK: Records

    /// Writes one snapshot by the merge rule; stamps its row `used = G`.
    ///
    /// A snapshot made from a store's memory is written from its slots: its cells ordered by
    /// their slots' places in UTF-8 order, their name ids read from the name table by slot, its
    /// links' types looked up once each in the commit's types. Names are added in the same order
    /// either way: missing link types (UTF-8 order), the type, then storage keys in cell order.
    func write(_ snapshot: Snapshot) throws(SQLiteError) {
        let key = snapshot.key.rawValue
        if let record = snapshot.recordCells {
            collect(record.cells)
            if typesOwner !== record.types {
                typesOwner = record.types
                typesTable = record.types.withTable { $0 }
            }
            freshKnown = record.known
            if try writeWithKnownNames(snapshot, key: key) { return }
            let table = typesTable
            if record.known.isEmpty {
                try resolveLinkTypes(stamping: !snapshot.deleted) { table[$0] }
            } else {
                try resolveLinkTypes(stamping: !snapshot.deleted) { record.known[$0] ?? table[$0] }
            }
        } else {
            // A snapshot of named cells: its link-type table may hold types no cell uses, and
            // they are added as well.
            let linkTypes = snapshot.linkTypes
            try internLinkTypes(linkTypes)
            if snapshot.deleted {
                fresh.removeAll(keepingCapacity: true)
            } else {
                collect(named: snapshot.cells)
            }
            try resolveLinkTypes(stamping: !snapshot.deleted) { linkTypes[$0] }
        }
        let typeID = try typeID(of: snapshot.typename)
        let entity = RowFormat.isEntity(key: key, typename: snapshot.typename)
        let row: UnsafeRawBufferPointer
        if snapshot.deleted {
            // A deletion replaces its row; the mutant keeps the old cells under the flag.
            fresh.removeAll(keepingCapacity: true)
            freshIDs.removeAll(keepingCapacity: true)
            resolvedLinkTypes.removeAll(keepingCapacity: true)
            if rules.deletedCellsRevive, try readOldRow(key) != nil {
                row = oldRow.withUnsafeBytes { old in
                    encodeMerged(key: key, deleted: true, entity: entity, typeID: typeID, old: old) ?? encodeFresh(
                        key: key, deleted: true, entity: entity, typeID: typeID)
                }
            } else {
                row = encodeFresh(key: key, deleted: true, entity: entity, typeID: typeID)
            }
        } else {
            keyNamesAdded.removeAll(keepingCapacity: true)
            freshIDs.removeAll(keepingCapacity: true)
            for cell in fresh { freshIDs.append(try nameID(of: cell.slot)) }
            row = encodeFresh(key: key, deleted: false, entity: entity, typeID: typeID)
            try writeLive(row, key: key, entity: entity, typeID: typeID, hydrated: snapshot.hydrated)
            return
        }
        try upsert(held(&upsertRecord, ImageSchema.SQL.upsertRecord), key: key, blob: row)
        summary.snapshots += 1
    }

    /// Writes a store's snapshot (its cells collected in `fresh`) in one pass when the image
    /// already holds every name the row uses: each link's type is looked up as the encoder meets
    /// the link, with no pass of its own over the links first. `false` (nothing added or
    /// written) for a deleted snapshot, or one that uses a name the image lacks: it is then
    /// written the long way, which adds the names in their order.
    private func writeWithKnownNames(_ snapshot: Snapshot, key: String) throws(SQLiteError) -> Bool {
        guard !snapshot.deleted else { return false }
        let typeID: Int
        if let lastType, utf8Equal(lastType, snapshot.typename) {
            typeID = lastTypeID
        } else if let id = names.id(of: snapshot.typename) {
            typeID = id
        } else {
            return false
        }
        freshIDs.removeAll(keepingCapacity: true)
        for cell in fresh {
            guard let id = names.id(ofSlot: cell.slot) else { return false }
            freshIDs.append(id)
        }
        looksUpLinkTypes = true
        missedLinkType = false
        // A merge encodes the row again inside the upsert, with the same lookups.
        defer { looksUpLinkTypes = false }
        let entity = RowFormat.isEntity(key: key, typename: snapshot.typename)
        let row = encodeFresh(key: key, deleted: false, entity: entity, typeID: typeID)
        guard !missedLinkType else { return false }
        lastType = snapshot.typename
        lastTypeID = typeID
        stamps.insert(typeID)
        for id in freshIDs { stamps.insert(id) }
        keyNamesAdded.removeAll(keepingCapacity: true)
        try writeLive(row, key: key, entity: entity, typeID: typeID, hydrated: snapshot.hydrated)
        return true
    }

    /// Writes the encoded `row` of a snapshot that is not a deletion: merged over a present row
    /// (see ``mergeStored(used:row:)``, in the upsert itself) unless the snapshot was made from a
    /// hydrated record, whose row it replaces.
    private func writeLive(_ row: UnsafeRawBufferPointer, key: String, entity: Bool, typeID: Int, hydrated: Bool) throws(SQLiteError) {
        if !hydrated && !rules.partialSnapshotReplaces {
            try upsertMerging(key: key, entity: entity, typeID: typeID, row: row)
        } else {
            try upsert(held(&upsertRecord, ImageSchema.SQL.upsertRecord), key: key, blob: row)
        }
        summary.snapshots += 1
    }

    /// The type of a link to `key` as the image writes it, looked up in the snapshot's and the
    /// commit's types; stamps it. A type the image lacks is unknown and sets `missedLinkType`.
    private func lookUpLinkType(_ key: RecordKey) -> RowEncoder.LinkType {
        let type = freshKnown.isEmpty ? typesTable[key] : (freshKnown[key] ?? typesTable[key])
        guard let type else { return .unknown }
        let linkType = linkType(type)
        if linkType.id == 0 { missedLinkType = true }
        return linkType
    }

    /// Writes `row` under `key`, or, when the key has a row, what ``mergeStored(used:row:)``
    /// makes of it.
    private func upsertMerging(key: String, entity: Bool, typeID: Int, row: UnsafeRawBufferPointer) throws(SQLiteError) {
        let context: RowMergeFunction.Context
        if let mergeContext {
            context = mergeContext
        } else {
            context = try RowMergeFunction.context(on: connection)
            mergeContext = context
        }
        let statement = try held(&upsertMergedRecord, ImageSchema.SQL.upsertMergedRecord)
        mergeKey = key
        mergeEntity = entity
        mergeTypeID = typeID
        context.transaction = self
        defer { context.transaction = nil }
        try upsert(statement, key: key, blob: row)
    }

    /// The row to keep for the snapshot being written when its key already has `row`, stamped
    /// `used`: the stored cells the snapshot does not write, merged in UTF-8 order of storage
    /// keys with the fresh ones. `nil` keeps the fresh row: the stored one aged out, does not
    /// decode, is deleted (a deleted row's cells never come back), or has no cell left to keep.
    ///
    /// The merged row lies in the merge's own encoder, valid until the next merge.
    func mergeStored(used: Int, row: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard state.isVisible(used: ImageSchema.launch(ofStamp: used)) else { return nil }
        oldSink.nameIDs.removeAll(keepingCapacity: true)
        let names = NamesBeforeRow(names: names, hidden: keyNamesAdded)
        guard let old = RowDecoder.locateCells(row, key: mergeKey, names: names, spans: &oldSpans, sink: &oldSink) else {
            oldSpans.removeAll()
            return nil
        }
        guard !old.deleted || rules.deletedCellsRevive else { return nil }
        summary.merged += 1
        return encodeMerged(key: mergeKey, deleted: false, entity: mergeEntity, typeID: mergeTypeID, old: row, merging: true)
    }

    /// The table as a stored row is read against: without the storage-key names the snapshot
    /// being written added (a stored row naming them does not decode, as before they were added).
    private struct NamesBeforeRow: RowNames {
        var names: NameTable
        var hidden: [Int]

        func name(ofID id: Int) -> String? {
            if !hidden.isEmpty && hidden.contains(id) { return nil }
            return names.name(ofID: id)
        }
    }

    /// Reads the row under `key` as the image holds it in this transaction, into `oldRow`; `nil`
    /// when missing, aged out, or not decodable (a miss: the snapshot then stands alone).
    private func readOldRow(_ key: String) throws(SQLiteError) -> (deleted: Bool, typeID: Int)? {
        let statement = try held(&selectRecord, ImageSchema.SQL.selectRecord)
        defer { statement.reset() }
        try statement.bind(key, at: 1)
        guard try statement.step(), state.isVisible(used: ImageSchema.launch(ofStamp: statement.int(0))) else { return nil }
        oldRow.removeAll(keepingCapacity: true)
        statement.withBlob(1) { oldRow.append(contentsOf: $0) }
        statement.reset()
        oldSink.nameIDs.removeAll(keepingCapacity: true)
        let located = oldRow.withUnsafeBytes { bytes in
            RowDecoder.locateCells(bytes, key: key, names: names, spans: &oldSpans, sink: &oldSink)
        }
        if located == nil { oldSpans.removeAll() }
        return located
    }

    /// Encodes the `fresh` cells (their name ids in `freshIDs`) alone; the row lies in `encoder`
    /// until the next row is encoded there.
    private func encodeFresh(key: String, deleted: Bool, entity: Bool, typeID: Int) -> UnsafeRawBufferPointer {
        kept.removeAll(keepingCapacity: true)
        return encodeCells(
            &encoder, key: key, deleted: deleted, entity: entity, typeID: typeID, old: UnsafeRawBufferPointer(start: nil, count: 0))
    }

    /// Encodes the `fresh` cells and the cells of `old` (located in `oldSpans`) they do not
    /// write, all in UTF-8 order of storage keys; `nil` when no old cell is kept (the row is then
    /// the fresh one, byte for byte).
    /// The row lies in `mergeEncoder` when `merging` (inside the upsert), else in `encoder`.
    private func encodeMerged(
        key: String, deleted: Bool, entity: Bool, typeID: Int, old: UnsafeRawBufferPointer, merging: Bool = false
    ) -> UnsafeRawBufferPointer? {
        kept.removeAll(keepingCapacity: true)
        let freshSet = freshIDs.count > 16 ? Set(freshIDs) : nil
        for span in oldSpans {
            let written = freshSet?.contains(span.nameID) ?? freshIDs.contains(span.nameID)
            if !written, let slot = names.slot(ofID: span.nameID) { kept.append((rank(of: slot), span)) }
        }
        guard !kept.isEmpty else { return nil }
        if kept.count > 1 { kept.sort { $0.rank < $1.rank } }
        stamps.formUnion(oldSink.nameIDs)
        if merging {
            return encodeCells(&mergeEncoder, key: key, deleted: deleted, entity: entity, typeID: typeID, old: old)
        }
        return encodeCells(&encoder, key: key, deleted: deleted, entity: entity, typeID: typeID, old: old)
    }

    /// Encodes the `fresh` cells and the `kept` cells of `old`, merged by rank, into `encoder`;
    /// answers the row where it lies there.
    private func encodeCells(
        _ encoder: inout RowEncoder, key: String, deleted: Bool, entity: Bool, typeID: Int, old: UnsafeRawBufferPointer
    ) -> UnsafeRawBufferPointer {
        encoder.beginRow(deleted: deleted, entity: entity, typeID: typeID, cellCount: fresh.count + kept.count)
        let fresh = self.fresh
        let freshIDs = self.freshIDs
        let linkTypes = resolvedLinkTypes
        var nextLink = 0
        var f = 0
        var k = 0
        while f < fresh.count || k < kept.count {
            if k == kept.count || (f < fresh.count && fresh[f].rank < kept[k].rank) {
                encoder.cell(nameID: freshIDs[f], cell(fresh[f])) { key in
                    if looksUpLinkTypes { return lookUpLinkType(key) }
                    // The fresh cells' links, in the order the encoder meets them.
                    defer { nextLink += 1 }
                    return nextLink < linkTypes.count ? linkTypes[nextLink] : .unknown
                }
                f += 1
            } else {
                encoder.rawCell(UnsafeRawBufferPointer(rebasing: old[kept[k].span.range]))
                k += 1
            }
        }
        encoder.sealRow(key: key)
        return encoder.row
    }

    // MARK: Root fields and fetch times

    /// Writes one query-root field's row; `types` is the batch's link types (see
    /// ``rootLinkTypes(of:)``), built by the first root field that has links.
    func write(rootField field: NamedCell, of batch: WriteBatch, types: inout [RecordKey: String]?) throws(SQLiteError) {
        var hasLinks = false
        field.cell.value.forEachLink { _ in hasLinks = true }
        if hasLinks && types == nil { types = Self.rootLinkTypes(of: batch) }
        let known = types ?? [:]
        var missing: [String] = []
        field.cell.value.forEachLink { key in
            if let type = known[key], names.id(of: type) == nil { missing.append(type) }
        }
        for type in missing.sorted(by: utf8Precedes) where names.id(of: type) == nil {
            _ = try intern(type)
        }
        encoder.sealRootCell(field: field.storageKey, field.cell) { self.linkType(known[$0]) }
        try upsert(connection.cached(ImageSchema.SQL.upsertRoot), key: field.storageKey, blob: encoder.row)
        summary.rootFields += 1
    }

    /// Writes one operation's fetch time.
    func write(fetch: FetchStamp) throws(SQLiteError) {
        // SQLite stores NaN as NULL, which `time REAL NOT NULL` refuses and no retry would cure:
        // a time that is not a number is no time (the operation's age stays unknown).
        guard !fetch.time.isNaN else { return }
        let time = TableChecksum.storedTime(fetch.time)
        let statement = try connection.cached(ImageSchema.SQL.upsertFetch)
        defer { statement.reset() }
        try statement.bind(fetch.operation.rawValue, at: 1)
        try statement.bind(stamp, at: 2)
        try statement.bind(time, at: 3)
        try statement.bind(TableChecksum.stored(TableChecksum.fetch(operation: fetch.operation.rawValue, time: time)), at: 4)
        try statement.run()
        summary.fetches += 1
    }

    /// The statement in `slot`, taken from the connection's cache the first time.
    private func held(_ slot: inout Statement?, _ sql: String) throws(SQLiteError) -> Statement {
        if let statement = slot { return statement }
        let statement = try connection.cached(sql)
        slot = statement
        return statement
    }

    /// Runs an upsert of `blob` under `key`, both read by SQLite where they are (no copies).
    private func upsert(_ statement: Statement, key: String, blob: UnsafeRawBufferPointer) throws(SQLiteError) {
        var key = key
        let failure: SQLiteError? = key.withUTF8 { key in
            do throws(SQLiteError) {
                defer { statement.resetUnbinding(1, 3) }
                try statement.bindBorrowed(text: key, at: 1)
                try statement.bind(stamp, at: 2)
                try statement.bindBorrowed(blob: blob, at: 3)
                try statement.run()
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    // MARK: Helpers

    /// The types of a batch's records for its root fields' links (the batch carries none of its
    /// own): each snapshot's type (the last snapshot of a key wins), then for other keys the
    /// first snapshot in batch order whose link types know it.
    static func rootLinkTypes(of batch: WriteBatch) -> [RecordKey: String] {
        // A store's batch carries the type of every record its commit wrote: that is the table.
        if let types = batch.recordTypes { return types.withTable { $0 } }
        var types: [RecordKey: String] = [:]
        for snapshot in batch.snapshots {
            types[snapshot.key] = snapshot.typename
        }
        var known = Set(types.keys)
        for snapshot in batch.snapshots {
            for (key, type) in snapshot.linkTypes where !known.contains(key) {
                types[key] = type
            }
            known.formUnion(snapshot.linkTypes.keys)
        }
        return types
    }
}
