import BatonSim
import CSQLite
import Testing

@testable import Baton

/// The copy of the WAL an open takes before its checkpoint (`CheckpointCopy`): taken whole with a
/// trailer, put back over a WAL that lost frames, and only deleted when it was cut short.
@Suite("Checkpoint copy: the WAL's bytes kept aside while a checkpoint runs")
struct CheckpointCopyTests {
    static let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE

    /// A WAL database with three committed transactions and no checkpoint, still open.
    static func walFile(seed: UInt64) throws -> (SimulatedDisk, Connection, String) {
        let disk = SimulatedDisk(seed: seed)
        let connection = try Connection.open(path: "copy.db", vfs: disk.vfsName, flags: flags, door: SQLiteDoor())
        _ = try connection.scalarText("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA wal_autocheckpoint = 0")
        try connection.execute("CREATE TABLE t(k INTEGER PRIMARY KEY, v BLOB)")
        for batch in 0..<3 {
            try connection.execute("BEGIN")
            for index in 0..<200 { try connection.execute("INSERT INTO t VALUES(\(batch * 1000 + index), randomblob(300))") }
            try connection.execute("COMMIT")
        }
        let base = try VFSFile.fullPath("copy.db", vfs: disk.vfsName, door: SQLiteDoor())
        return (disk, connection, base)
    }

    @Test("the copy holds the WAL and a trailer; put back, it repairs a WAL that lost its frames, and goes")
    func restores() throws {
        let (disk, connection, base) = try Self.walFile(seed: 1)
        let wal = try #require(disk.bytes(of: base + "-wal"))
        // Longer than one write of SQLite's unix VFS can carry (and the simulated disk's).
        #expect(wal.count > 0x1ffff)
        #expect(try CheckpointCopy.take(base: base, vfs: disk.vfsName, door: SQLiteDoor()))
        let copy = try #require(disk.bytes(of: base + CheckpointCopy.suffix))
        #expect(copy.count == wal.count + CheckpointCopy.trailerSize)
        #expect(Array(copy.prefix(wal.count)) == wal)
        // The process dies; the WAL lost its last frames (as after a writeback error).
        disk.kill()
        connection.close()
        disk.overwrite(base + "-wal", bytes: Array(wal.prefix(wal.count / 2)))
        #expect(try CheckpointCopy.restoreIfLeft(base: base, vfs: disk.vfsName, door: SQLiteDoor()))
        #expect(disk.bytes(of: base + "-wal") == wal)
        #expect(!disk.fileExists(base + CheckpointCopy.suffix))
        let reopened = try Connection.open(path: "copy.db", vfs: disk.vfsName, flags: Self.flags, door: SQLiteDoor())
        defer { reopened.close() }
        #expect(try reopened.scalarInt("SELECT count(*) FROM t") == 600)
        #expect(try reopened.scalarText("PRAGMA integrity_check") == "ok")
    }

    @Test("a copy cut short (its trailer does not check) is deleted, and the WAL is left as it is")
    func cutShort() throws {
        let (disk, connection, base) = try Self.walFile(seed: 2)
        #expect(try CheckpointCopy.take(base: base, vfs: disk.vfsName, door: SQLiteDoor()))
        disk.kill()
        connection.close()
        let wal = try #require(disk.bytes(of: base + "-wal"))
        let copy = try #require(disk.bytes(of: base + CheckpointCopy.suffix))
        for damaged in [Array(copy.dropLast(3)), Array(copy.prefix(copy.count / 2)), copy.enumerated().map { $0.offset == 40 ? $0.element ^ 1 : $0.element }] {
            disk.overwrite(base + CheckpointCopy.suffix, bytes: damaged)
            #expect(try CheckpointCopy.restoreIfLeft(base: base, vfs: disk.vfsName, door: SQLiteDoor()))
            #expect(disk.bytes(of: base + "-wal") == wal)
            #expect(!disk.fileExists(base + CheckpointCopy.suffix))
        }
        #expect(try CheckpointCopy.restoreIfLeft(base: base, vfs: disk.vfsName, door: SQLiteDoor()) == false)
    }

