import Foundation

/// What the image is doing with its file.
public enum ImageStatus: Sendable, Hashable {
    /// The file is open; reads and writes reach it.
    case ready
    /// The file is a SQLite database that is not an image: left untouched, the store runs without one.
    case foreign
    /// A read found the file unreadable; reads miss until the writer's next drain recreates it.
    case resetPending
    /// No file: closed, abandoned, halted by a stopped drain, or recreating the file failed.
    case unavailable
}

/// Why opening a file deleted it and started again.
public enum ImageDiscardReason: Sendable, Hashable, CustomStringConvertible {
    /// Not a SQLite database (garbage, or a file SQLite cannot read).
    case notADatabase
    /// A SQLite database with damage, or our mark with tables that are not ours.
    case corrupt
    /// Our mark with another row format (`PRAGMA user_version`).
    case otherRowFormat(Int)

    /// The reason in words: "not a SQLite database", "damaged", "row format 3, which this build
    /// does not read".
    public var description: String {
        switch self {
        case .notADatabase: "not a SQLite database"
        case .corrupt: "damaged"
        case .otherRowFormat(let format): "row format \(format), which this build does not read"
        }
    }
}

/// What opening found and did.
public enum ImageOpening: Sendable, Hashable {
    /// A new file, or an empty database, initialized.
    case created
    /// Our file, same row format and application version: rows kept.
    case opened
    /// A file that could not be used was deleted (WAL and SHM first) and started again.
    case recreated(ImageDiscardReason)
    /// Our file from another application version: rows wiped, the file kept.
    case wiped(previousVersion: String)
    /// A SQLite database that is not an image: left byte for byte untouched; no image this launch.
    case foreign
}

/// What an image was opened for.
enum ImageMode: Sendable {
    /// The store's image: reads stamp rows, the writer writes.
    case live
    /// Tools (`baton image dump`): nothing is written, not even the generation.
    case inspection
}

/// Everything about the image's one connection; touched only under ``ImageCore``'s lock.
final class ImageState {
    let path: String
    let vfs: String?
    let appVersion: String
    let mode: ImageMode
    let rules: ImageRules
    let door: SQLiteDoor
    let busyTimeoutMilliseconds: Int
    /// How many pages the WAL may hold before the writer checkpoints it.
    let checkpointPages: Int
    /// Set when a drain or a checkpoint of this process failed: its syncs may have dropped WAL
    /// pages, so checkpoints take a copy of the WAL first (``ImageCheckpoint``) until one of them
    /// has copied every frame into the file.
    var checkpointsGuarded = false
    /// Where this process's copy of the WAL stands (``ImageCheckpoint``): while one may be beside
    /// the image, nothing commits.
    var walCopy = WALCopyState.none
    /// True after an erase's truncating checkpoint failed: the WAL may still hold the pages as they
    /// were before the erase, so the next drain that commits runs the truncating checkpoint again
    /// (``ImageCheckpoint/afterCommit(_:erased:)``).
    var eraseCheckpointOwed = false
    /// True from the drain that commits an erase until its mark is deleted (``EraseMark``),
    /// once no erase checkpoint is owed.
    var eraseMarkOwed = false

    var connection: Connection?
    /// This launch's generation, G: every row written or read is stamped with it.
    var generation: Int
    var names: NameTable
    /// Rows the check read since the last drain. Unchecked: the state is reached only under
    /// ``ImageCore``'s lock, and a read notes every row it answers here.
    @exclusivity(unchecked) var touches = ImageTouches()
    /// True once a drain of this launch committed the launch's eviction.
    var evictionDone: Bool
    /// Set by a read that found the file unreadable: the next drain recreates the file.
    var resetPending = false
    /// How many times the file was recreated after opening.
    var resets = 0
    /// Set by a drain stopped partway on purpose: the transaction stays open, nothing more runs.
    var halted = false
    /// True for a foreign file: no connection, reads miss, writes are dropped.
    var foreign: Bool
    /// The last failure of recreating the file, if it failed.
    var unavailableBecause: SQLiteError?
    /// True while a read's body runs: the body may not drain, dump or read again (it would
    /// break the read's transaction); such calls answer as if there were no file.
    var inRead = false
    /// Set by `close()` or `abandon()` called from inside a read's body: the read closes the
    /// connection when the body returns.
    var closeAfterRead = false
    /// Set when a read met a row, root cell or fetch time that fails its checks.
    var damageSeen = false
    /// True once this launch checked the file's structure (``ImageStructureCheck``).
    var structureChecked = false

    /// Closes the connection now, or as soon as the read in progress ends.
    func closeConnection() {
        if inRead {
            closeAfterRead = true
            return
        }
        connection?.close()
        connection = nil
    }

    init(
        path: String, vfs: String?, appVersion: String, mode: ImageMode, configuration: ImageConfiguration,
        connection: Connection?, generation: Int, names: NameTable, foreign: Bool
    ) {
        self.path = path
        self.vfs = vfs
        self.appVersion = appVersion
        self.mode = mode
        self.rules = configuration.rules
        self.door = SQLiteDoor(faults: configuration.faults)
        self.busyTimeoutMilliseconds = configuration.busyTimeoutMilliseconds
        self.checkpointPages = configuration.checkpointPages
        self.connection = connection
        self.generation = generation
        self.names = names
        self.foreign = foreign
        // A generation-1 file has nothing to age out; neither does a file nobody may write.
        self.evictionDone = mode == .inspection
    }

    /// The oldest `used` a row may have and still be read in this launch (`nil`: any).
    var visibleFrom: Int? {
        rules.visibleFrom(generation: generation)
    }

    /// True when a row stamped `used` is still part of the image in this launch.
    func isVisible(used: Int) -> Bool {
        guard let visibleFrom else { return true }
        return used >= visibleFrom
    }

    /// True when reads may reach the file.
    var canRead: Bool {
        connection != nil && !resetPending && !halted && !foreign
    }

    var status: ImageStatus {
        if foreign { return .foreign }
        if halted { return .unavailable }
        if resetPending { return .resetPending }
        return connection == nil ? .unavailable : .ready
    }
}

/// The lock around the image's state: the writer and the reader take it for every use of the
/// one connection, so a read waits for a write in flight.
///
/// `@unchecked Sendable`: the state (and the connection in it) is reached only through
/// ``withState(_:)``, which holds the lock. The lock is recursive so that a read's body calling
/// back into the image finds ``ImageState/inRead`` set instead of deadlocking.
final class ImageCore: @unchecked Sendable {
    private let lock = NSRecursiveLock()
    private let state: ImageState

    init(_ state: ImageState) {
        self.state = state
    }

    /// Runs `body` with the state, holding the lock.
    func withState<R>(_ body: (ImageState) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(state)
    }
}
