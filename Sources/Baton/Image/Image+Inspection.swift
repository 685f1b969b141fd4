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
    /// Rows that fail to decode.
    package var damagedRecords = 0
    package var rootFields = 0
    package var fetches = 0
    package var names = 0
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
}

/// A names table holding every name of the file that verifies, aged out or not, for dumps.
private struct AllNames: RowNames {
    var byID: [Int: String] = [:]
    func name(ofID id: Int) -> String? { byID[id] }
}

extension Image {
    /// Every record's row in key order (UTF-8 bytes), aged out or not; empty without a file.
    package func dumpRecords() -> [ImageRecordRow] {
        inspecting { connection, names in
            var rows: [ImageRecordRow] = []
            let statement = try connection.prepare("SELECT key, used, row FROM records ORDER BY key")
            defer { statement.reset() }
            while try statement.step() {
                let key = statement.text(0)
                var sink = RowDecodeSink(collectsLinkTypes: true)
                let row = statement.withBlob(2) { RowDecoder.decodeRow($0, key: key, names: names, sink: &sink) }
                rows.append(ImageRecordRow(
                    key: RecordKey(key), used: statement.int(1), record: row?.record, storedCells: row?.cells ?? [],
                    linkTypes: Self.linkTypeNames(sink, names)))
            }
            return rows
        } ?? []
    }

    /// Every query-root field's row in field order; empty without a file.
    package func dumpRootFields() -> [ImageRootRow] {
        inspecting { connection, names in
            var rows: [ImageRootRow] = []
            let statement = try connection.prepare("SELECT field, used, cell FROM root ORDER BY field")
            defer { statement.reset() }
            while try statement.step() {
                let field = statement.text(0)
                var sink = RowDecodeSink(collectsLinkTypes: true)
                let cell = statement.withBlob(2) { RowDecoder.decodeRootCell($0, field: field, names: names, sink: &sink) }
                rows.append(ImageRootRow(
                    field: field, used: statement.int(1), cell: cell, linkTypes: Self.linkTypeNames(sink, names)))
            }
            return rows
        } ?? []
    }

    /// Every fetch time in operation order; empty without a file.
    package func dumpFetches() -> [ImageFetchRow] {
        inspecting { connection, _ in
            var rows: [ImageFetchRow] = []
            let statement = try connection.prepare("SELECT operation, used, time, crc FROM fetches ORDER BY operation")
            defer { statement.reset() }
            while try statement.step() {
                let operation = statement.text(0)
                let time = statement.double(2)
                let verified = statement.int(3) == TableChecksum.stored(TableChecksum.fetch(operation: operation, time: time))
                rows.append(ImageFetchRow(
                    operation: OperationIdentity(operation), used: statement.int(1), time: time, verified: verified))
            }
            return rows
        } ?? []
    }

    /// Every name in id order; empty without a file.
    package func dumpNames() -> [ImageNameRow] {
        inspecting { connection, _ in
            var rows: [ImageNameRow] = []
            let statement = try connection.prepare(ImageSchema.SQL.selectNames)
            defer { statement.reset() }
            while try statement.step() {
                let verified = NameTable.verifiedName(statement) != nil
                rows.append(ImageNameRow(id: statement.int(0), name: statement.text(1), used: statement.int(2), verified: verified))
            }
            return rows
        } ?? []
    }

    /// Counts, sizes and the age of the rows; `nil` without a file.
    package func stats() -> ImageStats? {
        let generation = self.generation
        var stats = inspecting { connection, names -> ImageStats in
            var stats = ImageStats()
            stats.generation = generation
            let rows = try connection.prepare("SELECT key, row FROM records")
            defer { rows.reset() }
            while try rows.step() {
                stats.records += 1
                let key = rows.text(0)
                var sink = RowDecodeSink()
                switch rows.withBlob(1, { RowDecoder.decodeRow($0, key: key, names: names, sink: &sink) }) {
                case nil: stats.damagedRecords += 1
                case let row? where row.deleted: stats.deletedRecords += 1
                default: break
                }
            }
            stats.rootFields = try connection.scalarInt("SELECT count(*) FROM root") ?? 0
            stats.fetches = try connection.scalarInt("SELECT count(*) FROM fetches") ?? 0
            stats.names = try connection.scalarInt("SELECT count(*) FROM names") ?? 0
            stats.pageSize = try connection.scalarInt("PRAGMA page_size") ?? 0
            stats.pageCount = try connection.scalarInt("PRAGMA page_count") ?? 0
            let histogram = try connection.prepare("SELECT used, count(*) FROM records GROUP BY used ORDER BY used")
            defer { histogram.reset() }
            while try histogram.step() {
                stats.usedHistogram.append(ImageStats.UsedCount(used: histogram.int(0), records: histogram.int(1)))
            }
            return stats
        }
        if vfs == nil, let size = (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int {
            stats?.walBytes = size
        }
        return stats
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

    /// Runs `body` in a read transaction with every name of the file; `nil` without a file or on error.
    private func inspecting<R>(_ body: (Connection, AllNames) throws -> R) -> R? {
        core.withState { state in
            guard let connection = state.connection, !state.halted, !state.inRead else { return nil }
            do {
                try connection.execute("BEGIN")
                defer { connection.rollbackIfNeeded() }
                var names = AllNames()
                let statement = try connection.prepare(ImageSchema.SQL.selectNames)
                defer { statement.reset() }
                while try statement.step() {
                    if let (id, name) = NameTable.verifiedName(statement) { names.byID[id] = name }
                }
                statement.reset()
                return try body(connection, names)
            } catch {
                return nil
            }
        }
    }
}
