import Synchronization

/// The store's image: a SQLite file that keeps the store's records across launches.
///
/// Open it off the main actor (``open(path:vfs:appVersion:)`` is synchronous). The store hands
/// it each server commit's changes (``enqueue(_:)``, returns at once) and the availability check
/// reads it (``read(_:)``, waiting for a write in flight). One image per file per process, and
/// one process per image: a second open of the same file in this process throws until the first
/// is closed, and a second process waits for the first to close it (see ``open(path:vfs:appVersion:)``).
public final class Image: StoreImage, Sendable {
    let core: ImageCore
    /// The one writer of this image.
    package let writer: ImageWriter
    /// What opening found at the path and did with it.
    public let opening: ImageOpening
    /// The path the image was opened with.
    public let path: String
    /// The VFS it was opened with (`nil`: SQLite's default).
    public let vfs: String?
    private let registryKey: String?
    /// The lock that keeps other processes out while this image has its file.
    private let fileLock: ImageFileLock?
    /// True once the file was given back to the registry (close, abandon or deinit, once).
    private let released = Mutex(false)

    private init(
        core: ImageCore, writer: ImageWriter, opening: ImageOpening, path: String, vfs: String?, registryKey: String?,
        fileLock: ImageFileLock?
    ) {
        self.core = core
        self.writer = writer
        self.opening = opening
        self.path = path
        self.vfs = vfs
        self.registryKey = registryKey
        self.fileLock = fileLock
    }

    deinit {
        // Dropped without close: like a process that ends without quitting cleanly.
        core.withState { $0.closeConnection() }
        releaseFile()
    }

    /// Gives the file back to other processes and to the process-wide registry, once; called
    /// after the connection is closed.
    private func releaseFile() {
        let first = released.withLock { released in
            defer { released = true }
            return !released
        }
        guard first else { return }
        fileLock?.release()
        if let registryKey { ImageFileRegistry.release(registryKey) }
    }

    // MARK: Opening

    /// Opens (creating, recreating or wiping as needed) the image at `path`, production settings.
    ///
    /// What is at the path is classified from its bytes before SQLite opens it: a SQLite database
    /// that is not an image is left untouched, and so is every file beside it (``opening`` is
    /// `.foreign` and the image runs without a file); garbage, a damaged file SQLite refuses, and
    /// another row format are deleted and started again.
    ///
    /// Two processes never have one image open at once. The image takes an exclusive lock on a
    /// file beside it (`<path>-lock`, created 0600 and never deleted) before it classifies the
    /// file, and gives it up after its connection is closed. A second process waits for the first
    /// to close the image, up to one second; after that it throws ``ImageError/inUse(path:)`` and
    /// the app runs without an image for that launch (``OpeningImage`` does so). Creation, the
    /// first schema and every generation are therefore one process's at a time, and a writer of an
    /// older generation can never stamp rows after a newer launch.
    ///
    /// - Parameters:
    ///   - path: the file; created with mode 0600 when missing.
    ///   - vfs: a SQLite VFS name (the simulator's, which is one process, so takes no lock);
    ///     `nil` for SQLite's default.
    ///   - appVersion: the application's version; an image from another version is wiped.
    /// - Throws: ``ImageError``: the file is already open in this process or in another, cannot be
    ///   created, or SQLite failed.
    public static func open(path: String, vfs: String? = nil, appVersion: String) throws(ImageError) -> Image {
        try open(path: path, vfs: vfs, appVersion: appVersion, configuration: ImageConfiguration())
    }

    /// Opens the image with a writer that drains only when asked (``drainNow()``), for tests that
    /// decide when the writer lands: before or after a check, a kill, a relaunch.
    public static func open(path: String, appVersion: String, executor: ManualWriterExecutor) throws(ImageError) -> Image {
        try open(path: path, vfs: nil, appVersion: appVersion, configuration: ImageConfiguration(executor: executor))
    }

    /// Drains the writer now: everything queued, in one transaction. True when the drain
    /// committed or had nothing to do; false when it failed (the work stays queued) or the image
    /// has no file.
    @discardableResult
    public func drainNow() -> Bool {
        switch writer.drain() {
        case .committed, .nothingToDo: true
        default: false
        }
    }

