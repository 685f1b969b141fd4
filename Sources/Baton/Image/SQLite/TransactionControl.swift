import CSQLite

/// The transaction-control statements every drain and read runs: kept prepared on their
/// connection instead of parsed again by `sqlite3_exec` on every use.
///
/// ``Connection/execute(_:)`` routes these exact texts here, so they still count and fail as
/// `exec` calls for the fault injector, one call each, with the same codes.
enum TransactionControl: Int, CaseIterable {
    case begin = 0
    case beginImmediate
    case commit
    case rollback

    /// The control statement `sql` is, when it is exactly one of them.
    init?(sql: String) {
        switch sql {
        case "BEGIN": self = .begin
        case "BEGIN IMMEDIATE": self = .beginImmediate
        case "COMMIT": self = .commit
        case "ROLLBACK": self = .rollback
        default: return nil
        }
    }

    /// The statement's text.
    var sql: String {
        switch self {
        case .begin: "BEGIN"
        case .beginImmediate: "BEGIN IMMEDIATE"
        case .commit: "COMMIT"
        case .rollback: "ROLLBACK"
        }
    }
}
