/// Shared empty dictionaries of growing capacity, made once, for code that builds one small table
/// per record or per object on a hot path.
///
/// `Dictionary(minimumCapacity:)` is not specialized for these tables: each call looked the
/// table's generic metadata up at run time (a fifth of ingest's `makeChange`, and once per row in
/// hydration and per object in read-back). A shared empty table of the right size costs nothing
/// to take, and the first insertion copies it into a table of its own, already sized.
enum EmptyTables {
    /// A record's cells by slot (scales 0 … 7: up to 96 cells without growing).
    static let cells = PresizedEmptyTables<SlotID, Cell>(scales: 8)
}

/// Empty tables of scales 0 up to a limit: a table of scale `s` holds `2^s × 3/4` entries.
struct PresizedEmptyTables<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let tables: [[Key: Value]]

    init(scales: Int) {
        tables = (0..<scales).map { scale in Dictionary(minimumCapacity: (1 << scale) * 3 / 4) }
    }

    /// An empty table with room for `capacity` entries.
    func withCapacity(_ capacity: Int) -> [Key: Value] {
        var scale = 0
        while scale < tables.count && (1 << scale) * 3 / 4 < capacity { scale += 1 }
        guard scale < tables.count else { return Dictionary(minimumCapacity: capacity) }
        return tables[scale]
    }
}
