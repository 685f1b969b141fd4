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
public struct Snapshot: Sendable, Hashable {
    public var key: RecordKey
    public var typename: String
    public var cells: [NamedCell]
    public var deleted: Bool
    public var hydrated: Bool
    /// The type of each link target the store knew at commit time (a link is stored as type and key).
    public var linkTypes: [RecordKey: String]

    public init(
        key: RecordKey, typename: String, cells: [NamedCell], deleted: Bool, hydrated: Bool,
        linkTypes: [RecordKey: String] = [:]
    ) {
        self.key = key
        self.typename = typename
        self.cells = cells
        self.deleted = deleted
        self.hydrated = hydrated
        self.linkTypes = linkTypes
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

/// What one server commit hands the writer: snapshots of changed records (sorted by key, the
/// query root excluded), the query root's changed fields, and fetch times.
public struct WriteBatch: Sendable, Hashable {
    public var snapshots: [Snapshot]
    /// Query-root fields that changed, sorted by storage key; the query root is a row per field.
    public var rootFields: [NamedCell]
    public var fetches: [FetchStamp]

    public init(snapshots: [Snapshot] = [], rootFields: [NamedCell] = [], fetches: [FetchStamp] = []) {
        self.snapshots = snapshots
        self.rootFields = rootFields
        self.fetches = fetches
    }

    public var isEmpty: Bool { snapshots.isEmpty && rootFields.isEmpty && fetches.isEmpty }
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
    /// Records whose snapshots the writer has not committed yet: collection keeps them.
    func pendingKeys() -> Set<RecordKey>
    /// Runs `body` inside one read transaction (waiting for a write in flight); `nil` when the
    /// image cannot be read now (no file, a foreign file, a fault): the check then answers from memory.
    func read<T>(_ body: (any ImageReadTransaction) -> T) -> T?
}
