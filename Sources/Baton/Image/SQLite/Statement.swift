import CSQLite

/// SQLite's `SQLITE_TRANSIENT`: SQLite copies a bound value before the bind call returns.
let sqliteTransient = unsafeBitCast(-1 as Int, to: sqlite3_destructor_type.self)
/// SQLite's `SQLITE_STATIC`: SQLite reads a bound value where it is, until it is unbound.
let sqliteStatic: sqlite3_destructor_type? = nil

/// One prepared statement; finalized when released.
///
/// Statements are confined to their connection's owner (the image's lock), hence not `Sendable`.
/// Every use ends with ``reset()`` so no statement stays busy between uses.
package final class Statement {
    let handle: OpaquePointer
    let door: SQLiteDoor
    /// The statement's SQL text, kept for errors.
    package let sql: String

    init(handle: OpaquePointer, door: SQLiteDoor, sql: String) {
        self.handle = handle
        self.door = door
        self.sql = sql
    }

    deinit {
        _ = door.value { sqlite3_finalize(handle) }
    }

    // MARK: Binding (parameters count from 1)

    /// Binds an integer.
    package func bind(_ value: Int, at index: Int32) throws(SQLiteError) {
        let code = door.result(.bind) { sqlite3_bind_int64(handle, index, sqlite3_int64(value)) }
        try check(code)
    }

    /// Binds a double.
    package func bind(_ value: Double, at index: Int32) throws(SQLiteError) {
        let code = door.result(.bind) { sqlite3_bind_double(handle, index, value) }
        try check(code)
    }

    /// Binds text (its UTF-8, NUL characters included).
    package func bind(_ text: String, at index: Int32) throws(SQLiteError) {
        let count = Int32(truncatingIfNeeded: text.utf8.count)
        let code = door.result(.bind) {
            text.withCString { sqlite3_bind_text(handle, index, $0, count, sqliteTransient) }
        }
        try check(code)
    }

    /// Binds a blob (copied by SQLite).
    package func bind(blob bytes: [UInt8], at index: Int32) throws(SQLiteError) {
        let code = door.result(.bind) {
            bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress, !buffer.isEmpty else {
                    // A null pointer would bind SQL NULL; an empty blob is a zero-length blob.
                    return sqlite3_bind_zeroblob(handle, index, 0)
                }
                return sqlite3_bind_blob(handle, index, base, Int32(truncatingIfNeeded: buffer.count), sqliteTransient)
            }
        }
        try check(code)
    }

    /// Binds UTF-8 text that SQLite reads where it is (`SQLITE_STATIC`), not a copy: the bytes
    /// must stay put until ``resetUnbinding(_:)`` (callers bind inside `withUTF8` and reset
    /// before it returns).
    ///
    /// A copying bind allocates, copies and frees the bytes once per use: a twentieth of a
    /// hydration and of a drain (issue 10). Empty text is bound by copy (a null pointer would
    /// bind SQL NULL).
    package func bindBorrowed(text utf8: UnsafeBufferPointer<UInt8>, at index: Int32) throws(SQLiteError) {
        let count = Int32(truncatingIfNeeded: utf8.count)
        let code = door.result(.bind) {
            guard let base = utf8.baseAddress, count > 0 else { return sqlite3_bind_text(handle, index, "", 0, sqliteTransient) }
            return sqlite3_bind_text(handle, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), count, sqliteStatic)
        }
        try check(code)
    }

    /// Binds a blob that SQLite reads where it is, as ``bindBorrowed(text:at:)`` binds text.
    package func bindBorrowed(blob bytes: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
        let count = Int32(truncatingIfNeeded: bytes.count)
        let code = door.result(.bind) {
            guard let base = bytes.baseAddress, count > 0 else { return sqlite3_bind_zeroblob(handle, index, 0) }
            return sqlite3_bind_blob(handle, index, base, count, sqliteStatic)
        }
        try check(code)
    }

    /// Resets the statement and binds NULL at `index`: nothing points at borrowed bytes after.
    package func resetUnbinding(_ index: Int32) {
        _ = door.value { sqlite3_reset(handle) }
        _ = door.value { sqlite3_bind_null(handle, index) }
    }

    /// Resets the statement and binds NULL at `first` and `second`.
    package func resetUnbinding(_ first: Int32, _ second: Int32) {
        resetUnbinding(first)
        _ = door.value { sqlite3_bind_null(handle, second) }
    }

    /// Binds SQL NULL.
    package func bindNull(at index: Int32) throws(SQLiteError) {
        let code = door.result(.bind) { sqlite3_bind_null(handle, index) }
        try check(code)
    }

    // MARK: Stepping

    /// Steps once: `true` when a row is ready, `false` when the statement is done.
    package func step() throws(SQLiteError) -> Bool {
        let code = door.result(.step) { sqlite3_step(handle) }
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw error(code)
        }
    }

    /// Steps until done, for statements that return no rows.
    package func run() throws(SQLiteError) {
        while try step() {}
    }

    /// Resets the statement so it can run again (bindings are kept; every use rebinds).
    package func reset() {
        _ = door.value { sqlite3_reset(handle) }
    }

    // MARK: Columns (count from 0)

    /// An integer column.
    package func int(_ column: Int32) -> Int {
        Int(door.value { sqlite3_column_int64(handle, column) })
    }

    /// A double column.
    package func double(_ column: Int32) -> Double {
        door.value { sqlite3_column_double(handle, column) }
    }

    /// True when the column is SQL NULL.
    package func isNull(_ column: Int32) -> Bool {
        door.value { sqlite3_column_type(handle, column) } == SQLITE_NULL
    }

    /// A text column (invalid UTF-8 repaired with U+FFFD; `""` for NULL).
    package func text(_ column: Int32) -> String {
        door.value {
            guard let pointer = sqlite3_column_text(handle, column) else { return "" }
            let count = Int(sqlite3_column_bytes(handle, column))
            return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
        }
    }

    /// Lends a text column's UTF-8 bytes, as stored, to `body`; valid only inside it (empty for NULL).
    package func withText<R>(_ column: Int32, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        door.value {
            let pointer = sqlite3_column_text(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            return body(UnsafeRawBufferPointer(start: count > 0 ? UnsafeRawPointer(pointer) : nil, count: count))
        }
    }

    /// Lends a blob column's bytes to `body`; valid only inside it (empty for NULL).
    package func withBlob<R>(_ column: Int32, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        door.value {
            let pointer = sqlite3_column_blob(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            return body(UnsafeRawBufferPointer(start: count > 0 ? pointer : nil, count: count))
        }
    }

    /// A blob column copied out.
    package func blob(_ column: Int32) -> [UInt8] {
        withBlob(column) { Array($0) }
    }

    // MARK: Errors

    private func check(_ code: Int32) throws(SQLiteError) {
        if code != SQLITE_OK { throw error(code) }
    }

    func error(_ code: Int32) -> SQLiteError {
        let message: String
        if door.lastCallWasInjected {
            message = "injected fault"
        } else {
            message = door.value { sqlite3_db_handle(handle).flatMap { sqlite3_errmsg($0) } }
                .map { String(cString: $0) } ?? "unknown error"
        }
        return SQLiteError(extendedCode: SQLiteResultCode(rawValue: code), message: message, sql: sql)
    }
}

@available(*, unavailable)
extension Statement: Sendable {}
