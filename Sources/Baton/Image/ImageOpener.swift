import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens an image file: classifies what is at the path, deletes what cannot be used, creates,
/// wipes or keeps, then counts the launch.
enum ImageOpener {
    /// What opening produced.
    struct Opened {
        var connection: Connection?
        var generation: Int
        var names: NameTable
        var opening: ImageOpening
        /// An erase's mark was beside the file (``EraseMark``): the image must be erased before
        /// anything reads it.
        var eraseMarked = false
    }

    /// Thrown inside opening when the file must be deleted and started again.
    private struct Discard: Error {
        var reason: ImageDiscardReason
    }

    static let liveFlags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    static let inspectionFlags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX

    /// What opening gives for a database that is not ours: no connection, no image this launch.
    static var foreignOpened: Opened { Opened(connection: nil, generation: 0, names: NameTable(), opening: .foreign) }

    // MARK: Live

    /// Opens the store's image at `path`; throws `ImageError` or `SQLiteError`.
    ///
    /// The file is classified from its bytes first (``ImageFileProbe``): a database that is not
    /// ours is answered `.foreign` without SQLite ever opening it and without a lock file beside
    /// it. Otherwise the image's lock is taken (default VFS only: a custom VFS, the simulator's,
    /// is one process), waiting up to `lockWait` milliseconds for another process, and everything
    /// else happens under it; the lock comes back with the connection.
    static func openLive(
        path: String, vfs: String?, appVersion: String, door: SQLiteDoor, rules: ImageRules, busyTimeout: Int,
        lockWait: Int
    ) throws -> (opened: Opened, lock: ImageFileLock?) {
        let fileClass = try classifyBeforeLock(path: path, vfs: vfs, door: door)
        if fileClass == .foreign {
            return (foreignOpened, nil)
        }
        let lock = vfs == nil ? try ImageFileLock.acquire(imagePath: path, waitMilliseconds: lockWait) : nil
        do {
            // Without a lock (a custom VFS: one process) nothing can change the file between this
            // classification and the one under the lock, so that one is this one.
            let opened = try openLocked(
                path: path, vfs: vfs, appVersion: appVersion, door: door, rules: rules, busyTimeout: busyTimeout,
                classified: lock == nil && vfs != nil ? fileClass : nil)
            guard opened.connection != nil else {
                lock?.release()
                return (opened, nil)
            }
            return (opened, lock)
        } catch {
            lock?.release()
            throw error
        }
    }

    /// The file's class from its bytes, before the lock is taken; nil when a checkpoint's copy of
    /// the WAL is beside it: an open of ours died inside its checkpoint, and page 1 may be one it
    /// was writing, so the file is classified once the copy is back, under the lock
    /// (``CheckpointCopy``).
    static func classifyBeforeLock(path: String, vfs: String?, door: SQLiteDoor) throws(SQLiteError) -> ImageFileClass? {
        if try CheckpointCopy.isLeft(base: VFSFile.fullPath(path, vfs: vfs, door: door), vfs: vfs, door: door) { return nil }
        return ImageFileClass.classify(try ImageFileProbe.read(path: path, vfs: vfs, door: door))
    }