    /// Opens the image at `path` with the seams of `configuration` (executor, faults, limits, mutant).
    package static func open(
        path: String, vfs: String? = nil, appVersion: String, configuration: ImageConfiguration
    ) throws(ImageError) -> Image {
        let key = ImageFileRegistry.key(path: path, vfs: vfs)
        try ImageFileRegistry.claim(key, path: path)
        let door = SQLiteDoor(faults: configuration.faults)
        let opened: ImageOpener.Opened
        let lock: ImageFileLock?
        do {
            (opened, lock) = try ImageOpener.openLive(
                path: path, vfs: vfs, appVersion: appVersion, door: door, rules: configuration.rules,
                busyTimeout: configuration.busyTimeoutMilliseconds, lockWait: configuration.lockWaitMilliseconds)
        } catch {
            ImageFileRegistry.release(key)
            throw imageError(error)
        }
        let foreign = opened.opening == .foreign
        let state = ImageState(
            path: path, vfs: vfs, appVersion: appVersion, mode: .live, configuration: configuration,
            connection: opened.connection, generation: opened.generation, names: opened.names, foreign: foreign)
        let core = ImageCore(state)
        let writer = ImageWriter(
            core: core, executor: configuration.executor, limits: configuration.limits, accepting: !foreign,
            eraseMark: foreign ? nil : EraseMark.Place(path: path, vfs: vfs, door: door), marksErase: configuration.rules.eraseMarks,
            queueRules: configuration.rules.queue)
        // An erase whose process ended before its drain finished it: it is done now, before the
        // store reads anything (``EraseMark``).
        if opened.eraseMarked { writer.erase(marking: false) }
        return Image(
            core: core, writer: writer, opening: opened.opening, path: path, vfs: vfs, registryKey: key, fileLock: lock)
    }

    /// The files beside an image that belong to it, as suffixes of its path, in the order an open
    /// deletes them before the image: a checkpoint's copy of the WAL, the WAL, the shared memory
    /// and a rollback journal.
    package static let companionSuffixes = [CheckpointCopy.suffix, "-wal", "-shm", "-journal"]

    /// What an open of the file at `path` would delete it for, read from its bytes alone (the
    /// file is neither opened by SQLite nor changed); nil when an open would keep the file, create
    /// it, or leave it alone as someone else's database. A checkpoint's copy of the WAL beside the
    /// file answers nil: the file is an image of ours that an open died inside.
    ///
    /// The store deletes what it cannot use at its own path; tools given a path by hand
    /// (`baton image write`, `read`) ask first, so that a wrong path never costs a file.
    package static func discardReason(path: String) throws(ImageError) -> ImageDiscardReason? {
        do {
            if case .discard(let reason)? = try ImageOpener.classifyBeforeLock(path: path, vfs: nil, door: SQLiteDoor(faults: nil)) {
                return reason
            }
            return nil
        } catch {
            throw .sqlite(error)
        }
    }

    /// Opens `path` for tools (`baton image dump`, `stats`): writes nothing (a read-only
    /// connection that never checkpoints, `immutable=1` when the WAL holds nothing), never stamps,
    /// never bumps the generation, never deletes; not counted as the file's image and takes no
    /// lock, so it may look at an image another process has open.
    ///
    /// - Throws: ``ImageError/notAnImage(path:_:)`` for garbage, damage or another row format.
    ///   A foreign database opens with ``opening`` `.foreign` and dumps nothing.
    package static func inspect(path: String, vfs: String? = nil, faults: FaultInjector? = nil) throws(ImageError) -> Image {
        let configuration = ImageConfiguration(executor: ManualWriterExecutor(), faults: faults)
        let opened: ImageOpener.Opened
        do {
            opened = try ImageOpener.openForInspection(path: path, vfs: vfs, door: SQLiteDoor(faults: faults))
        } catch {
            throw imageError(error)
        }
        let state = ImageState(
            path: path, vfs: vfs, appVersion: "", mode: .inspection, configuration: configuration,
            connection: opened.connection, generation: opened.generation, names: opened.names,
            foreign: opened.opening == .foreign)
        let core = ImageCore(state)
        let writer = ImageWriter(core: core, executor: configuration.executor, limits: configuration.limits, accepting: false)
        return Image(
            core: core, writer: writer, opening: opened.opening, path: path, vfs: vfs, registryKey: nil, fileLock: nil)
    }

