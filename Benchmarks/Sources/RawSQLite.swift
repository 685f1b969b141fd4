import CSQLite
import Foundation

/// The floors of the image: the same rows read and written with SQLite's C API and nothing else,
/// on a connection opened outside the timing, with statements prepared once.
///
/// Tables and columns are read from the image file itself (`sqlite_master`, `table_info`), so the
/// floors follow the image's schema wherever it goes.
enum RawSQLite {
    /// One column value as SQLite returns it.
    enum Column {
        case null, integer(Int64), real(Double), text(String), blob([UInt8])
    }

    /// One read of the check, in the order the check made it.
    struct Read: Hashable {
        let table: String
        let key: String
    }

    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    static func open(_ path: String) throws -> OpaquePointer {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
            sqlite3_close(db)
            throw BenchError("cannot open \(path)")
        }
        return db
    }

    static func exec(_ db: OpaquePointer, _ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    static func prepare(_ db: OpaquePointer, _ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
        return statement
    }

    /// The name of `table`'s primary-key column.
    static func primaryKey(of table: String, in db: OpaquePointer) throws -> String {
        let statement = try prepare(db, "PRAGMA table_info(\(table))")
        defer { sqlite3_finalize(statement) }
        while sqlite3_step(statement) == SQLITE_ROW {
            if sqlite3_column_int(statement, 5) == 1 { return String(cString: sqlite3_column_text(statement, 1)) }
        }
        throw BenchError("table \(table) has no primary key")
    }

    static func column(_ statement: OpaquePointer, _ index: Int32) -> Column {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(statement, index)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let start = sqlite3_column_blob(statement, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: start, count: count)))
        default: return .null
        }
    }

    static func bind(_ value: Column, to statement: OpaquePointer, at index: Int32) {
        switch value {
        case .null: sqlite3_bind_null(statement, index)
        case .integer(let number): sqlite3_bind_int64(statement, index, number)
        case .real(let number): sqlite3_bind_double(statement, index, number)
        case .text(let text): sqlite3_bind_text(statement, index, text, -1, transient)
        case .blob(let bytes): _ = bytes.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), transient) }
        }
    }

    /// A table's schema and every row of it, as the image file holds them.
    struct Table {
        let name: String
        let createSQL: String
        let columnCount: Int
        let rows: [[Column]]
    }

    /// A database's tables with their rows, and its indexes, as the file at `path` holds them.
    struct Contents {
        let tables: [Table]
        let indexSQL: [String]
        /// The file's page size: the floor's file is made with the same one.
        let pageSize: Int

        var rowCount: Int { tables.reduce(0) { $0 + $1.rows.count } }

        /// The same contents with the `records` table's rows in the order of `keys` (the order the
        /// drain writes them: the commit's), and any row `keys` does not name after them in key
        /// order. Every other table keeps its key order.
        func recordsInOrder(of keys: [String]) -> Contents {
            var rank: [String: Int] = [:]
            for (index, key) in keys.enumerated() where rank[key] == nil { rank[key] = index }
            let reordered = tables.map { table -> Table in
                guard table.name == "records" else { return table }
                let ranked = table.rows.enumerated().map { offset, row -> (rank: Int, offset: Int, row: [Column]) in
                    guard case .text(let key)? = row.first, let position = rank[key] else { return (Int.max, offset, row) }
                    return (position, offset, row)
                }
                let rows = ranked.sorted { ($0.rank, $0.offset) < ($1.rank, $1.offset) }.map(\.row)
                return Table(name: table.name, createSQL: table.createSQL, columnCount: table.columnCount, rows: rows)
            }
            return Contents(tables: reordered, indexSQL: indexSQL, pageSize: pageSize)
        }
    }

    static func contents(of path: String) throws -> Contents {
        let db = try open(path)
        defer { sqlite3_close(db) }
        let master = try prepare(db, "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")
        defer { sqlite3_finalize(master) }
        let pageStatement = try prepare(db, "PRAGMA page_size")
        defer { sqlite3_finalize(pageStatement) }
        let pageSize = sqlite3_step(pageStatement) == SQLITE_ROW ? Int(sqlite3_column_int(pageStatement, 0)) : 4096
        var tables: [Table] = []
        var indexSQL: [String] = []
        while sqlite3_step(master) == SQLITE_ROW {
            let type = String(cString: sqlite3_column_text(master, 0))
            let name = String(cString: sqlite3_column_text(master, 1))
            let sql = String(cString: sqlite3_column_text(master, 2))
            if type == "index" { indexSQL.append(sql); continue }
            guard type == "table", !name.hasPrefix("sqlite_") else { continue }
            let statement = try prepare(db, "SELECT * FROM \(name)")
            defer { sqlite3_finalize(statement) }
            let count = sqlite3_column_count(statement)
            var rows: [[Column]] = []
            while sqlite3_step(statement) == SQLITE_ROW {
                rows.append((0..<count).map { column(statement, $0) })
            }
            tables.append(Table(name: name, createSQL: sql, columnCount: Int(count), rows: rows))
        }
        return Contents(tables: tables, indexSQL: indexSQL, pageSize: pageSize)
    }

    /// Reads rows by key, in a given order, inside one read transaction: the hydration's floor.
    final class Reader {
        private let db: OpaquePointer
        private var statements: [String: OpaquePointer] = [:]
        private let reads: [(OpaquePointer, String)]

        init(path: String, reads: [Read]) throws {
            db = try RawSQLite.open(path)
            var prepared: [String: OpaquePointer] = [:]
            for table in Set(reads.map(\.table)).sorted() {
                let key = try RawSQLite.primaryKey(of: table, in: db)
                prepared[table] = try RawSQLite.prepare(db, "SELECT * FROM \(table) WHERE \(key) = ?")
            }
            statements = prepared
            self.reads = reads.map { (prepared[$0.table]!, $0.key) }
        }

        deinit {
            for statement in statements.values { sqlite3_finalize(statement) }
            sqlite3_close(db)
        }

        /// Every read, each row's columns copied out; returns the bytes read.
        func run() throws -> Int {
            try RawSQLite.exec(db, "BEGIN")
            var bytes = 0
            for (statement, key) in reads {
                sqlite3_bind_text(statement, 1, key, -1, RawSQLite.transient)
                if sqlite3_step(statement) == SQLITE_ROW {
                    for index in 0..<sqlite3_column_count(statement) {
                        if case .blob(let blob) = RawSQLite.column(statement, index) { bytes += blob.count }
                    }
                }
                sqlite3_reset(statement)
            }
            try RawSQLite.exec(db, "COMMIT")
            return bytes
        }
    }

    /// Inserts every row of a database into a fresh file with the same schema, page size, WAL and
    /// `synchronous=NORMAL`, in one `BEGIN IMMEDIATE` transaction: the writer's floor.
    final class Writer {
        private let contents: Contents
        private let path: String
        private var db: OpaquePointer?
        private var inserts: [OpaquePointer] = []

        init(contents: Contents, path: String) {
            self.contents = contents
            self.path = path
        }

        deinit { close() }

        /// A fresh file with empty tables (outside the timing).
        func prepare() throws {
            close()
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            let db = try RawSQLite.open(path)
            self.db = db
            try RawSQLite.exec(db, "PRAGMA page_size=\(contents.pageSize); PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL")
            for table in contents.tables { try RawSQLite.exec(db, table.createSQL) }
            for sql in contents.indexSQL { try RawSQLite.exec(db, sql) }
            inserts = try contents.tables.map { table in
                let marks = Array(repeating: "?", count: table.columnCount).joined(separator: ", ")
                return try RawSQLite.prepare(db, "INSERT INTO \(table.name) VALUES (\(marks))")
            }
        }

        func run() throws {
            guard let db, inserts.count == contents.tables.count else { throw BenchError("raw writer not prepared") }
            try RawSQLite.exec(db, "BEGIN IMMEDIATE")
            for (table, insert) in zip(contents.tables, inserts) {
                for row in table.rows {
                    for (index, value) in row.enumerated() { RawSQLite.bind(value, to: insert, at: Int32(index + 1)) }
                    guard sqlite3_step(insert) == SQLITE_DONE else {
                        throw BenchError("raw insert failed: \(String(cString: sqlite3_errmsg(db)))")
                    }
                    sqlite3_reset(insert)
                }
            }
            try RawSQLite.exec(db, "COMMIT")
        }

        func close() {
            for insert in inserts { sqlite3_finalize(insert) }
            inserts = []
            if let db { sqlite3_close(db) }
            db = nil
        }
    }
}
