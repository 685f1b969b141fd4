/// One drain's transaction: everything it writes, in order, on the image's connection.
///
/// Order inside the transaction: the launch's eviction (first drain of a launch only), the
/// overflow wipe (when asked), the check's stamps, then every snapshot, root field and fetch
/// time in queue order, then the stamps of the names the written rows use. A name the image
/// lacks is added when the first row that uses it is written (a snapshot's new link types
/// sorted by UTF-8 first, then its type and storage keys in cell order), so ids follow the queue
/// and never a dictionary's order. Names are worked on in a copy of the image's table that the
/// image keeps only on commit.
final class DrainTransaction {
    let connection: Connection
    let state: ImageState
    let generation: Int
    let rules: ImageRules
    /// The image's names as this transaction leaves them.
    var names: NameTable
    /// Name ids the transaction's rows use (and the check read): stamped `used = G` at the end.
    var stamps = NameIDSet()
    var summary = DrainSummary()
    /// Row writes so far (snapshots, root fields, fetch times), for `drain(stoppingAfter:)`.
    var writes = 0

    private var encoder = RowEncoder()
    /// The row a merge reads, copied out of SQLite, and where its cells lie.
    private var oldRow: [UInt8] = []
    private var oldSpans: [RowCellSpan] = []
    private var oldSink = RowDecodeSink()
    /// The last link type resolved, and its id: links of a drain mostly share a few types.
    private var lastLinkType: String?
    private var lastLinkTypeID = 0
    /// Scratch of one row's encoding: the fresh cells' name ids, the old cells kept.
    private var freshIDs: [Int] = []
    private var kept: [(name: String, span: RowCellSpan)] = []

    init(connection: Connection, state: ImageState) {
        self.connection = connection
        self.state = state
        self.generation = state.generation
        self.rules = state.rules
        self.names = state.names
    }

    // MARK: Housekeeping

    /// Deletes the rows (and names) of earlier launches that this launch no longer reads.
    func evict() throws(SQLiteError) {
        guard let visibleFrom = state.visibleFrom else { return }
        for (table, _) in ImageSchema.agingTables {
            try connection.execute("DELETE FROM \(table) WHERE used < \(visibleFrom)")
        }
        summary.evicted = true
    }

    /// Empties every aging table, after the queue overflowed.
    func wipe() throws(SQLiteError) {
        for (table, _) in ImageSchema.agingTables {
            try connection.execute("DELETE FROM \(table)")
        }
        names = NameTable()
        summary.wiped = true
    }

    /// Stamps what the check read, in UTF-8 order of keys.
    func stamp(_ touches: ImageTouches) throws(SQLiteError) {
        try stamp(touches.records, sql: ImageSchema.SQL.stampRecord)
        try stamp(touches.rootFields, sql: ImageSchema.SQL.stampRoot)
        try stamp(touches.fetches, sql: ImageSchema.SQL.stampFetch)
        stamps.formUnion(touches.names)
        summary.touches = touches.count
    }

    private func stamp(_ keys: Set<ExactText>, sql: String) throws(SQLiteError) {
        guard !keys.isEmpty else { return }
        let statement = try connection.cached(sql)
        defer { statement.reset() }
        for key in keys.sorted() {
            statement.reset()
            try statement.bind(generation, at: 1)
            try statement.bind(key.string, at: 2)
            try statement.run()
        }
    }

    // MARK: Names

