/// One record's data as a value: what the store keeps in its base and in its optimistic overlay.
public struct RecordData: Hashable, Sendable {
    public var typename: String
    public var cells: [SlotID: Cell]
    /// Deleted by `@deleteRecord`: reads as null through links, counts as present for the check.
    public var deleted: Bool

    public init(typename: String, cells: [SlotID: Cell] = [:], deleted: Bool = false) {
        self.typename = typename
        self.cells = cells
        self.deleted = deleted
    }

    /// The cells as named cells, sorted by storage key (UTF-8): the order the image and printers use.
    public var namedCells: [NamedCell] {
        cells.map { NamedCell(storageKey: $0.key.name, cell: $0.value) }
            .sorted { CanonicalJSON.utf8Less($0.storageKey, $1.storageKey) }
    }
}

/// A view over a record source that collects writes without touching the source until asked:
/// the change-set applier writes through one, for the base and for optimistic layers alike.
struct SourceView {
    /// Where reads fall back to when the view has not written a key.
    let fallback: (RecordKey) -> RecordData?
    /// What this view wrote, by key.
    private(set) var writes: [RecordKey: RecordData] = [:]

    init(fallback: @escaping (RecordKey) -> RecordData?) {
        self.fallback = fallback
    }

    subscript(key: RecordKey) -> RecordData? {
        get { writes[key] ?? fallback(key) }
        set { writes[key] = newValue }
    }
}
