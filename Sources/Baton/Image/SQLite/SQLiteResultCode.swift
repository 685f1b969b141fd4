import CSQLite

/// A SQLite result code, primary or extended (`SQLITE_IOERR_WRITE` is an `SQLITE_IOERR`).
///
/// A primary code matches its extended codes in `switch` and `catch` patterns:
/// `case .ioerr:` catches `SQLITE_IOERR_WRITE` as well as `SQLITE_IOERR`.
public struct SQLiteResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The primary code: the low byte of an extended code.
    public var primary: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xFF) }

    /// True when this is a primary code (its extended bits are zero).
    public var isPrimary: Bool { rawValue == rawValue & 0xFF }

    public var description: String {
        let text = SQLiteDoor.plain { sqlite3_errstr(rawValue) }.map { String(cString: $0) } ?? "?"
        return "\(rawValue) (\(text))"
    }

    /// Matches a code to a pattern: equal codes, or a primary pattern and an extended code of it.
    public static func ~= (pattern: SQLiteResultCode, code: SQLiteResultCode) -> Bool {
        if pattern == code { return true }
        return pattern.isPrimary && pattern == code.primary
    }

    public static let ok = SQLiteResultCode(rawValue: SQLITE_OK)
    public static let error = SQLiteResultCode(rawValue: SQLITE_ERROR)
    public static let `internal` = SQLiteResultCode(rawValue: SQLITE_INTERNAL)
    public static let perm = SQLiteResultCode(rawValue: SQLITE_PERM)
    public static let abort = SQLiteResultCode(rawValue: SQLITE_ABORT)
    public static let busy = SQLiteResultCode(rawValue: SQLITE_BUSY)
    public static let locked = SQLiteResultCode(rawValue: SQLITE_LOCKED)
    public static let nomem = SQLiteResultCode(rawValue: SQLITE_NOMEM)
    public static let readonly = SQLiteResultCode(rawValue: SQLITE_READONLY)
    public static let interrupt = SQLiteResultCode(rawValue: SQLITE_INTERRUPT)
    public static let ioerr = SQLiteResultCode(rawValue: SQLITE_IOERR)
    public static let corrupt = SQLiteResultCode(rawValue: SQLITE_CORRUPT)
    public static let notFound = SQLiteResultCode(rawValue: SQLITE_NOTFOUND)
    public static let full = SQLiteResultCode(rawValue: SQLITE_FULL)
    public static let cantOpen = SQLiteResultCode(rawValue: SQLITE_CANTOPEN)
    public static let `protocol` = SQLiteResultCode(rawValue: SQLITE_PROTOCOL)
    public static let schema = SQLiteResultCode(rawValue: SQLITE_SCHEMA)
    public static let tooBig = SQLiteResultCode(rawValue: SQLITE_TOOBIG)
    public static let constraint = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT)
    public static let mismatch = SQLiteResultCode(rawValue: SQLITE_MISMATCH)
    public static let misuse = SQLiteResultCode(rawValue: SQLITE_MISUSE)
    public static let range = SQLiteResultCode(rawValue: SQLITE_RANGE)
    public static let notADatabase = SQLiteResultCode(rawValue: SQLITE_NOTADB)
    public static let row = SQLiteResultCode(rawValue: SQLITE_ROW)
    public static let done = SQLiteResultCode(rawValue: SQLITE_DONE)
    /// `SQLITE_IOERR_DELETE_NOENT`: the file to delete did not exist.
    public static let ioerrDeleteNoent = SQLiteResultCode(rawValue: SQLITE_IOERR | (23 << 8))
}