    /// Opens the image at `path` with its lock held: classifies again (another process may have
    /// created or replaced the file meanwhile), deletes what cannot be used, creates, wipes or
    /// keeps, then counts the launch.
    ///
    /// `classified` is the file's class when the caller knows it is still current (no other
    /// process can reach the file): the first attempt uses it instead of reading the file again.
    static func openLocked(
        path: String, vfs: String?, appVersion: String, door: SQLiteDoor, rules: ImageRules, busyTimeout: Int,
        classified: ImageFileClass? = nil
    ) throws -> Opened {
        var discarded: ImageDiscardReason?
        var known = classified
        let base = try VFSFile.fullPath(path, vfs: vfs, door: door)
        if try CheckpointCopy.restoreIfLeft(base: base, vfs: vfs, door: door) { known = nil }
        // Looked for before anything else can fail the open: an erase's mark outlives every
        // recreation and wipe, and is deleted only by the drain that finishes the erase.
        let eraseMarked = try rules.honoursEraseMark && EraseMark.isPresent(beside: base, vfs: vfs, door: door)
        for _ in 0..<3 {
            let fileClass = try known ?? ImageFileClass.classify(ImageFileProbe.read(path: path, vfs: vfs, door: door))
            known = nil
            switch fileClass {
            case .foreign:
                return foreignOpened
            case .discard(let reason):
                try deleteFiles(path: path, vfs: vfs, door: door)
                discarded = reason
                continue
            case .empty, .ours:
                break
            }
            if vfs == nil { try createFileIfMissing(path) }
            guard let connection = try openConnection(path: path, vfs: vfs, rules: rules, door: door) else {
                try deleteFiles(path: path, vfs: vfs, door: door)
                discarded = .corrupt
                continue
            }
            // The open's own commits never checkpoint either: a wipe can leave more than SQLite's
            // 1,000 pages, and a checkpoint SQLite ran then would fail unseen (``ImageCheckpoint``).
            connection.countWALFrames()
            do {
                try connection.setBusyTimeout(milliseconds: busyTimeout)
                var opening: ImageOpening
                let facts = try readFacts(connection)
                // The file's row format when it is an older one, to be marked the current one.
                var olderFormat: Int?
                switch ImageFileClass.classify(facts) {
                case .foreign:
                    connection.close()
                    return foreignOpened
                case .discard(let reason):
                    throw Discard(reason: reason)
                case .empty:
                    // The page size holds only while the file is empty: before WAL writes page 1.
                    try connection.execute("PRAGMA page_size = \(ImageSchema.pageSize)")
                    try enableWAL(connection, rules: rules)
                    try initialize(connection, appVersion: appVersion)
                    try confirmWAL(connection)
                    opening = discarded.map { .recreated($0) } ?? .created
                case .ours:
                    if facts.userVersion != ImageSchema.rowFormatVersion { olderFormat = facts.userVersion }
                    let version = try readMeta(connection)
                    try enableWAL(connection, rules: rules)
                    if !rules.keepsWALAtOpen { try restartLog(connection, base: base, door: door, guarded: rules.guardsCheckpoint) }
                    if version != appVersion {
                        try wipe(connection, appVersion: appVersion, rules: rules)
                        opening = .wiped(previousVersion: version)
                    } else {
                        opening = discarded.map { .recreated($0) } ?? .opened
                    }
                }
                let generation = try bumpGeneration(
                    connection, olderFormat: olderFormat, movesOldStamps: rules.movesOldStamps && !rules.movesStampsApart)
                if rules.movesStampsApart, let olderFormat, olderFormat < ImageSchema.stampsFormat {
                    try inTransaction(connection) { () throws(SQLiteError) in
                        for sql in ImageSchema.SQL.moveStamps { try connection.execute(sql) }
                    }
                }
                try ensureWALAfterFirstWrite(connection)
                let names = try NameTable.load(
                    from: connection, visibleFrom: rules.visibleFrom(generation: generation), generation: generation)
                // A name that fails its checksum: a damaged row, or a damaged file (see ImageStructureCheck).
                if names.damaged > 0, ImageStructureCheck.findsDamage(connection, rules: rules) { throw Discard(reason: .corrupt) }
                return Opened(connection: connection, generation: generation, names: names, opening: opening, eraseMarked: eraseMarked)
            } catch let discard as Discard {
                connection.close()
                try deleteFiles(path: path, vfs: vfs, door: door)
                discarded = discard.reason
            } catch let error as SQLiteError where error.meansUnusableFile {
                connection.close()
                try deleteFiles(path: path, vfs: vfs, door: door)
                discarded = error.code == .notADatabase ? .notADatabase : .corrupt
            } catch {
                connection.close()
                throw error
            }
        }
        throw ImageError.recreateFailed(path: path)
    }

    /// The live connection to `path`; `nil` only under the mutant `cantOpenDiscards`, when SQLite
    /// cannot open the file (it is then deleted and started again).
    private static func openConnection(path: String, vfs: String?, rules: ImageRules, door: SQLiteDoor) throws(SQLiteError) -> Connection? {
        do {
            return try Connection.open(path: path, vfs: vfs, flags: liveFlags, door: door)
        } catch {
            if rules.cantOpenDiscards && error.code == .cantOpen { return nil }
            throw error
        }
    }

    // MARK: Inspection

