/// A stretch of a table SQLite could not read (a damaged page): the keys on either side of it.
package struct ImageUnreadableRange: Sendable, Hashable, CustomStringConvertible {
    /// The table.
    package var table: String
    /// The last key read before the gap (`nil`: the gap starts at the table's first row).
    package var after: String?
    /// The first key read after the gap (`nil`: the gap runs to the table's end).
    package var before: String?
    /// What SQLite answered.
    package var error: SQLiteError

    package var description: String {
        "\(table) rows after \(after.map { "'\($0)'" } ?? "the start") and before \(before.map { "'\($0)'" } ?? "the end")"
            + " (\(error.description))"
    }
}

/// Reads every row of one table in key order, going around a stretch SQLite cannot read.
///
/// A dump must not leave rows out silently. It reads forwards; when SQLite fails (a damaged
/// page), it reads backwards from the table's end down to the last key it got, so the rows on
/// both sides of the damage are read and the gap between them is reported.
struct TableScan {
    let connection: Connection
    let table: String
    /// The key column, read as an integer (`names.id`) or as text.
    let keyColumn: String
    let integerKey: Bool
    /// The columns to read, the key first.
    let columns: String

    /// The rows `make` builds from each row of the table, in key order, and the gap if any.
    func rows<Row>(_ make: (Statement) -> Row) -> (rows: [Row], gap: ImageUnreadableRange?) {
        var rows: [Row] = []
        var last: Key?
        do {
            try each(after: nil, descending: false) { statement in
                rows.append(make(statement))
                last = key(statement)
            }
            return (rows, nil)
        } catch {
            var tail: [Row] = []
            var first: Key?
            do {
                try each(after: last, descending: true) { statement in
                    tail.append(make(statement))
                    first = key(statement)
                }
            } catch {
                // The backward read stops at the damage from the other side.
            }
            rows.append(contentsOf: tail.reversed())
            return (rows, ImageUnreadableRange(table: table, after: last?.description, before: first?.description, error: error))
        }
    }

    /// A key as read: the `names` table's integer id or another table's text key.
    private enum Key: CustomStringConvertible {
        case integer(Int)
        case text(String)

        var description: String {
            switch self {
            case .integer(let value): String(value)
            case .text(let value): value
            }
        }
    }

    private func key(_ statement: Statement) -> Key {
        integerKey ? .integer(statement.int(0)) : .text(statement.text(0))
    }

    private func each(after: Key?, descending: Bool, _ body: (Statement) -> Void) throws(SQLiteError) {
        var sql = "SELECT \(columns) FROM \(table)"
        if after != nil { sql += " WHERE \(keyColumn) > ?1" }
        sql += " ORDER BY \(keyColumn)" + (descending ? " DESC" : "")
        let statement = try connection.prepare(sql)
        defer { statement.reset() }
        switch after {
        case .integer(let value)?: try statement.bind(value, at: 1)
        case .text(let value)?: try statement.bind(value, at: 1)
        case nil: break
        }
        while try statement.step() { body(statement) }
    }
}
