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
    }

    /// Thrown inside opening when the file must be deleted and started again.
    private struct Discard: Error {
        var reason: ImageDiscardReason
    }

    static let liveFlags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    static let inspectionFlags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
    static let probeFlags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX

    // MARK: Live

    /// Opens the store's image at `path`; throws `ImageError` or `SQLiteError`.
    static func openLive(
        path: String, vfs: String?, appVersion: String, door: SQLiteDoor, rules: ImageRules, busyTimeout: Int
    ) throws -> Opened {
        var discarded: ImageDiscardReason?
        for _ in 0..<2 {
            if vfs == nil { try createFileIfMissing(path) }
            // A read-only look first: a database that is not ours is then closed by a handle that
            // cannot have written to it (no hot-journal rollback, no WAL checkpoint at close).
            switch try probe(path: path, vfs: vfs, door: door, busyTimeout: busyTimeout) {
            case .foreign:
                return Opened(connection: nil, generation: 0, names: NameTable(), opening: .foreign)
            case .discard(let reason):
                try deleteFiles(path: path, vfs: vfs, door: door)
                discarded = reason
                continue
            case .empty, .ours, nil:
                break
            }
            let connection = try Connection.open(path: path, vfs: vfs, flags: liveFlags, door: door)
            do {
                try connection.execute("PRAGMA busy_timeout = \(busyTimeout)")
                var opening: ImageOpening
                switch ImageFileClass.classify(try readFacts(connection)) {
                case .foreign:
                    connection.close()
                    return Opened(connection: nil, generation: 0, names: NameTable(), opening: .foreign)
                case .discard(let reason):
                    throw Discard(reason: reason)
                case .empty:
                    try enableWAL(connection)
                    try initialize(connection, appVersion: appVersion)
                    opening = discarded.map { .recreated($0) } ?? .created
                case .ours:
                    let version = try readMeta(connection)
                    try enableWAL(connection)
                    try restartLog(connection)
                    if version != appVersion {
                        try wipe(connection, appVersion: appVersion)
                        opening = .wiped(previousVersion: version)
                    } else {
                        opening = discarded.map { .recreated($0) } ?? .opened
                    }
                }
                let generation = try bumpGeneration(connection)
                let names = try NameTable.load(
                    from: connection, visibleFrom: rules.visibleFrom(generation: generation), generation: generation)
                return Opened(connection: connection, generation: generation, names: names, opening: opening)
            } catch let discard as Discard {
                connection.close()
                try deleteFiles(path: path, vfs: vfs, door: door)
                discarded = discard.reason
            } catch let error as SQLiteError where error.meansUnreadableFile {
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

    /// Classifies the file through a read-only handle; unreadable files classify as discards.
    private static func probe(path: String, vfs: String?, door: SQLiteDoor, busyTimeout: Int) throws -> ImageFileClass? {
        // No file yet, or a WAL file whose shared memory a reader cannot build: no verdict, and
        // the read-write open below classifies the file itself.
        guard let connection = try? Connection.open(path: path, vfs: vfs, flags: probeFlags, door: door) else { return nil }
        let result: Result<ImageFileClass, SQLiteError> = Result { () throws(SQLiteError) in
            try connection.execute("PRAGMA busy_timeout = \(busyTimeout)")
            return ImageFileClass.classify(try readFacts(connection))
        }
        connection.close()
        switch result {
        case .success(let fileClass):
            return fileClass
        case .failure(let error) where error.meansUnreadableFile:
            return .discard(error.code == .notADatabase ? .notADatabase : .corrupt)
        case .failure(let error) where error.code == .cantOpen || error.code == SQLiteResultCode(rawValue: SQLITE_READONLY):
            return nil
        case .failure(let error):
            throw error
        }
    }

    // MARK: Inspection

    /// Opens `path` for tools without writing anything (not even the generation).
    static func openForInspection(path: String, vfs: String?, door: SQLiteDoor) throws -> Opened {
        let connection = try Connection.open(path: path, vfs: vfs, flags: inspectionFlags, door: door)
        do {
            switch ImageFileClass.classify(try readFacts(connection)) {
            case .foreign:
                connection.close()
                return Opened(connection: nil, generation: 0, names: NameTable(), opening: .foreign)
            case .empty:
                throw ImageError.notAnImage(path: path, .notADatabase)
            case .discard(let reason):
                throw ImageError.notAnImage(path: path, reason)
            case .ours:
                _ = try readMeta(connection)
                guard let generation = try metaInt(connection, ImageSchema.generationKey) else {
                    throw ImageError.notAnImage(path: path, .corrupt)
                }
                let names = try NameTable.load(from: connection, visibleFrom: nil, generation: generation)
                return Opened(connection: connection, generation: generation, names: names, opening: .opened)
            }
        } catch let error as SQLiteError where error.meansUnreadableFile {
            connection.close()
            throw ImageError.notAnImage(path: path, error.code == .notADatabase ? .notADatabase : .corrupt)
        } catch {
            connection.close()
            throw error
        }
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

    /// `journal_mode=WAL`, read back, and `synchronous=NORMAL`.
    private static func enableWAL(_ connection: Connection) throws {
        let mode = try connection.scalarText("PRAGMA journal_mode = WAL") ?? ""
        guard mode.lowercased() == "wal" else { throw ImageError.journalModeNotWAL(mode) }
        try connection.execute("PRAGMA synchronous = NORMAL")
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
    static func wipe(_ connection: Connection, appVersion: String) throws(SQLiteError) {
        try inTransaction(connection) { () throws(SQLiteError) in
            for (table, _) in ImageSchema.agingTables {
                try connection.execute("DELETE FROM \(table)")
            }
            try setMeta(connection, ImageSchema.versionKey, text: appVersion)
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
    private static func restartLog(_ connection: Connection) throws(SQLiteError) {
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Counts a launch in its own small transaction; answers the new generation.
    private static func bumpGeneration(_ connection: Connection) throws(SQLiteError) -> Int {
        var generation = 0
        try inTransaction(connection) { () throws(SQLiteError) in
            try connection.execute("UPDATE meta SET value = value + 1 WHERE key = '\(ImageSchema.generationKey)'")
            generation = try metaInt(connection, ImageSchema.generationKey) ?? 0
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

    /// Deletes the image's files through its VFS (`xDelete`), the WAL and the shared memory first.
    static func deleteFiles(path: String, vfs: String?, door: SQLiteDoor) throws(SQLiteError) {
        guard let pointer = door.value({ sqlite3_vfs_find(vfs) }),
              let xDelete = pointer.pointee.xDelete, let xFullPathname = pointer.pointee.xFullPathname
        else {
            throw SQLiteError(extendedCode: .error, message: "no VFS named \(vfs ?? "(default)")")
        }
        let capacity = Int(pointer.pointee.mxPathname) + 1
        var full = [CChar](repeating: 0, count: capacity)
        let resolved = door.value { xFullPathname(pointer, path, Int32(capacity), &full) }
        let base = resolved == SQLITE_OK ? full.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } : path
        for (suffix, syncDirectory) in [("-wal", Int32(0)), ("-shm", Int32(0)), ("", Int32(1))] {
            let name = base + suffix
            let code = door.result(.delete) { name.withCString { xDelete(pointer, $0, syncDirectory) } }
            if code != SQLITE_OK && SQLiteResultCode(rawValue: code) != .ioerrDeleteNoent {
                throw SQLiteError(extendedCode: SQLiteResultCode(rawValue: code), message: "cannot delete \(name)")
            }
        }
    }
}
