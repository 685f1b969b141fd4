import Synchronization

/// A cell with its storage key spelled out, as the writer and the image see it.
public struct NamedCell: Sendable, Hashable {
    public var storageKey: String
    public var cell: Cell

    public init(storageKey: String, cell: Cell) {
        self.storageKey = storageKey
        self.cell = cell
    }

    /// Storage keys compare by their bytes, as keys do.
    public static func == (lhs: NamedCell, rhs: NamedCell) -> Bool {
        ExactText.bytesEqual(lhs.storageKey, rhs.storageKey) && lhs.cell == rhs.cell
    }

    public func hash(into hasher: inout Hasher) {
        ExactText.hashBytes(storageKey, into: &hasher)
        hasher.combine(cell)
    }
}

/// One changed record at commit time, handed to the writer.
///
/// `cells` is everything memory holds for the record (not only what changed), sorted by storage
/// key. `hydrated` says memory holds everything the image's row holds (the check read the row
/// this launch and memory has not dropped the record since): only then, or when `deleted`, may
/// the snapshot replace its row; otherwise the writer merges it over the row.
///
/// The store hands over its record data as it is (a value sharing storage, not a copy) with the
/// commit's ``RecordTypes``: `cells` and `linkTypes` are then worked out when the writer reads
/// them, off the main actor.
public struct Snapshot: Sendable, Hashable {
    public var key: RecordKey
    public var typename: String
    public var deleted: Bool
    public var hydrated: Bool
    private var content: Content

    private enum Content: Sendable {
        /// Cells named and sorted, link types spelled out.
        case named(cells: [NamedCell], linkTypes: [RecordKey: String])
        /// The record's cells by slot, and where the types of its links come from: `known`
        /// first, then the commit's types.
        case record(cells: CellTable, types: RecordTypes, known: [RecordKey: String])
    }

    public init(
        key: RecordKey, typename: String, cells: [NamedCell], deleted: Bool, hydrated: Bool,
        linkTypes: [RecordKey: String] = [:]
    ) {
        self.key = key
        self.typename = typename
        self.deleted = deleted
        self.hydrated = hydrated
        self.content = .named(cells: cells, linkTypes: linkTypes)
    }

    /// The snapshot of `record` as memory holds it; the types of its link targets are looked up
    /// in `linkTypes`, then in `types`, when the writer asks.
    package init(key: RecordKey, record: RecordData, hydrated: Bool, types: RecordTypes, linkTypes: [RecordKey: String] = [:]) {
        self.key = key
        self.typename = record.typename
        self.deleted = record.deleted
        self.hydrated = hydrated
        self.content = .record(cells: record.deleted ? [:] : record.cells, types: types, known: linkTypes)
    }

    /// The cells, sorted by storage key (UTF-8).
    public var cells: [NamedCell] {
        get {
            switch content {
            case .named(let cells, _): cells
            case .record(let cells, _, _): RecordData.namedCells(cells)
            }
        }
        set { content = .named(cells: newValue, linkTypes: linkTypes) }
    }

    /// The record's cells by slot and where its links' types come from (``init(key:record:hydrated:types:linkTypes:)``'s
    /// `linkTypes`, then `types`), when the snapshot was made from a store's memory and not
    /// changed since; `nil` for a snapshot of named cells. The writer encodes such a snapshot
    /// from its slots without naming and sorting its cells as ``cells`` does.
    package var recordCells: (cells: CellTable, types: RecordTypes, known: [RecordKey: String])? {
        if case .record(let cells, let types, let known) = content { return (cells, types, known) }
        return nil
    }

    /// The type of each link target the store knew at commit time (a link is stored as type and key).
    public var linkTypes: [RecordKey: String] {
        get {
            switch content {
            case .named(_, let linkTypes):
                return linkTypes
            case .record(let cells, let types, let known):
                return types.withTable { table in
                    var linkTypes: [RecordKey: String] = [:]
                    for cell in cells.values {
                        cell.value.forEachLink { target in
                            if let typename = known[target] ?? table[target] { linkTypes[target] = typename }
                        }
                    }
                    return linkTypes
                }
            }
        }
        set { content = .named(cells: cells, linkTypes: newValue) }
    }

    public static func == (lhs: Snapshot, rhs: Snapshot) -> Bool {
        lhs.key == rhs.key && lhs.typename == rhs.typename && lhs.deleted == rhs.deleted && lhs.hydrated == rhs.hydrated
            && lhs.cells == rhs.cells && lhs.linkTypes == rhs.linkTypes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(typename)
        hasher.combine(deleted)
        hasher.combine(hydrated)
        hasher.combine(cells)
        hasher.combine(linkTypes)
    }
}

