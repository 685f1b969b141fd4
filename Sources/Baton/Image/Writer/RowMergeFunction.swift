import CSQLite

/// The SQL function `baton_merge_row(used, stored, fresh)` that
/// ``ImageSchema/SQL/upsertMergedRecord`` evaluates when the key is already in `records`: it
/// answers the row to keep, the stored row's cells merged under the fresh ones by the drain
/// writing the snapshot (``DrainTransaction/mergeStored(used:row:)``), or `fresh` when the
/// stored row is not merged over (aged out, not decodable, deleted, or every cell rewritten).
///
/// A snapshot that merges used to read its row first, one more search of `records` per
/// snapshot even when the key was missing (all of them, into an empty image); the merge now
/// happens inside the upsert's own conflict, and a new key costs the insert alone.
///
/// Registered once per connection, `SQLITE_DIRECTONLY` (no view or trigger in a file can call
/// it); registering a new name expires no prepared statement.
enum RowMergeFunction {
    static let name = "baton_merge_row"

    /// What the function reaches through its user data: the drain writing a snapshot.
    final class Context {
        /// Set by the drain around each merging upsert, `nil` otherwise (the function then
        /// fails the statement). Unowned: the drain clears it before it ends.
        unowned(unsafe) var transaction: DrainTransaction?
    }

    /// The function's context on `connection`, registering the function on first use.
    static func context(on connection: Connection) throws(SQLiteError) -> Context {
        if let context = connection.functionContexts[name] as? Context { return context }
        let context = Context()
        let pointer = Unmanaged.passUnretained(context).toOpaque()
        let code = connection.door.value {
            sqlite3_create_function_v2(
                connection.handle, name, 3, SQLITE_UTF8 | SQLITE_DIRECTONLY, pointer, merge, nil, nil, nil)
        }
        guard code == SQLITE_OK else { throw connection.error(code, sql: nil) }
        // The connection keeps the context alive as long as SQLite may call the function.
        connection.functionContexts[name] = context
        return context
    }

    /// The function's body: `used` and `stored` of the row in the file, `fresh` the snapshot's row.
    private static let merge: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
        call, count, arguments in
        guard let call, let arguments, count == 3, let data = sqlite3_user_data(call),
              let transaction = Unmanaged<Context>.fromOpaque(data).takeUnretainedValue().transaction
        else {
            sqlite3_result_error(call, "\(name) called outside a drain", -1)
            return
        }
        let used = Int(sqlite3_value_int64(arguments[0]))
        let bytes = sqlite3_value_blob(arguments[1])
        let length = Int(sqlite3_value_bytes(arguments[1]))
        let stored = UnsafeRawBufferPointer(start: length > 0 ? bytes : nil, count: length)
        guard let merged = transaction.mergeStored(used: used, row: stored) else {
            sqlite3_result_value(call, arguments[2])
            return
        }
        // Copied by SQLite: the merged row lies in the drain's merge encoder until the next merge.
        sqlite3_result_blob(call, merged.baseAddress, Int32(truncatingIfNeeded: merged.count), sqliteTransient)
    }
}
