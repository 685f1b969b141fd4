/// One record's data as a value: what the store keeps in its base and in its optimistic overlay.
public struct RecordData: Hashable, Sendable {
    public var typename: String
    public var cells: CellTable
    /// Deleted by `@deleteRecord`: reads as null through links, counts as present for the check.
    public var deleted: Bool

    public init(typename: String, cells: CellTable = [:], deleted: Bool = false) {
        self.typename = typename
        self.cells = cells
        self.deleted = deleted
    }

    /// The cells as named cells, sorted by storage key (UTF-8): the order the image and printers use.
    public var namedCells: [NamedCell] {
        Self.namedCells(cells)
    }

    /// `cells` as named cells, sorted by storage key (UTF-8), their names read under one lock.
    static func namedCells(_ cells: CellTable) -> [NamedCell] {
        let names = SlotTable.shared.names(of: cells.keys)
        var named: [NamedCell] = []
        named.reserveCapacity(cells.count)
        for ((_, cell), name) in zip(cells, names) {
            named.append(NamedCell(storageKey: name, cell: cell))
        }
        named.sort { CanonicalJSON.utf8Less($0.storageKey, $1.storageKey) }
        return named
    }
}

/// A view over a record source that collects writes without touching the source until asked:
/// the change-set applier writes through one, for the base and for optimistic layers alike.
///
/// Writes are kept in the order keys were first written, so whoever applies them meets records
/// in an order that depends on the change set alone, never on hashing. Each write also says
/// whether the record may hold cells from before this view (`holdsEarlierCells`): only such a
/// record can link to records the view did not write.
struct SourceView {
    /// One record the view wrote.
    struct Write {
        let key: RecordKey
        var data: RecordData
        var holdsEarlierCells: Bool
    }

    /// Where reads fall back to when the view has not written a key.
    let fallback: (RecordKey) -> RecordData?
    /// What this view wrote, one entry per key, in first-write order.
    private(set) var written: [Write] = []
    private var positions: [RecordKey: Int] = [:]

    init(capacity: Int = 0, fallback: @escaping (RecordKey) -> RecordData?) {
        self.fallback = fallback
        written.reserveCapacity(capacity)
        positions.reserveCapacity(capacity)
    }

    /// What this view wrote, by key.
    var writes: [RecordKey: RecordData] {
        Dictionary(written.lazy.map { ($0.key, $0.data) }, uniquingKeysWith: { $1 })
    }

    /// Reads what the view wrote, or the source; a write through the subscript counts as one
    /// that may hold earlier cells.
    subscript(key: RecordKey) -> RecordData? {
        get {
            if let position = positions[key] { return written[position].data }
            return fallback(key)
        }
        set {
            // The applier never writes an absence; a view has no way to hide a source's record.
            guard let newValue else { return }
            write(key, newValue, holdsEarlierCells: true)
        }
    }

    /// Writes `data` under `key`; `holdsEarlierCells` false promises that every cell of `data`
    /// comes from the change set being applied.
    mutating func write(_ key: RecordKey, _ data: RecordData, holdsEarlierCells: Bool) {
        if let position = positions[key] {
            written[position].data = data
            written[position].holdsEarlierCells = written[position].holdsEarlierCells || holdsEarlierCells
        } else {
            positions[key] = written.count
            written.append(Write(key: key, data: data, holdsEarlierCells: holdsEarlierCells))
        }
    }
}
