import CSQLite

/// A failed SQLite call: its code (extended when SQLite gave one), message and statement text.
public struct SQLiteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The extended result code (equal to ``code`` when SQLite gave no extended code).
    public var extendedCode: SQLiteResultCode
    /// The message SQLite gave, or a description of the injected fault.
    public var message: String
    /// The SQL that failed, when a statement failed.
    public var sql: String?

    public init(extendedCode: SQLiteResultCode, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// The primary result code (`SQLITE_IOERR` for `SQLITE_IOERR_WRITE`).
    public var code: SQLiteResultCode { extendedCode.primary }

    /// True for the codes after which the file itself is suspect: not a database, corrupt.
    public var meansUnreadableFile: Bool {
        switch code {
        case .notADatabase, .corrupt: true
        default: false
        }
    }

    /// True for the codes with which SQLite refuses a file it is opening: not a database,
    /// corrupt, or a plain error (an unsupported schema format, a malformed schema). An I/O
    /// error, a full disk, a permission or a lock never say so: the file is kept for them.
    public var meansUnusableFile: Bool {
        meansUnreadableFile || code == .error
    }

    /// True for the codes that say "not now": locked, busy, out of memory, interrupted.
    public var isTransient: Bool {
        switch code {
        case .busy, .locked, .nomem, .interrupt: true
        default: false
        }
    }

    public var description: String {
        var text = "SQLite error \(extendedCode.rawValue): \(message)"
        if let sql { text += " (in \(sql))" }
        return text
    }
}