    private static func imageError(_ error: any Error) -> ImageError {
        switch error {
        case let error as ImageError: error
        case let error as SQLiteError: .sqlite(error)
        default: .sqlite(SQLiteError(extendedCode: .error, message: String(describing: error)))
        }
    }

    // MARK: State

    /// This launch's generation (each open counts one); 0 for a foreign file.
    public var generation: Int {
        core.withState { $0.generation }
    }

    /// What the image is doing with its file now.
    public var status: ImageStatus {
        core.withState { $0.status }
    }

    /// How many times the file was recreated since opening, after reads found it unreadable.
    public var resets: Int {
        core.withState { $0.resets }
    }

    // MARK: StoreImage

    public func enqueue(_ batch: WriteBatch) {
        writer.enqueue(batch)
    }

    /// Leaves the erase's mark beside the file (``EraseMark``) and drops what is queued; reads
    /// miss until the writer's next drain that commits, which deletes every row (their bytes
    /// overwritten with zeros), then checkpoints the WAL into the file and truncates it, then
    /// deletes the mark. A process that ends before (killed, or the power lost) leaves the mark,
    /// and the next open erases the image before anything reads it.
    ///
    /// `false` when the image takes no work (closed, foreign), or when the mark could not be
    /// written (a full disk): the erase still reaches the file at the next drain that commits,
    /// but a process killed before then leaves the rows (``drainNow()`` to be sure).
    @discardableResult
    public func erase() -> Bool {
        writer.erase()
    }

    public func pendingKeys() -> Set<RecordKey> {
        writer.pendingKeys()
    }

    /// Runs `body` inside one read transaction, after any write in flight.
    ///
    /// `nil` without a file (foreign, closed, halted, waiting to be recreated or emptied). Inside
    /// `body`, a nested `read`, a drain or a dump answers as if there were no file, and `close()`
    /// takes effect when `body` returns.
    public func read<T>(_ body: (any ImageReadTransaction) -> T) -> T? {
        if writer.needsWipe { return nil }
        var wake = false
        let result: T? = core.withState { state in
            guard state.canRead, !state.inRead, let connection = state.connection else { return nil }
            do throws(SQLiteError) {
                connection.rollbackIfNeeded()
                try connection.execute("BEGIN")
            } catch {
                // An I/O error or a full disk fails this read only, as in a read's own steps
                // (until 2026-12-05 any error but "not now" started the file again).
                if error.meansUnreadableFile {
                    state.resetPending = true
                    wake = true
                }
                return nil
            }
            let session = ImageReadSession(state: state, connection: connection)
            state.inRead = true
            let result = body(session)
            state.inRead = false
            session.close()
            do throws(SQLiteError) {
                try connection.execute("COMMIT")
            } catch {
                connection.rollbackIfNeeded()
            }
            if state.closeAfterRead {
                state.closeConnection()
                return result
            }
            wake = session.needsWriter
            if ImageStructureCheck.afterRead(state, connection) {
                state.resetPending = true
                wake = true
            }
            return result
        }
        if wake { writer.executor.writerHasWork(writer) }
        return result
    }

    // MARK: Ending

    /// Quits cleanly: one last drain of what is queued, then the file is closed and released.
    ///
    /// When that drain finds the file unreadable, one more drain starts the file again and writes
    /// the work into it, as the writer's next retry would have. Later reads miss and later
    /// batches are dropped. Safe to call twice.
    public func close() {
        writer.stopAccepting()
        if status == .ready || status == .resetPending {
            if case .failed = writer.drain(), status == .resetPending { writer.drain() }
        }
        core.withState { state in
            if !state.inRead { ImageCheckpoint.beforeClose(state) }
            state.closeConnection()
        }
        releaseFile()
    }

    /// Drops the image as a killed process would: no last drain; the connection is closed (an
    /// open transaction is rolled back by SQLite) and the file released for the next launch.
    ///
    /// For tests of an app's own crash consistency: commit, maybe ``drainNow()``, then abandon
    /// and open the file again in a new image and store, as the next launch would.
    ///
    /// The WAL stays as the process left it, as a kill leaves it: the handle closes without
    /// checkpointing, and the next open checkpoints the WAL behind its copy.
    public func abandon() {
        writer.stopAccepting()
        core.withState { state in
            state.connection?.keepWALAtClose()
            state.closeConnection()
        }
        releaseFile()
    }
}
