import CSQLite
import Foundation

/// The floors: the same rows read and written with SQLite's C API and nothing else.
enum RawSQLite {
    struct Row {
        let key: String
        let used: Int64
        let blob: [UInt8]
    }

    private static func open(_ path: String) throws -> OpaquePointer {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
            throw BenchError("cannot open \(path)")
        }
        return db
    }

    private static func exec(_ db: OpaquePointer, _ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    private static func prepare(_ db: OpaquePointer, _ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
        return statement
    }

    /// Every row of an image's records table.
    static func rows(of path: String) throws -> [Row] {
        let db = try open(path)
        defer { sqlite3_close(db) }
        let statement = try prepare(db, "SELECT key, used, row FROM records ORDER BY key")
        defer { sqlite3_finalize(statement) }
        var rows: [Row] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            let key = String(cString: sqlite3_column_text(statement, 0))
            let count = Int(sqlite3_column_bytes(statement, 2))
            let blob = count == 0 ? [] : Array(UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, 2), count: count))
            rows.append(Row(key: key, used: sqlite3_column_int64(statement, 1), blob: blob))
        }
        return rows
    }

    /// Times replacing a table's rows with `rows` in one transaction on an open WAL database.
    static func writeSamples(_ rows: [Row], path: String, iterations: Int) throws -> [Double] {
        let db = try open(path)
        defer { sqlite3_close(db) }
        try exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; CREATE TABLE IF NOT EXISTS records(key TEXT PRIMARY KEY, used INTEGER NOT NULL, row BLOB NOT NULL) WITHOUT ROWID")
        let statement = try prepare(db, "INSERT OR REPLACE INTO records(key, used, row) VALUES (?, ?, ?)")
        defer { sqlite3_finalize(statement) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        return try measure(iterations: iterations) {
            try exec(db, "BEGIN IMMEDIATE; DELETE FROM records")
            for row in rows {
                sqlite3_bind_text(statement, 1, row.key, -1, transient)
                sqlite3_bind_int64(statement, 2, row.used)
                _ = row.blob.withUnsafeBytes { sqlite3_bind_blob(statement, 3, $0.baseAddress, Int32($0.count), transient) }
                guard sqlite3_step(statement) == SQLITE_DONE else { throw BenchError("insert failed") }
                sqlite3_reset(statement)
            }
            try exec(db, "COMMIT")
        }
    }

    /// Times selecting every key's row (copied out) in one read transaction.
    static func readSamples(_ path: String, keys: [String], iterations: Int) throws -> [Double] {
        let db = try open(path)
        defer { sqlite3_close(db) }
        let statement = try prepare(db, "SELECT row FROM records WHERE key = ?")
        defer { sqlite3_finalize(statement) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        return try measure(iterations: iterations) {
            try exec(db, "BEGIN")
            var bytes = 0
            for key in keys {
                sqlite3_bind_text(statement, 1, key, -1, transient)
                if sqlite3_step(statement) == SQLITE_ROW {
                    let count = Int(sqlite3_column_bytes(statement, 0))
                    let copy = Array(UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, 0), count: count))
                    bytes += copy.count
                }
                sqlite3_reset(statement)
            }
            try exec(db, "COMMIT")
            precondition(bytes > 0)
        }
    }
}
