/// The image as the oracle expects it (or as the oracle's own reader decoded it): every row of
/// `records`, `root` and `fetches` with its `used` stamp, the file's generation and the
/// application version that opened it last.
///
/// Rows are logical: a record row is its type, deleted flag and cells by storage key; the name
/// ids, the type hints of links and the entity flag of the bytes are checked by the reader and
/// not kept here.
package struct OracleImage: Hashable, Sendable {
    /// `meta.generation`: the launch that last opened the file (0 before any open).
    package var generation: Int
    package var records: [OracleText: OracleRow] = [:]
    /// Query-root fields by storage key.
    package var root: [OracleText: OracleRootRow] = [:]
    /// Fetch times by operation identity.
    package var fetches: [OracleText: OracleFetchRow] = [:]
    /// `meta.version`: the application version that opened the file last; nil while the file
    /// holds no image yet (the next launch creates one under its own version).
    package var appVersion: String?

    package init(
        generation: Int, records: [OracleText: OracleRow] = [:], root: [OracleText: OracleRootRow] = [:],
        fetches: [OracleText: OracleFetchRow] = [:], appVersion: String? = nil
    ) {
        self.generation = generation
        self.records = records
        self.root = root
        self.fetches = fetches
        self.appVersion = appVersion
    }

    /// An image with no rows.
    package static func empty(generation: Int) -> OracleImage {
        OracleImage(generation: generation)
    }

    /// The same rows, whatever the generations say.
    package func sameRows(as other: OracleImage) -> Bool {
        records == other.records && root == other.root && fetches == other.fetches
    }

    /// How many rows the three tables hold.
    package var rowCount: Int { records.count + root.count + fetches.count }
}

/// One row of `records`.
package struct OracleRow: Hashable, Sendable {
    package var used: Int
    package var typename: String
    package var deleted: Bool
    package var cells: [OracleText: OracleCell]

    package init(used: Int, typename: String, deleted: Bool = false, cells: [OracleText: OracleCell] = [:]) {
        self.used = used
        self.typename = typename
        self.deleted = deleted
        self.cells = cells
    }

    /// The row's record, as hydration puts it into memory.
    package var record: OracleRecord {
        OracleRecord(typename: typename, cells: deleted ? [:] : cells, deleted: deleted)
    }
}

/// One row of `root`: a query-root field's cell.
package struct OracleRootRow: Hashable, Sendable {
    package var used: Int
    package var cell: OracleCell

    package init(used: Int, cell: OracleCell) {
        self.used = used
        self.cell = cell
    }
}

/// One row of `fetches`: when an operation was last fetched.
package struct OracleFetchRow: Hashable, Sendable {
    package var used: Int
    package var time: Double

    package init(used: Int, time: Double) {
        self.used = used
        self.time = time
    }

    package static func == (lhs: OracleFetchRow, rhs: OracleFetchRow) -> Bool {
        lhs.used == rhs.used && lhs.time.bitPattern == rhs.time.bitPattern
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(used)
        hasher.combine(time.bitPattern)
    }
}

/// What one server commit hands the writer, computed by the oracle from its own memory before
/// and after the commit.
package struct OracleBatch: Hashable, Sendable {
    /// Every record whose data changed (the query root aside), by key.
    package var snapshots: [OracleSnapshot] = []
    /// Query-root fields whose cells changed.
    package var rootFields: [OracleText: OracleCell] = [:]
    /// The operation's fetch time, when the response had data.
    package var fetch: (operation: OracleText, time: Double)?

    package init() {}

    package var isEmpty: Bool { snapshots.isEmpty && rootFields.isEmpty && fetch == nil }

    /// Items as the writer's bound counts them: snapshots, root fields and the fetch time.
    package var itemCount: Int { snapshots.count + rootFields.count + (fetch == nil ? 0 : 1) }

    package static func == (lhs: OracleBatch, rhs: OracleBatch) -> Bool {
        lhs.snapshots == rhs.snapshots && lhs.rootFields == rhs.rootFields
            && lhs.fetch?.operation == rhs.fetch?.operation && lhs.fetch?.time.bitPattern == rhs.fetch?.time.bitPattern
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(snapshots)
        hasher.combine(rootFields)
        hasher.combine(fetch?.operation)
        hasher.combine(fetch?.time.bitPattern)
    }
}

/// One changed record at commit time: everything memory holds for it, and whether memory holds
/// everything its row holds (hydrated) or the record is deleted; either lets it replace its row.
package struct OracleSnapshot: Hashable, Sendable {
    package var key: OracleText
    package var record: OracleRecord
    package var hydrated: Bool

    package init(key: OracleText, record: OracleRecord, hydrated: Bool) {
        self.key = key
        self.record = record
        self.hydrated = hydrated
    }
}

/// Rows the check read whose `used` is not this launch's yet: the next drain stamps them.
package struct OracleTouches: Hashable, Sendable {
    package var records: Set<OracleText> = []
    package var rootFields: Set<OracleText> = []
    package var fetches: Set<OracleText> = []

    package var isEmpty: Bool { records.isEmpty && rootFields.isEmpty && fetches.isEmpty }
}

/// How a process ended, which decides the image states a relaunch may find.
package enum ProcessEnd: String, Hashable, Sendable {
    /// A clean quit: the last drain that returned.
    case quit
    /// A kill (or a drain stopped part way): the last drain that returned.
    case kill
    /// Power lost: any drain from the last one known durable to the last that returned.
    case powerLoss
    /// The file replaced by garbage: an empty image.
    case corruption
    /// A process died while it opened the image: any state its open could have left
    /// (``Oracle/openCrashed(after:appVersion:powerLoss:)``).
    case openCrash
}