    /// Opens `path` for tools without writing anything: no generation, no checkpoint, no
    /// recovery into a file that is not ours.
    ///
    /// The file is classified from its bytes; an image is then opened read-only. Without
    /// committed frames in its WAL it is opened `immutable=1`, so SQLite creates and locks
    /// nothing beside it; with them SQLite must read the WAL, through its shared-memory index,
    /// which it may create or rebuild (the database and the WAL are never written).
    static func openForInspection(path: String, vfs: String?, door: SQLiteDoor) throws -> Opened {
        let probe = try ImageFileProbe.read(path: path, vfs: vfs, door: door)
        switch ImageFileClass.classify(probe) {
        case .foreign:
            return foreignOpened
        case .empty:
            throw ImageError.notAnImage(path: path, .notADatabase)
        case .discard(let reason):
            throw ImageError.notAnImage(path: path, reason)
        case .ours:
            break
        }
        let uri = fileURI(path) + (probe.walHasCommits ? "?mode=ro" : "?immutable=1")
        let connection = try Connection.open(path: uri, vfs: vfs, flags: inspectionFlags, door: door)
        do {
            guard ImageFileClass.classify(try readFacts(connection)) == .ours else {
                throw ImageError.notAnImage(path: path, .corrupt)
            }
            _ = try readMeta(connection)
            guard let generation = try metaInt(connection, ImageSchema.generationKey) else {
                throw ImageError.notAnImage(path: path, .corrupt)
            }
            let names = try NameTable.load(from: connection, visibleFrom: nil, generation: generation)
            return Opened(connection: connection, generation: generation, names: names, opening: .opened)
        } catch let discard as Discard {
            connection.close()
            throw ImageError.notAnImage(path: path, discard.reason)
        } catch let error as SQLiteError where error.meansUnusableFile {
            connection.close()
            throw ImageError.notAnImage(path: path, error.code == .notADatabase ? .notADatabase : .corrupt)
        } catch {
            connection.close()
            throw error
        }
    }

