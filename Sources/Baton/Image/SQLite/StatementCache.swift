/// Prepared statements kept by SQL text, so each statement of the hot paths is prepared once.
///
/// The connection empties the cache before it closes: a statement left unfinalized keeps a
/// handle from closing.
struct StatementCache {
    private var statements: [String: Statement] = [:]

    /// The cached statement for `sql`, if any.
    func statement(for sql: String) -> Statement? {
        statements[sql]
    }

    /// Keeps `statement` under its SQL text.
    mutating func insert(_ statement: Statement) {
        statements[statement.sql] = statement
    }

    /// Finalizes every cached statement (by releasing it).
    mutating func removeAll() {
        statements.removeAll()
    }

    /// How many statements are cached.
    var count: Int { statements.count }
}
