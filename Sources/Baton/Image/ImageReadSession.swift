/// The check's view of the image inside one read transaction.
///
/// Answers come only from rows this launch may read (`used` not older than the previous
/// launch); a row that is missing, aged out or fails to decode is a miss. Every answer notes the
/// row and its names as touched, for the writer's next drain to stamp. Any SQLite error is a
/// failed read for that item; an error other than "not now" makes every further answer of the
/// session a failed read, and a corrupt file is marked for recreation.
final class ImageReadSession: ImageReadTransaction, SlotRowSource {
    private let state: ImageState
    private let connection: Connection
    /// The records' select, prepared once per connection and held for the session's rows (a
    /// lookup in the connection's cache hashes the SQL text).
    @exclusivity(unchecked) private var recordStatement: Statement?
    /// The image's names as the session found them: no drain runs while a read is open, so
    /// they cannot change under it (held here so that a row's decode does not copy the table).
    private let names: NameTable
    @exclusivity(unchecked) private var sink = RowDecodeSink()
    /// False once the read transaction ended or the file proved unreadable.
    private(set) var isOpen = true
    /// Whether the session noted anything for the writer (stamps or a reset).
    private(set) var needsWriter = false
    /// Whether reads stamp rows (not in an inspection).
    private let touches: Bool
    /// This launch's generation and the oldest `used` a row may have to be read (`nil`: any),
    /// as the session found them: neither changes while a read is open.
    private let generation: Int
    private let visibleFrom: Int?
    /// Name ids this session already noted (by id), so a name shared by many rows is noted once.
    @exclusivity(unchecked) private var notedNames: [Bool] = []

    init(state: ImageState, connection: Connection) {
        self.state = state
        self.connection = connection
        self.names = state.names
        self.touches = state.mode == .live
        self.generation = state.generation
        self.visibleFrom = state.visibleFrom
        sink.listDepthLimit = state.rules.listDepthLimit
        sink.slotRowsDropErrors = state.rules.slotRowsDropErrors
    }

    /// ``ImageState/isVisible(used:)`` from the session's own copy of the bound.
    @inline(__always)
    private func isVisible(used: Int) -> Bool {
        guard let visibleFrom else { return true }
        return used >= visibleFrom
    }

    /// Ends the session: later calls (from a body that kept the transaction) miss.
    func close() {
        isOpen = false
        recordStatement = nil
    }

    func record(_ key: RecordKey) -> ImageRowLookup {
        switch readRecord(key, decode: { bytes, names, sink in
            RowDecoder.decodeRow(bytes, key: key.rawValue, names: names, sink: &sink)
        }) {
        case .found(let row): .found(row.record)
        case .absent: .absent
        case .unreadable: .unreadable
        }
    }

    func slotRecord(_ key: RecordKey) -> SlotRowLookup {
        readRecord(key) { bytes, names, sink in
            RowDecoder.decodeSlots(bytes, key: key.rawValue, names: names, sink: &sink)
        }
    }

    /// Reads and decodes the row of `key` with `decode`; a row that does not decode is absent.
    private func readRecord<Row>(
        _ key: RecordKey, decode: (UnsafeRawBufferPointer, NameTable, inout RowDecodeSink) -> Row?
    ) -> RowRead<Row> {
        guard isOpen else { return .unreadable }
        // The key is bound where it is (no copy per row), and unbound before its bytes go.
        var text = key.rawValue
        return text.withUTF8 { utf8 in
            do throws(SQLiteError) {
                let statement: Statement
                if let recordStatement {
                    statement = recordStatement
                } else {
                    statement = try connection.cached(ImageSchema.SQL.selectRecord)
                    recordStatement = statement
                }
                defer { statement.resetUnbinding(1) }
                try statement.bindBorrowed(text: utf8, at: 1)
                guard try statement.step() else { return .absent }
                let used = ImageSchema.launch(ofStamp: statement.int(0))
                guard isVisible(used: used) else { return .absent }
                sink.nameIDs.removeAll(keepingCapacity: true)
                let row = statement.withBlob(1) { bytes in decode(bytes, names, &sink) }
                guard let row else {
                    state.damageSeen = true
                    return .absent
                }
                if touches {
                    if used != generation {
                        state.touches.records.append(key.rawValue)
                        needsWriter = true
                    }
                    noteNames()
                }
                return .found(row)
            } catch {
                fail(error)
                return .unreadable
            }
        }
    }

    func rootField(_ storageKey: String) -> Cell? {
        guard isOpen else { return nil }
        do throws(SQLiteError) {
            let statement = try connection.cached(ImageSchema.SQL.selectRoot)
            defer { statement.reset() }
            try statement.bind(storageKey, at: 1)
            guard try statement.step() else { return nil }
            let used = ImageSchema.launch(ofStamp: statement.int(0))
            guard isVisible(used: used) else { return nil }
            sink.nameIDs.removeAll(keepingCapacity: true)
            let cell = statement.withBlob(1) { bytes in
                RowDecoder.decodeRootCell(bytes, field: storageKey, names: names, sink: &sink)
            }
            guard let cell else {
                state.damageSeen = true
                return nil
            }
            if touches {
                if used != generation {
                    state.touches.rootFields.append(storageKey)
                    needsWriter = true
                }
                noteNames()
            }
            return cell
        } catch {
            fail(error)
            return nil
        }
    }

    func fetchTime(_ operation: OperationIdentity) -> Double? {
        guard isOpen else { return nil }
        do throws(SQLiteError) {
            let statement = try connection.cached(ImageSchema.SQL.selectFetch)
            defer { statement.reset() }
            try statement.bind(operation.rawValue, at: 1)
            guard try statement.step() else { return nil }
            let used = ImageSchema.launch(ofStamp: statement.int(0))
            guard isVisible(used: used) else { return nil }
            let time = statement.double(1)
            // A fetch row that does not verify is an unknown age, never a wrong one.
            guard statement.int(2) == TableChecksum.stored(TableChecksum.fetch(operation: operation.rawValue, time: time)) else {
                state.damageSeen = true
                return nil
            }
            if touches, used != generation {
                state.touches.fetches.append(operation.rawValue)
                needsWriter = true
            }
            return time
        } catch {
            fail(error)
            return nil
        }
    }

    private func note(_ added: Bool) {
        if added { needsWriter = true }
    }

    /// Notes the names of the row just read that are not stamped in this launch yet.
    private func noteNames() {
        for id in sink.nameIDs {
            if id < notedNames.count && notedNames[id] { continue }
            if id < 1 << 20 {
                if id >= notedNames.count { notedNames.append(contentsOf: repeatElement(false, count: id + 1 - notedNames.count)) }
                notedNames[id] = true
            }
            if !names.isStamped(id) { note(state.touches.names.insert(id).inserted) }
        }
    }

    /// A failed read: a miss. Unless it only says "not now", the rest of the session misses too;
    /// only a file SQLite calls corrupt or not a database is started again (an I/O error may pass,
    /// and a file is not thrown away for it).
    func fail(_ error: SQLiteError) {
        guard !error.isTransient else { return }
        isOpen = false
        guard error.meansUnreadableFile else { return }
        state.resetPending = true
        needsWriter = true
    }
}