    /// `path` as a `file:` URI (percent-encoding every byte but unreserved ones and `/`), to add
    /// query parameters to.
    static func fileURI(_ path: String) -> String {
        var uri = "file:"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"), UInt8(ascii: "/"):
                uri.append(Character(Unicode.Scalar(byte)))
            default:
                let hex = Array("0123456789ABCDEF")
                uri += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0x0F)])
            }
        }
        return uri
    }

    // MARK: Steps

    /// Reads what classification needs, without writing: the application id first, and the
    /// schema only when the id does not already say the file is someone else's.
    static func readFacts(_ connection: Connection) throws(SQLiteError) -> ImageFileClass.Facts {
        let applicationID = try connection.scalarInt("PRAGMA application_id") ?? 0
        if ImageFileClass.isForeign(applicationID: applicationID) {
            return ImageFileClass.Facts(applicationID: applicationID, userVersion: 0, schema: [])
        }
        let userVersion = try connection.scalarInt("PRAGMA user_version") ?? 0
        let statement = try connection.prepare("SELECT type, name, sql FROM sqlite_schema ORDER BY name")
        defer { statement.reset() }
        var schema: [ImageFileClass.SchemaObject] = []
        while try statement.step() {
            schema.append(ImageFileClass.SchemaObject(
                type: statement.text(0), name: statement.text(1),
                sql: statement.isNull(2) ? nil : statement.text(2)))
        }
        return ImageFileClass.Facts(applicationID: applicationID, userVersion: userVersion, schema: schema)
    }

    /// The application version an image of ours was written by; a `meta` without a version or an
    /// integer generation is damage.
    private static func readMeta(_ connection: Connection) throws -> String {
        let statement = try connection.prepare("SELECT typeof(value), value FROM meta WHERE key = ?1")
        defer { statement.reset() }
        try statement.bind(ImageSchema.versionKey, at: 1)
        guard try statement.step(), statement.text(0) == "text" else { throw Discard(reason: .corrupt) }
        let version = statement.text(1)
        statement.reset()
        try statement.bind(ImageSchema.generationKey, at: 1)
        guard try statement.step(), statement.text(0) == "integer" else { throw Discard(reason: .corrupt) }
        return version
    }

    /// An integer from `meta`.
    static func metaInt(_ connection: Connection, _ key: String) throws(SQLiteError) -> Int? {
        let statement = try connection.prepare(ImageSchema.SQL.selectMeta)
        defer { statement.reset() }
        try statement.bind(key, at: 1)
        return try statement.step() ? statement.int(0) : nil
    }

    /// `journal_mode=WAL`, read back, `synchronous=NORMAL`, and `secure_delete` on: a row
    /// replaced or deleted (an erase's above all, ``Image/erase()``) leaves zeros where its bytes
    /// were, in its page and in the pages it frees, whatever the SQLite build's default (Debian's
    /// is on, not every platform's). The mutant `eraseLeavesBytes` turns it off.
    private static func enableWAL(_ connection: Connection, rules: ImageRules) throws {
        try requireWAL(connection.scalarText("PRAGMA journal_mode = WAL"))
        try connection.execute("PRAGMA synchronous = NORMAL")
        try connection.execute("PRAGMA secure_delete = \(rules.eraseOverwrites ? 1 : 0)")
    }

    /// Throws unless the connection really is in WAL mode. On an empty file `journal_mode = WAL`
    /// answers `wal` before anything is written and switches at the first write; a WAL that cannot
    /// be created then (no descriptor left, a locked device) leaves SQLite in rollback mode
    /// without a word, and every later commit would go through a rollback journal that nothing
    /// here expects (found by BatonSim once opens could fail, 2026-12-07: a power loss then left
    /// an empty file beside a hot journal of the image, which the next open took for another
    /// app's database and never wrote again).
    private static func confirmWAL(_ connection: Connection) throws {
        try requireWAL(connection.scalarText("PRAGMA journal_mode"))
    }

    /// After the open's first write (the launch's count), whatever the file was: SQLite may
    /// answer `wal` to the switch and stay in rollback mode when it could not make the switch (a
    /// rollback journal it could not delete), which only a write shows (found by BatonSim,
    /// 2026-12-07: seed 677701034 of GitHub's world, an image run through rollback journals,
    /// whose erase then left a row's bytes in the file). The switch is asked for once more, and
    /// the open fails if it still does not hold.
    private static func ensureWALAfterFirstWrite(_ connection: Connection) throws {
        if (try? confirmWAL(connection)) != nil { return }
        _ = try connection.scalarText("PRAGMA journal_mode = WAL")
        try confirmWAL(connection)
    }

    /// Throws unless SQLite answered the journal mode `wal`.
    private static func requireWAL(_ mode: String?) throws(ImageError) {
        guard let mode, mode.lowercased() == "wal" else { throw ImageError.journalModeNotWAL(mode ?? "") }
    }

    /// Creates the tables, marks the file as ours and records the application version.
    private static func initialize(_ connection: Connection, appVersion: String) throws(SQLiteError) {
        try inTransaction(connection) { () throws(SQLiteError) in
            for table in ImageSchema.tables {
                try connection.execute(table.sql)
            }
            try connection.execute("PRAGMA application_id = \(ImageSchema.applicationID)")
            try connection.execute("PRAGMA user_version = \(ImageSchema.rowFormatVersion)")
            try setMeta(connection, ImageSchema.generationKey, int: 0)
            try setMeta(connection, ImageSchema.versionKey, text: appVersion)
        }
    }

    /// Deletes every row of every table but `meta`, and records the new application version.
    /// The generation keeps counting.
    static func wipe(_ connection: Connection, appVersion: String, rules: ImageRules = .production) throws(SQLiteError) {
        if rules.wipeMarksFirst {
            try inTransaction(connection) { () throws(SQLiteError) in try setMeta(connection, ImageSchema.versionKey, text: appVersion) }
        }
        try inTransaction(connection) { () throws(SQLiteError) in
            for (table, _) in ImageSchema.agingTables {
                try connection.execute("DELETE FROM \(table)")
            }
            if !rules.wipeKeepsOldVersion { try setMeta(connection, ImageSchema.versionKey, text: appVersion) }
        }
    }

    /// Checkpoints whatever the last launch left in the WAL and starts the log again.
    ///
    /// After a power loss the WAL may hold frames past the last one recovery accepted (a torn
    /// write in the middle, later writes intact). Appending after the recovered end with the same
    /// salts could make those stale frames valid again if the new frames repeat the old bytes, and
    /// a later crash would then bring back a lost launch's writes. A checkpoint that truncates the
    /// log gives the next frames new salts, so nothing stale can ever be read. Found by BatonSim
    /// (seeds 210, 248 and 481 of the first 10,000-seed campaign).
    ///
    /// The checkpoint is guarded by a durable copy of the WAL (``CheckpointCopy``): a writeback
    /// error may have left frames that reads see and the platter lacks, and a crash inside the
    /// checkpoint would then leave the file beyond repair.
    private static func restartLog(_ connection: Connection, base: String, door: SQLiteDoor, guarded: Bool) throws(SQLiteError) {
        let copied = guarded ? try CheckpointCopy.take(base: base, vfs: connection.vfs, door: door) : false
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        if copied { try CheckpointCopy.remove(base: base, vfs: connection.vfs, door: door) }
    }

    /// Counts a launch in its own small transaction; answers the new generation. With
    /// `olderFormat` (the file's `user_version`, as opening read it under the lock, when it is an
    /// older row format) the file is marked the current format in the same transaction, and a
    /// file from before ``ImageSchema/stampsFormat`` has its stamps moved there too: a crash
    /// leaves it either all old or all new.
    ///
    /// The count is one statement that answers the new value (`RETURNING`), and the format is
    /// not read again: a new connection compiles every statement it runs, and opening is most of
    /// what a launch costs the simulator (issue 10).
    private static func bumpGeneration(_ connection: Connection, olderFormat: Int?, movesOldStamps: Bool) throws(SQLiteError) -> Int {
        var generation = 0
        try inTransaction(connection) { () throws(SQLiteError) in
            let statement = try connection.prepare(ImageSchema.SQL.bumpGeneration)
            defer { statement.reset() }
            try statement.bind(ImageSchema.generationKey, at: 1)
            if try statement.step() { generation = statement.int(0) }
            statement.reset()
            // An older row format's rows read as they are: the file is the current format from now on.
            if let olderFormat {
                if olderFormat < ImageSchema.stampsFormat, movesOldStamps {
                    for sql in ImageSchema.SQL.moveStamps { try connection.execute(sql) }
                }
                try connection.execute("PRAGMA user_version = \(ImageSchema.rowFormatVersion)")
            }
        }
        return generation
    }

    private static func setMeta(_ connection: Connection, _ key: String, int value: Int) throws(SQLiteError) {
        let statement = try connection.prepare(ImageSchema.SQL.setMeta)
        defer { statement.reset() }
        try statement.bind(key, at: 1)
        try statement.bind(value, at: 2)
        try statement.run()
    }

    private static func setMeta(_ connection: Connection, _ key: String, text value: String) throws(SQLiteError) {
        let statement = try connection.prepare(ImageSchema.SQL.setMeta)
        defer { statement.reset() }
        try statement.bind(key, at: 1)
        try statement.bind(value, at: 2)
        try statement.run()
    }

    /// Runs `body` between `BEGIN IMMEDIATE` and `COMMIT`, rolling back when anything fails.
    static func inTransaction(_ connection: Connection, _ body: () throws(SQLiteError) -> Void) throws(SQLiteError) {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            try body()
            try connection.execute("COMMIT")
        } catch {
            connection.rollbackIfNeeded()
            throw error
        }
    }

    // MARK: Files

    /// Creates `path` with mode 0600 when nothing is there (the default VFS only).
    static func createFileIfMissing(_ path: String) throws(ImageError) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return
        }
        let code = errno
        if code != EEXIST { throw ImageError.cannotCreateFile(path: path, errno: code) }
    }

    /// Deletes the image's files through its VFS (`xDelete`): a checkpoint's copy of the WAL, the
    /// WAL, the shared memory and a rollback journal first, so that nothing of the old file can be
    /// replayed into the new one, then the file itself, syncing its directory.
    static func deleteFiles(path: String, vfs: String?, door: SQLiteDoor) throws(SQLiteError) {
        let base = try VFSFile.fullPath(path, vfs: vfs, door: door)
        for suffix in Image.companionSuffixes {
            try VFSFile.delete(base + suffix, vfs: vfs, door: door, syncDirectory: false)
        }
        try VFSFile.delete(base, vfs: vfs, door: door, syncDirectory: true)
    }
}
