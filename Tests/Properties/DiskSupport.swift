import BatonSim
import CSQLite
import Testing

/// A bare SQLite connection on a simulated disk, for the disk tests. It
/// never closes itself: tests abandon connections on purpose after a crash.
final class DiskConnection {
    let db: OpaquePointer

    init(_ disk: SimulatedDisk, name: String = "image.sqlite") {
        var handle: OpaquePointer?
        let rc = sqlite3_open_v2(
            name, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, disk.vfsName)
        guard rc == SQLITE_OK, let handle else {
            fatalError("sqlite3_open_v2 failed: \(rc)")
        }
        sqlite3_extended_result_codes(handle, 1)
        db = handle
    }

    /// Runs statements; returns the (extended) result code.
    @discardableResult
    func exec(_ sql: String) -> Int32 {
        sqlite3_exec(db, sql, nil, nil, nil)
    }

    /// The first column of the first row as text, or an "error <code>" text.
    func text(_ sql: String) -> String {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else { return "error \(rc)" }
        defer { sqlite3_finalize(statement) }
        let step = sqlite3_step(statement)
        guard step == SQLITE_ROW else { return "error \(step)" }
        guard let text = sqlite3_column_text(statement, 0) else { return "null" }
        return String(cString: text)
    }

    /// The first column of the first row as an integer, nil on error.
    func int(_ sql: String) -> Int64? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement
        else { return nil }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { return nil }
        return sqlite3_column_int64(statement, 0)
    }

    var errorMessage: String { String(cString: sqlite3_errmsg(db)) }

    var inTransaction: Bool { sqlite3_get_autocommit(db) == 0 }

    @discardableResult
    func close() -> Int32 { sqlite3_close(db) }

    /// Closes a connection a crash made dead, checking that closing it
    /// neither fails nor touches the disk. (Abandoning it would do as well;
    /// closing gives SQLite's memory back.)
    func closeAfterCrash(_ disk: SimulatedDisk) {
        let before = disk.stateHash
        let handles = disk.liveHandleCount
        #expect(close() == SQLITE_OK)
        #expect(disk.stateHash == before)
        #expect(disk.liveHandleCount == handles)
    }
}

/// The schema and transactions the durability tests run: transaction `j`
/// inserts a few rows tagged `j`, rewrites rows of an older transaction,
/// deletes some, and records `j` as the last one in `m`. Bodies vary from
/// tens of bytes to several pages so that commits span many WAL frames.
enum DiskWorkload {
    static func setUp(_ connection: DiskConnection, autocheckpoint: Int) -> String {
        let mode = connection.text("PRAGMA journal_mode=WAL")
        configure(connection, autocheckpoint: autocheckpoint)
        let rc = connection.exec(
            """
            CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, txn INTEGER, body TEXT);
            CREATE TABLE IF NOT EXISTS m(k INTEGER PRIMARY KEY, last INTEGER);
            """)
        #expect(rc == SQLITE_OK, "creating the tables failed: \(rc) \(connection.errorMessage)")
        // Make the schema durable: the transactions then start from a sync
        // point (else a power loss may rightly take the tables away too).
        let checkpoint = connection.exec("PRAGMA wal_checkpoint(FULL)")
        #expect(checkpoint == SQLITE_OK, "checkpoint failed: \(checkpoint)")
        return mode
    }

    /// Re-applies the per-connection settings after a reopen.
    static func configure(_ connection: DiskConnection, autocheckpoint: Int) {
        let rc = connection.exec(
            "PRAGMA synchronous=NORMAL; PRAGMA wal_autocheckpoint=\(autocheckpoint)")
        #expect(rc == SQLITE_OK, "configuring failed: \(rc) \(connection.errorMessage)")
    }

    static func transaction(_ j: Int, salt: Int) -> String {
        let rows = 1 + (j * 7 + salt) % 4
        var sql = "BEGIN;"
        for r in 0..<rows {
            let length = 20 + ((j * 131 + r * 977 + salt * 13) % 6000)
            let letter = 65 + (j + r) % 26
            sql += "INSERT INTO t(txn, body) VALUES(\(j), printf('%.*c', \(length), char(\(letter))));"
        }
        if j > 3 {
            sql += "UPDATE t SET body = body || '\(j)' WHERE txn = \(j - 3);"
        }
        if j % 5 == 0 {
            sql += "DELETE FROM t WHERE txn < \(j - 6) AND id % 3 = \(j % 3);"
        }
        sql += "INSERT OR REPLACE INTO m VALUES(1, \(j));COMMIT;"
        return sql
    }

    /// A text that names the whole content of the tables.
    static func signature(_ connection: DiskConnection) -> String {
        connection.text(
            """
            SELECT coalesce((SELECT last FROM m WHERE k = 1), 0) || '|' ||
                   coalesce(group_concat(id || '/' || txn || '/' || length(body) || '/'
                                         || substr(body, 1, 1) || substr(body, -3), ','), '')
            FROM (SELECT * FROM t ORDER BY id)
            """)
    }

    static func last(_ connection: DiskConnection) -> Int {
        Int(connection.int("SELECT coalesce((SELECT last FROM m WHERE k = 1), 0)") ?? -1)
    }
}