    @Test("a copy left beside a file put back by hand without its WAL is deleted, not written over the file")
    func fileReplacedByHand() throws {
        let (disk, connection, base) = try Self.walFile(seed: 4)
        #expect(try CheckpointCopy.take(base: base, vfs: disk.vfsName, door: SQLiteDoor()))
        disk.kill()
        connection.close()
        // Another database (a backup: checkpointed, no WAL) is put in the file's place, and the
        // WAL and shared memory of the one it replaces are deleted, as SQLite's docs ask.
        let backup = try Connection.open(path: "backup.db", vfs: disk.vfsName, flags: Self.flags, door: SQLiteDoor())
        try backup.execute("CREATE TABLE t(k INTEGER PRIMARY KEY, v BLOB)")
        for index in 0..<5 { try backup.execute("INSERT INTO t VALUES(\(index), randomblob(10))") }
        backup.close()
        let backupBase = try VFSFile.fullPath("backup.db", vfs: disk.vfsName, door: SQLiteDoor())
        disk.overwrite(base, bytes: try #require(disk.bytes(of: backupBase)))
        #expect(disk.delete(base + "-wal"))
        _ = disk.delete(base + "-shm")
        #expect(try CheckpointCopy.restoreIfLeft(base: base, vfs: disk.vfsName, door: SQLiteDoor()))
        #expect(!disk.fileExists(base + CheckpointCopy.suffix))
        #expect(!disk.fileExists(base + "-wal"))
        let reopened = try Connection.open(path: "copy.db", vfs: disk.vfsName, flags: Self.flags, door: SQLiteDoor())
        defer { reopened.close() }
        #expect(try reopened.scalarInt("SELECT count(*) FROM t") == 5)
        #expect(try reopened.scalarText("PRAGMA integrity_check") == "ok")
    }

    @Test("a WAL that is there but cannot be opened now is not taken for one deleted by hand: the copy stays")
    func walNotOpenable() throws {
        let (disk, connection, base) = try Self.walFile(seed: 5)
        let wal = try #require(disk.bytes(of: base + "-wal"))
        #expect(try CheckpointCopy.take(base: base, vfs: disk.vfsName, door: SQLiteDoor()))
        disk.kill()
        connection.close()
        disk.overwrite(base + "-wal", bytes: Array(wal.prefix(wal.count / 2)))
        // The copy opens; the WAL, opened next, does not (no descriptor left, a locked device).
        disk.fail(.open, code: 0, skipping: 1)
        #expect(throws: SQLiteError.self) { try CheckpointCopy.restoreIfLeft(base: base, vfs: disk.vfsName, door: SQLiteDoor()) }
        disk.clearFaults()
        #expect(disk.fileExists(base + CheckpointCopy.suffix))
        // Once the WAL opens, the copy repairs it as ever.
        #expect(try CheckpointCopy.restoreIfLeft(base: base, vfs: disk.vfsName, door: SQLiteDoor()))
        let repaired = disk.bytes(of: base + "-wal") == wal
        #expect(repaired)
        let reopened = try Connection.open(path: "copy.db", vfs: disk.vfsName, flags: Self.flags, door: SQLiteDoor())
        defer { reopened.close() }
        #expect(try reopened.scalarInt("SELECT count(*) FROM t") == 600)
    }

    @Test("a WAL that cannot be opened to copy fails the copy: the checkpoint it guards must not run")
    func walNotOpenableToCopy() throws {
        let (disk, connection, base) = try Self.walFile(seed: 6)
        defer { connection.close() }
        disk.fail(.open, code: 0)
        #expect(throws: SQLiteError.self) { try CheckpointCopy.take(base: base, vfs: disk.vfsName, door: SQLiteDoor()) }
        disk.clearFaults()
        #expect(try CheckpointCopy.take(base: base, vfs: disk.vfsName, door: SQLiteDoor()))
    }

    @Test("no WAL, no copy")
    func noWAL() throws {
        let disk = SimulatedDisk(seed: 3)
        let connection = try Connection.open(path: "plain.db", vfs: disk.vfsName, flags: Self.flags, door: SQLiteDoor())
        defer { connection.close() }
        try connection.execute("CREATE TABLE t(k INTEGER PRIMARY KEY)")
        let base = try VFSFile.fullPath("plain.db", vfs: disk.vfsName, door: SQLiteDoor())
        #expect(try CheckpointCopy.take(base: base, vfs: disk.vfsName, door: SQLiteDoor()) == false)
        #expect(!disk.fileExists(base + CheckpointCopy.suffix))
    }
}
