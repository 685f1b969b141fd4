import CSQLite

/// One SQLite handle: opened with extended result codes, closed exactly once.
///
/// A connection is confined to one owner at a time (the image serializes every use of its one
/// connection with a lock), hence not `Sendable`.
package final class Connection {
    let handle: OpaquePointer
    /// The door every call on this handle goes through.
    package let door: SQLiteDoor
    /// The file name the connection was opened with.
    package let path: String
    /// The VFS it was opened with (`nil`: SQLite's default).
    package let vfs: String?
    private var cache = StatementCache()
    /// The prepared transaction-control statements, by ``TransactionControl`` (also in `cache`,
    /// so closing finalizes them and the statement counts include them).
    private var controls: [OpaquePointer?] = Array(repeating: nil, count: TransactionControl.allCases.count)
    /// Objects that SQL functions registered on this handle reach through their user data,
    /// by function name; kept as long as the connection.
    var functionContexts: [String: AnyObject] = [:]
    private(set) var isClosed = false
    /// Where the WAL hook writes the last commit's WAL length (``countWALFrames()``); freed with the connection.
    private let walFrameCount: UnsafeMutablePointer<Int32> = {
        let counter = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        counter.initialize(to: 0)
        return counter
    }()

    private init(handle: OpaquePointer, door: SQLiteDoor, path: String, vfs: String?) {
        self.handle = handle
        self.door = door
        self.path = path
        self.vfs = vfs
    }

    deinit {
        close()
        walFrameCount.deallocate()
    }

    /// Opens `path` with `flags` through `vfs` (`nil`: the default VFS).
    ///
    /// The handle is closed even when the open fails, since SQLite allocates one in most failures.
    package static func open(
        path: String, vfs: String?, flags: Int32, door: SQLiteDoor
    ) throws(SQLiteError) -> Connection {
        var db: OpaquePointer?
        let code = door.result(.open) {
            sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_EXRESCODE, vfs)
        }
        guard code == SQLITE_OK, let handle = db else {
            var message = door.lastCallWasInjected ? "injected fault" : "cannot open \(path)"
            if let db {
                if !door.lastCallWasInjected, let text = door.value({ sqlite3_errmsg(db) }) {
                    message = String(cString: text)
                }
                _ = door.value { sqlite3_close_v2(db) }
            }
            throw SQLiteError(extendedCode: SQLiteResultCode(rawValue: code), message: message)
        }
        _ = door.value { sqlite3_extended_result_codes(handle, 1) }
        return Connection(handle: handle, door: door, path: path, vfs: vfs)
    }

    /// Closes the handle: the statement cache is emptied first. Safe to call twice.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        controls = controls.map { _ in nil }
        cache.removeAll()
        let code = door.value { sqlite3_close(handle) }
        if code != SQLITE_OK {
            // A statement is still alive somewhere: let SQLite close once it is finalized.
            _ = door.value { sqlite3_close_v2(handle) }
        }
    }

    /// How long SQLite waits on a lock another process holds before answering busy: what
    /// `PRAGMA busy_timeout` sets, without compiling a statement.
    package func setBusyTimeout(milliseconds: Int) throws(SQLiteError) {
        let code = door.value { sqlite3_busy_timeout(handle, Int32(clamping: milliseconds)) }
        if code != SQLITE_OK { throw error(code, sql: nil) }
    }

    // MARK: The WAL

    /// Takes the WAL's checkpoints away from SQLite: commits no longer checkpoint on their own
    /// (``checkpoint(truncating:)`` does it), and each commit's WAL length is kept for
    /// ``walFrames``. Called once, before the first write (the opener calls it as it opens).
    package func countWALFrames() {
        let counter = walFrameCount
        _ = door.value {
            sqlite3_wal_hook(handle, { context, _, _, frames in
                context?.assumingMemoryBound(to: Int32.self).pointee = frames
                return SQLITE_OK
            }, UnsafeMutableRawPointer(counter))
        }
    }

    /// How many frames the WAL held after the last commit (``countWALFrames()``; 0 before it,
    /// and after a checkpoint that emptied the log).
    package var walFrames: Int { Int(walFrameCount.pointee) }

    /// Checkpoints the WAL into the database file, and with `truncating` empties the log file
    /// too. Answers whether every frame reached the file (this connection is the file's only one,
    /// so nothing holds a checkpoint back but a failure, which throws).
    @discardableResult
    package func checkpoint(truncating: Bool) throws(SQLiteError) -> Bool {
        let mode = truncating ? SQLITE_CHECKPOINT_TRUNCATE : SQLITE_CHECKPOINT_PASSIVE
        var logged: Int32 = -1, copied: Int32 = -1
        let code = door.result(.exec) { sqlite3_wal_checkpoint_v2(handle, nil, mode, &logged, &copied) }
        if code != SQLITE_OK { throw error(code, sql: truncating ? "PRAGMA wal_checkpoint(TRUNCATE)" : "PRAGMA wal_checkpoint") }
        walFrameCount.pointee = 0
        return logged == copied
    }

    /// With `keep`, ``close()`` does not checkpoint the WAL: the next open checkpoints it, behind
    /// its copy. Without, it does again (SQLite's default).
    package func keepWALAtClose(_ keep: Bool = true) {
        _ = door.value { baton_sqlite_keep_wal_at_close(handle, keep ? 1 : 0) }
    }

    // MARK: Statements

    /// A prepared statement for `sql`, from the cache or prepared and cached now.
    package func cached(_ sql: String) throws(SQLiteError) -> Statement {
        if let statement = cache.statement(for: sql) { return statement }
        let statement = try prepare(sql)
        cache.insert(statement)
        return statement
    }

    /// Prepares `sql` (one statement) without caching it.
    package func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        var statement: OpaquePointer?
        let code = door.result(.prepare) {
            sql.withCString { text in
                sqlite3_prepare_v3(handle, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
            }
        }
        guard code == SQLITE_OK, let statement else {
            if let statement { _ = door.value { sqlite3_finalize(statement) } }
            throw error(code, sql: sql)
        }
        return Statement(handle: statement, door: door, sql: sql)
    }

    /// Runs one or more statements that return no rows (`BEGIN`, `COMMIT`, DDL scripts).
    ///
    /// The transaction-control statements (``TransactionControl``) run from statements kept
    /// prepared; everything else goes through `sqlite3_exec`. Either way the call is one `exec`
    /// for the fault injector.
    package func execute(_ sql: String) throws(SQLiteError) {
        if let control = TransactionControl(sql: sql) {
            try run(control)
            return
        }
        var errorText: UnsafeMutablePointer<CChar>?
        let code = door.result(.exec) { sqlite3_exec(handle, sql, nil, nil, &errorText) }
        var message: String?
        if let errorText {
            message = String(cString: errorText)
            door.value { sqlite3_free(errorText) }
        }
        if code != SQLITE_OK {
            var failure = error(code, sql: sql)
            if let message, !door.lastCallWasInjected { failure.message = message }
            throw failure
        }
    }

    /// Runs a transaction-control statement from its prepared statement (prepared on first use).
    private func run(_ control: TransactionControl) throws(SQLiteError) {
        let index = control.rawValue
        let code = door.result(.exec) { () -> Int32 in
            if controls[index] == nil {
                // Prepared inside the one `exec` call the injector counts, as `sqlite3_exec` would.
                var prepared: OpaquePointer?
                let code = control.sql.withCString { text in
                    sqlite3_prepare_v3(handle, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
                }
                guard code == SQLITE_OK, let prepared else {
                    if let prepared { sqlite3_finalize(prepared) }
                    return code == SQLITE_OK ? SQLITE_MISUSE : code
                }
                cache.insert(Statement(handle: prepared, door: door, sql: control.sql))
                controls[index] = prepared
            }
            guard let statement = controls[index] else { return SQLITE_MISUSE }
            let stepped = sqlite3_step(statement)
            let reset = sqlite3_reset(statement)
            return stepped == SQLITE_DONE ? reset : stepped
        }
        if code != SQLITE_OK { throw error(code, sql: control.sql) }
    }

    /// The first column of the first row of `sql` as text (`nil` when there is no row).
    package func scalarText(_ sql: String) throws(SQLiteError) -> String? {
        let statement = try prepare(sql)
        defer { statement.reset() }
        return try statement.step() ? statement.text(0) : nil
    }

    /// The first column of the first row of `sql` as an integer (`nil` when there is no row).
    package func scalarInt(_ sql: String) throws(SQLiteError) -> Int? {
        let statement = try prepare(sql)
        defer { statement.reset() }
        return try statement.step() ? statement.int(0) : nil
    }

    // MARK: State

    /// True outside a transaction.
    package var isAutocommit: Bool {
        door.value { sqlite3_get_autocommit(handle) } != 0
    }

    /// Rolls back an open transaction, if any; errors are ignored (SQLite may have rolled back itself).
    package func rollbackIfNeeded() {
        guard !isAutocommit else { return }
        try? execute("ROLLBACK")
        if !isAutocommit {
            // The injected or real failure left the transaction open: try once more without faults.
            _ = door.value { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
        }
    }

    /// How many statements of this handle are prepared and not finalized (the cache included).
    package var liveStatementCount: Int {
        var count = 0
        var statement = door.value { sqlite3_next_stmt(handle, nil) }
        while let current = statement {
            count += 1
            statement = door.value { sqlite3_next_stmt(handle, current) }
        }
        return count
    }

    /// How many statements are in the middle of a run (stepped and not reset): should be 0 between uses.
    package var busyStatementCount: Int {
        var count = 0
        var statement = door.value { sqlite3_next_stmt(handle, nil) }
        while let current = statement {
            if door.value({ sqlite3_stmt_busy(current) }) != 0 { count += 1 }
            statement = door.value { sqlite3_next_stmt(handle, current) }
        }
        return count
    }

    /// How many statements the cache holds.
    package var cachedStatementCount: Int { cache.count }

    /// The number of changed rows of the last statement.
    package var changes: Int {
        Int(door.value { sqlite3_changes64(handle) })
    }

    func error(_ code: Int32, sql: String?) -> SQLiteError {
        let message = door.lastCallWasInjected
            ? "injected fault"
            : door.value { sqlite3_errmsg(handle) }.map { String(cString: $0) } ?? "unknown error"
        return SQLiteError(extendedCode: SQLiteResultCode(rawValue: code), message: message, sql: sql)
    }
}

@available(*, unavailable)
extension Connection: Sendable {}
