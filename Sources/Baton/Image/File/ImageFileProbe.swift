/// What is at an image's path, read from the bytes of the database file, its WAL and its rollback
/// journal, without SQLite and without writing anything.
///
/// Opening classifies the file from these facts before SQLite ever opens it: SQLite writes as
/// soon as it reads a database (it rebuilds a WAL's shared-memory index, rolls back a hot
/// journal, and a read-write handle checkpoints the WAL when it closes), and a database that is
/// not ours must stay byte for byte as it was, with every file beside it.
struct ImageFileProbe {
    /// The database file's size in bytes (0 when there is no file).
    var size: Int
    /// Page 1 as a reader would see it: the WAL's newest committed copy, else the file's own;
    /// `nil` when neither has a whole header.
    var pageOne: DatabasePageOne?
    /// True when the WAL holds committed frames: the file alone is not the database.
    var walHasCommits: Bool
    /// A journal beside the file that SQLite would roll back.
    var journal: RollbackJournal?

    /// Reads what is at `path` through `vfs` (`nil`: SQLite's default).
    static func read(path: String, vfs: String?, door: SQLiteDoor) throws(SQLiteError) -> ImageFileProbe {
        let base = try VFSFile.fullPath(path, vfs: vfs, door: door)
        var probe = ImageFileProbe(size: 0, pageOne: nil, walHasCommits: false, journal: nil)
        if let file = try VFSFile.open(base, kind: .mainDatabase, vfs: vfs, door: door) {
            probe.size = file.size
            var bytes = try file.read(DatabasePageOne.headerSize, at: 0)
            if let header = DatabasePageOne(bytes), let pageSize = header.pageSize {
                bytes = try file.read(pageSize, at: 0)
            }
            probe.pageOne = DatabasePageOne(bytes)
            if let pageSize = probe.pageOne?.pageSize { probe.pageOne?.databasePages = file.size / pageSize }
            // The WAL and the journal only matter beside a database file: SQLite ignores
            // (and deletes) a WAL beside an empty one. One that is there but cannot be opened now
            // fails the probe (the open is tried again): taken for absent, the file's own page 1
            // would be judged alone, and a page 1 a checkpoint tore, which the WAL still holds
            // whole, would have the file deleted as not a database (found by BatonSim,
            // 2026-12-07: seed 778863618 of the default world at 2,000 events, an open fault
            // after a power loss inside an open's checkpoint).
            if let wal = try VFSFile.open(base + "-wal", kind: .writeAheadLog, vfs: vfs, door: door, unopenableIsAbsent: false),
               let log = try WriteAheadLog.read(wal), log.committedFrames > 0 {
                probe.walHasCommits = true
                if let newest = log.pageOne.flatMap(DatabasePageOne.init) { probe.pageOne = newest }
                probe.pageOne?.databasePages = log.databasePages
            }
        }
        if let journal = try VFSFile.open(base + "-journal", kind: .rollbackJournal, vfs: vfs, door: door, unopenableIsAbsent: false) {
            probe.journal = try RollbackJournal.read(journal)
        }
        return probe
    }
}
