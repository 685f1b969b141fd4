/// Empty cell tables of growing capacity, made once, for code that builds a record's cells by slot.
///
/// `Dictionary(minimumCapacity:)` is not specialized for `[SlotID: Cell]`: each call looked the
/// table's generic metadata up at run time, once per record (a fifth of ingest's `makeChange`,
/// and once per row in hydration). A shared empty table of the right size costs nothing to
/// take, and the first insertion copies it into a table of its own, already sized.
enum EmptyCellTables {
    /// Scales 0 … 7: room for up to 96 cells without growing.
    private static let tables: [[SlotID: Cell]] = (0..<8).map { scale in
        Dictionary(minimumCapacity: (1 << scale) * 3 / 4)
    }

    /// An empty cell table with room for `capacity` cells.
    static func withCapacity(_ capacity: Int) -> [SlotID: Cell] {
        var scale = 0
        while scale < tables.count && (1 << scale) * 3 / 4 < capacity { scale += 1 }
        guard scale < tables.count else { return Dictionary(minimumCapacity: capacity) }
        return tables[scale]
    }
}
