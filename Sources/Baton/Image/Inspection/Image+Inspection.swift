import Foundation

/// A record's row as the file holds it, for tests, the simulator and `baton image dump`.
package struct ImageRecordRow: Sendable, Hashable {
    package var key: RecordKey
    /// The generation of the launch that last wrote or read the row.
    package var used: Int
    /// The row decoded; `nil` when it does not decode (a miss for the check).
    package var record: ImageRecord?
    /// Every cell the row holds, a deleted row's included (the image writes none for those).
    package var storedCells: [NamedCell]
    /// The type recorded with each link target (absent: unknown).
    package var linkTypes: [RecordKey: String]
}

/// A query-root field's row.
package struct ImageRootRow: Sendable, Hashable {
    package var field: String
    package var used: Int
    /// `nil` when the cell does not decode.
    package var cell: Cell?
    /// The type recorded with each link target (absent: unknown).
    package var linkTypes: [RecordKey: String]
}

/// An operation's fetch time.
package struct ImageFetchRow: Sendable, Hashable {
    package var operation: OperationIdentity
    package var used: Int
    package var time: Double
    /// False when the row's checksum fails: the check takes the age as unknown.
    package var verified: Bool
}

/// An interned name.
package struct ImageNameRow: Sendable, Hashable {
    package var id: Int
    package var name: String
    package var used: Int
    /// False when the row's checksum fails: the name is never loaded, and rows that use it miss.
    package var verified: Bool
}

/// Counts and sizes of an image.
package struct ImageStats: Sendable, Hashable {
    package var generation = 0
    package var records = 0
    package var deletedRecords = 0
    /// Rows that fail to decode (their checksum, or a name they use, fails).
    package var damagedRecords = 0
    package var rootFields = 0
    package var damagedRootFields = 0
    package var fetches = 0
    package var damagedFetches = 0
    package var names = 0
    package var damagedNames = 0
    /// Stretches of tables SQLite could not read at all.
    package var unreadable: [ImageUnreadableRange] = []
    package var pageSize = 0
    package var pageCount = 0
    /// The database's size in pages (`page_count × page_size`), the WAL not included.
    package var fileBytes: Int { pageSize * pageCount }
    /// The WAL file's size on disk (default VFS only).
    package var walBytes: Int?
    /// Records per `used` generation, oldest first.
    package var usedHistogram: [UsedCount] = []

    /// How many records a generation last stamped.
    package struct UsedCount: Sendable, Hashable {
        package var used: Int
        package var records: Int
    }

    /// True when every row was read and verifies.
    package var isSound: Bool {
        damagedRecords == 0 && damagedRootFields == 0 && damagedFetches == 0 && damagedNames == 0 && unreadable.isEmpty
    }
}

/// Every row of an image, as `baton image dump` shows it, and what could not be read.
package struct ImageDump: Sendable {
    package var records: [ImageRecordRow] = []
    package var rootFields: [ImageRootRow] = []
    package var fetches: [ImageFetchRow] = []
    package var names: [ImageNameRow] = []
    /// Stretches of tables SQLite could not read at all.
    package var unreadable: [ImageUnreadableRange] = []

    /// The rows that were read but do not verify, by table: record keys, root fields,
    /// operations and name ids. The check misses each of them.
    package var damaged: [(table: String, keys: [String])] {
        [
            ("records", records.filter { $0.record == nil }.map(\.key.rawValue)),
            ("root", rootFields.filter { $0.cell == nil }.map(\.field)),
            ("fetches", fetches.filter { !$0.verified }.map(\.operation.rawValue)),
            ("names", names.filter { !$0.verified }.map { String($0.id) }),
        ].filter { !$0.keys.isEmpty }
    }

    /// True when every row was read and verifies.
    package var isSound: Bool { damaged.isEmpty && unreadable.isEmpty }
}

/// A names table holding every name of the file that verifies, aged out or not, for dumps.
private struct AllNames: RowNames {
    var byID: [Int: String] = [:]
    func name(ofID id: Int) -> String? { byID[id] }
}