/// The type of every record one commit wrote, for the writer to look its snapshots' link types
/// up in, off the main actor: what a commit writes covers every record its response names, so
/// every link a record took from this commit.
package final class RecordTypes: Sendable {
    private let written: [SourceView.Write]
    private let table = Mutex<[RecordKey: String]?>(nil)

    init(_ written: [SourceView.Write]) {
        self.written = written
    }

    /// Runs `body` with the type of every key the commit wrote, as the commit left it (the table
    /// is built by the first caller, the writer).
    package func withTable<T>(_ body: ([RecordKey: String]) -> T) -> T {
        table.withLock { table in
            if let table { return body(table) }
            var built: [RecordKey: String] = Dictionary(minimumCapacity: written.count)
            for write in written { built[write.key] = write.data.typename }
            table = built
            return body(built)
        }
    }
}

/// The last fetch time of an operation, stamped by a server commit.
public struct FetchStamp: Sendable, Hashable {
    public var operation: OperationIdentity
    public var time: Double

    public init(operation: OperationIdentity, time: Double) {
        self.operation = operation
        self.time = time
    }
}

/// What one server commit hands the writer: snapshots of changed records (in the order the
/// commit first wrote them, which depends on the change set alone; the query root excluded), the
/// query root's changed fields, and fetch times.
public struct WriteBatch: Sendable, Hashable {
    public var snapshots: [Snapshot]
    /// Query-root fields that changed, sorted by storage key; the query root is a row per field.
    public var rootFields: [NamedCell]
    public var fetches: [FetchStamp]
    /// The type of every record the commit wrote, when a store made the batch: where the writer
    /// looks up the types of its root fields' links.
    package var recordTypes: RecordTypes?

    public init(snapshots: [Snapshot] = [], rootFields: [NamedCell] = [], fetches: [FetchStamp] = []) {
        self.snapshots = snapshots
        self.rootFields = rootFields
        self.fetches = fetches
    }

    public var isEmpty: Bool { snapshots.isEmpty && rootFields.isEmpty && fetches.isEmpty }

    public static func == (lhs: WriteBatch, rhs: WriteBatch) -> Bool {
        lhs.snapshots == rhs.snapshots && lhs.rootFields == rhs.rootFields && lhs.fetches == rhs.fetches
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(snapshots)
        hasher.combine(rootFields)
        hasher.combine(fetches)
    }
}

/// A record as the image's row holds it.
public enum ImageRecord: Sendable, Hashable {
    case deleted(typename: String)
    case present(typename: String, cells: [NamedCell])
}

/// What a read of one record's row found.
public enum ImageRowLookup: Sendable, Hashable {
    /// The row, verified.
    case found(ImageRecord)
    /// No row this launch may read: none, aged out, or damaged (a damaged row is no data).
    case absent
    /// The read itself failed (busy, locked, out of memory, an I/O error): nothing is known of
    /// the row, so memory must not be taken to hold everything it holds.
    case unreadable

    /// The row, when one was found.
    public var record: ImageRecord? {
        if case .found(let record) = self { return record }
        return nil
    }
}

/// What the availability check can ask inside one read transaction of the image.
///
/// Every answer that comes from a row stamps that row as used in this launch; a row that is
/// missing, fails its checksum, or aged out is a miss, never wrong data; a read that fails says so.
public protocol ImageReadTransaction {
    /// The row of `key`, its absence, or a failed read.
    func record(_ key: RecordKey) -> ImageRowLookup
    func rootField(_ storageKey: String) -> Cell?
    func fetchTime(_ operation: OperationIdentity) -> Double?
}

/// The store's handle on its image: where server commits go and where the check reads.
public protocol StoreImage: AnyObject, Sendable {
    /// Queues what a server commit changed for the writer (called on the main actor, returns at once).
    func enqueue(_ batch: WriteBatch)
    /// Forgets everything the image holds, after everything queued (``Store/erase()``): what is
    /// queued is dropped, reads miss from now on, and the writer's next drain empties the file
    /// and leaves none of its bytes in the file or the WAL. Returns once the erase is durable:
    /// `true` when it will reach the file even if the process is killed now (a mark beside the
    /// file makes the next open erase it, ``EraseMark``); `false` when the image has no file it
    /// may write (its open failed, it was closed, or the file is another app's), so the file
    /// keeps whatever it holds, or when the mark could not be written, so the erase reaches the
    /// file only with the writer's next drain that commits.
    func erase() -> Bool
    /// Records whose snapshots the writer has not committed yet: collection keeps them.
    func pendingKeys() -> Set<RecordKey>
    /// Runs `body` inside one read transaction (waiting for a write in flight); `nil` when the
    /// image cannot be read now (no file, a foreign file, a fault): the check then answers from memory.
    func read<T>(_ body: (any ImageReadTransaction) -> T) -> T?
}