    /// The id of `name`, adding the name to the image when it is new; marks it for stamping.
    private func intern(_ name: String) throws(SQLiteError) -> Int {
        if let id = names.id(of: name) {
            stamps.insert(id)
            return id
        }
        let statement = try connection.cached(ImageSchema.SQL.upsertName)
        defer { statement.reset() }
        try statement.bind(name, at: 1)
        try statement.bind(generation, at: 2)
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
        if storedChecksum != checksum {
            // A new name (its id was not known before the insert), or a damaged checksum over a
            // name whose text is intact: the row is set right for every row that uses the id.
            let fix = try connection.cached(ImageSchema.SQL.setNameChecksum)
            defer { fix.reset() }
            try fix.bind(checksum, at: 1)
            try fix.bind(id, at: 2)
            try fix.run()
        }
        names.insert(id: id, name: name, stamped: true)
        stamps.insert(id)
        summary.newNames += 1
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
            try statement.bind(generation, at: 1)
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

    // MARK: Records

    /// Writes one snapshot by the merge rule; stamps its row `used = G`.
    func write(_ snapshot: Snapshot) throws(SQLiteError) {
        let key = snapshot.key.rawValue
        // A store's snapshot works its link types and named cells out when read: read each once.
        let linkTypes = snapshot.linkTypes
        try internLinkTypes(linkTypes)
        let typeID = try intern(snapshot.typename)
        let entity = RowFormat.isEntity(key: key, typename: snapshot.typename)
        let row: [UInt8]
        if snapshot.deleted {
            // A deletion replaces its row; the mutant keeps the old cells under the flag.
            if rules.deletedCellsRevive, try readOldRow(key) != nil {
                freshIDs.removeAll(keepingCapacity: true)
                row = encodeMerged(key: key, deleted: true, entity: entity, typeID: typeID, fresh: [], linkTypes: [:], keepOld: true)
            } else {
                encoder.beginRow(deleted: true, entity: entity, typeID: typeID, cellCount: 0)
                row = encoder.finish(key: key)
            }
        } else {
            let cells = Self.orderedCells(snapshot.cells)
            var keepOld = false
            if !snapshot.hydrated && !rules.partialSnapshotReplaces, let old = try readOldRow(key) {
                // Merge over a present row; a deleted row's cells never come back.
                keepOld = !old.deleted || rules.deletedCellsRevive
                if keepOld { summary.merged += 1 }
            }
            row = try encodeFresh(
                key: key, entity: entity, typeID: typeID, cells: cells, linkTypes: linkTypes, keepOld: keepOld)
        }
        try upsert(ImageSchema.SQL.upsertRecord, key: key, blob: row)
        summary.snapshots += 1
    }

    /// Reads the row under `key` as the image holds it in this transaction, into `oldRow`; `nil`
    /// when missing, aged out, or not decodable (a miss: the snapshot then stands alone).
    private func readOldRow(_ key: String) throws(SQLiteError) -> (deleted: Bool, typeID: Int)? {
        let statement = try connection.cached(ImageSchema.SQL.selectRecord)
        defer { statement.reset() }
        try statement.bind(key, at: 1)
        guard try statement.step(), state.isVisible(used: statement.int(0)) else { return nil }
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

    /// Encodes a present row: `cells`, then (when `keepOld`) the old row's cells they do not write.
    private func encodeFresh(
        key: String, entity: Bool, typeID: Int, cells: [NamedCell], linkTypes: [RecordKey: String], keepOld: Bool
    ) throws(SQLiteError) -> [UInt8] {
        freshIDs.removeAll(keepingCapacity: true)
        for cell in cells { freshIDs.append(try intern(cell.storageKey)) }
        return encodeMerged(key: key, deleted: false, entity: entity, typeID: typeID, fresh: cells, linkTypes: linkTypes, keepOld: keepOld)
    }

    /// Encodes `fresh` cells (their name ids in `freshIDs`) and, when `keepOld`, the old row's
    /// cells they do not write, all sorted by storage key.
    private func encodeMerged(
        key: String, deleted: Bool, entity: Bool, typeID: Int, fresh: [NamedCell], linkTypes: [RecordKey: String],
        keepOld: Bool
    ) -> [UInt8] {
        kept.removeAll(keepingCapacity: true)
        if keepOld {
            let freshSet = fresh.count > 16 ? Set(freshIDs) : nil
            for span in oldSpans {
                let written = freshSet?.contains(span.nameID) ?? freshIDs.contains(span.nameID)
                if !written, let name = names.name(ofID: span.nameID) { kept.append((name, span)) }
            }
            if kept.count > 1 { kept.sort { utf8Precedes($0.name, $1.name) } }
            if !kept.isEmpty { stamps.formUnion(oldSink.nameIDs) }
        }
        encoder.beginRow(deleted: deleted, entity: entity, typeID: typeID, cellCount: fresh.count + kept.count)
        var f = 0
        var k = 0
        while f < fresh.count || k < kept.count {
            if k == kept.count || (f < fresh.count && utf8Precedes(fresh[f].storageKey, kept[k].name)) {
                encoder.cell(nameID: freshIDs[f], fresh[f].cell) { self.linkType(linkTypes[$0]) }
                f += 1
            } else {
                let range = kept[k].span.range
                oldRow.withUnsafeBytes { encoder.rawCell(UnsafeRawBufferPointer(rebasing: $0[range])) }
                k += 1
            }
        }
        return encoder.finish(key: key)
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
        let blob = encoder.rootCell(field: field.storageKey, field.cell) { self.linkType(known[$0]) }
        try upsert(ImageSchema.SQL.upsertRoot, key: field.storageKey, blob: blob)
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
        try statement.bind(generation, at: 2)
        try statement.bind(time, at: 3)
        try statement.bind(TableChecksum.stored(TableChecksum.fetch(operation: fetch.operation.rawValue, time: time)), at: 4)
        try statement.run()
        summary.fetches += 1
    }

    private func upsert(_ sql: String, key: String, blob: [UInt8]) throws(SQLiteError) {
        let statement = try connection.cached(sql)
        defer { statement.reset() }
        try statement.bind(key, at: 1)
        try statement.bind(generation, at: 2)
        try statement.bind(blob: blob, at: 3)
        try statement.run()
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

    /// Cells sorted by storage key (UTF-8), the last of duplicates kept; the input when already so.
    static func orderedCells(_ cells: [NamedCell]) -> [NamedCell] {
        var ordered = true
        for index in cells.indices.dropFirst() where !utf8Precedes(cells[index - 1].storageKey, cells[index].storageKey) {
            ordered = false
            break
        }
        if ordered { return cells }
        var sorted = Array(cells.enumerated())
        sorted.sort { lhs, rhs in
            if utf8Equal(lhs.element.storageKey, rhs.element.storageKey) { return lhs.offset < rhs.offset }
            return utf8Precedes(lhs.element.storageKey, rhs.element.storageKey)
        }
        var result: [NamedCell] = []
        result.reserveCapacity(sorted.count)
        for (_, cell) in sorted {
            if let last = result.last, utf8Equal(last.storageKey, cell.storageKey) {
                result[result.count - 1] = cell
            } else {
                result.append(cell)
            }
        }
        return result
    }
}