extension Image {
    /// Every row of every table, aged out or not, with what could not be read; `nil` without a
    /// file (foreign, closed) or when no read transaction can start.
    package func dump() -> ImageDump? {
        inspecting { connection, names in
            var dump = ImageDump()
            dump.names = names.rows
            dump.unreadable += names.gap.map { [$0] } ?? []
            var gap: ImageUnreadableRange?
            (dump.records, gap) = Self.recordRows(connection, names.table, stampBase: names.stampBase)
            dump.unreadable += gap.map { [$0] } ?? []
            (dump.rootFields, gap) = Self.rootRows(connection, names.table, stampBase: names.stampBase)
            dump.unreadable += gap.map { [$0] } ?? []
            (dump.fetches, gap) = Self.fetchRows(connection, stampBase: names.stampBase)
            dump.unreadable += gap.map { [$0] } ?? []
            return dump
        }
    }

    /// Every record's row in key order (UTF-8 bytes), aged out or not, as far as SQLite can read
    /// them; empty without a file.
    package func dumpRecords() -> [ImageRecordRow] {
        inspecting { connection, names in Self.recordRows(connection, names.table, stampBase: names.stampBase).rows } ?? []
    }

    /// Every query-root field's row in field order; empty without a file.
    package func dumpRootFields() -> [ImageRootRow] {
        inspecting { connection, names in Self.rootRows(connection, names.table, stampBase: names.stampBase).rows } ?? []
    }

    /// Every fetch time in operation order; empty without a file.
    package func dumpFetches() -> [ImageFetchRow] {
        inspecting { connection, names in Self.fetchRows(connection, stampBase: names.stampBase).rows } ?? []
    }

    /// Every name in id order; empty without a file.
    package func dumpNames() -> [ImageNameRow] {
        inspecting { _, names in names.rows } ?? []
    }

    /// Counts, sizes and the age of the rows; `nil` without a file.
    package func stats() -> ImageStats? {
        let generation = self.generation
        var stats = inspecting { connection, names -> ImageStats in
            var stats = ImageStats()
            stats.generation = generation
            stats.names = names.rows.count
            stats.damagedNames = names.rows.filter { !$0.verified }.count
            stats.unreadable += names.gap.map { [$0] } ?? []
            let records = Self.recordRows(connection, names.table, stampBase: names.stampBase)
            var histogram: [Int: Int] = [:]
            for row in records.rows {
                stats.records += 1
                histogram[row.used, default: 0] += 1
                switch row.record {
                case nil: stats.damagedRecords += 1
                case .deleted?: stats.deletedRecords += 1
                case .present?: break
                }
            }
            stats.usedHistogram = histogram.keys.sorted().map { ImageStats.UsedCount(used: $0, records: histogram[$0]!) }
            stats.unreadable += records.gap.map { [$0] } ?? []
            let root = Self.rootRows(connection, names.table, stampBase: names.stampBase)
            stats.rootFields = root.rows.count
            stats.damagedRootFields = root.rows.filter { $0.cell == nil }.count
            stats.unreadable += root.gap.map { [$0] } ?? []
            let fetches = Self.fetchRows(connection, stampBase: names.stampBase)
            stats.fetches = fetches.rows.count
            stats.damagedFetches = fetches.rows.filter { !$0.verified }.count
            stats.unreadable += fetches.gap.map { [$0] } ?? []
            stats.pageSize = try connection.scalarInt("PRAGMA page_size") ?? 0
            stats.pageCount = try connection.scalarInt("PRAGMA page_count") ?? 0
            return stats
        }
        if vfs == nil, let size = (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int {
            stats?.walBytes = size
        }
        return stats
    }

    // MARK: Tables

    /// What the file's `used` columns add to a launch, by the format it is marked with (a file
    /// of an older format is inspected as it is: only a live open moves its stamps).
    private static func stampBase(_ connection: Connection) -> Int {
        let format = (try? connection.scalarInt("PRAGMA user_version")) ?? nil
        return ImageSchema.stampBase(ofFormat: format ?? ImageSchema.rowFormatVersion)
    }

    private static func recordRows(
        _ connection: Connection, _ names: AllNames, stampBase base: Int
    ) -> (rows: [ImageRecordRow], gap: ImageUnreadableRange?) {
        TableScan(connection: connection, table: "records", keyColumn: "key", integerKey: false, columns: "key, used, row")
            .rows { statement in
                let key = statement.text(0)
                var sink = RowDecodeSink(collectsLinkTypes: true)
                let row = statement.withBlob(2) { RowDecoder.decodeRow($0, key: key, names: names, sink: &sink) }
                return ImageRecordRow(
                    key: RecordKey(key), used: statement.int(1) - base, record: row?.record, storedCells: row?.cells ?? [],
                    linkTypes: linkTypeNames(sink, names))
            }
    }

    private static func rootRows(
        _ connection: Connection, _ names: AllNames, stampBase base: Int
    ) -> (rows: [ImageRootRow], gap: ImageUnreadableRange?) {
        TableScan(connection: connection, table: "root", keyColumn: "field", integerKey: false, columns: "field, used, cell")
            .rows { statement in
                let field = statement.text(0)
                var sink = RowDecodeSink(collectsLinkTypes: true)
                let cell = statement.withBlob(2) { RowDecoder.decodeRootCell($0, field: field, names: names, sink: &sink) }
                return ImageRootRow(field: field, used: statement.int(1) - base, cell: cell, linkTypes: linkTypeNames(sink, names))
            }
    }

    private static func fetchRows(_ connection: Connection, stampBase base: Int) -> (rows: [ImageFetchRow], gap: ImageUnreadableRange?) {
        TableScan(connection: connection, table: "fetches", keyColumn: "operation", integerKey: false, columns: "operation, used, time, crc")
            .rows { statement in
                let operation = statement.text(0)
                let time = statement.double(2)
                let verified = statement.int(3) == TableChecksum.stored(TableChecksum.fetch(operation: operation, time: time))
                return ImageFetchRow(operation: OperationIdentity(operation), used: statement.int(1) - base, time: time, verified: verified)
            }
    }

    /// The names of the file: every row (verified or not) and a table of those that verify; and
    /// what the file's `used` columns add to a launch, read once with them.
    private struct Names {
        var rows: [ImageNameRow]
        var table: AllNames
        var gap: ImageUnreadableRange?
        var stampBase: Int
    }

    private static func nameRows(_ connection: Connection) -> Names {
        let base = stampBase(connection)
        var table = AllNames()
        let (rows, gap) = TableScan(connection: connection, table: "names", keyColumn: "id", integerKey: true, columns: "id, name, used, crc")
            .rows { statement in
                let verified = NameTable.verifiedName(statement)
                if let (id, name) = verified { table.byID[id] = name }
                return ImageNameRow(id: statement.int(0), name: statement.text(1), used: statement.int(2) - base, verified: verified != nil)
            }
        return Names(rows: rows, table: table, gap: gap, stampBase: base)
    }

    /// `PRAGMA integrity_check`'s answer, lines joined (`"ok"` for a sound file); an error's
    /// description when it cannot run; `"no file"` without one.
    package func integrityCheck() -> String {
        core.withState { state in
            guard let connection = state.connection, !state.halted, !state.inRead else { return "no file" }
            do throws(SQLiteError) {
                let statement = try connection.prepare("PRAGMA integrity_check")
                defer { statement.reset() }
                var lines: [String] = []
                while try statement.step() { lines.append(statement.text(0)) }
                return lines.joined(separator: "\n")
            } catch {
                return error.description
            }
        }
    }

    /// A `meta` value as text (`generation`, `version`), for tools.
    package func meta(_ key: String) -> String? {
        inspecting { connection, _ in
            let statement = try connection.prepare(ImageSchema.SQL.selectMeta)
            defer { statement.reset() }
            try statement.bind(key, at: 1)
            return try statement.step() ? statement.text(0) : nil
        } ?? nil
    }

    /// The connection's statement counts, for leak checks: (prepared, busy, cached).
    package func statementCounts() -> (live: Int, busy: Int, cached: Int) {
        core.withState { state in
            guard let connection = state.connection else { return (0, 0, 0) }
            return (connection.liveStatementCount, connection.busyStatementCount, connection.cachedStatementCount)
        }
    }

    /// The link types a decode collected, as names (unknown types left out).
    private static func linkTypeNames(_ sink: RowDecodeSink, _ names: AllNames) -> [RecordKey: String] {
        var types: [RecordKey: String] = [:]
        for (target, typeID) in sink.linkTypes where typeID != 0 {
            types[target] = names.name(ofID: typeID)
        }
        return types
    }

    /// Runs `body` in a read transaction with every name of the file; `nil` without a file or
    /// when the transaction cannot start.
    private func inspecting<R>(_ body: (Connection, Names) throws -> R) -> R? {
        core.withState { state in
            guard let connection = state.connection, !state.halted, !state.inRead else { return nil }
            do {
                try connection.execute("BEGIN")
                defer { connection.rollbackIfNeeded() }
                return try body(connection, Self.nameRows(connection))
            } catch {
                return nil
            }
        }
    }
}
