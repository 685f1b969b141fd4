import BatonSim
import CSQLite
import Testing

/// Directory entries on the simulated disk: a file created or removed is pending until its
/// directory is synced, as SQLite's unix VFS syncs it (a WAL's or journal's first sync,
/// `xDelete` with `syncDir`), and a power loss may lose what was never synced.
@Suite("Simulated disk: directory entries wait for a directory sync")
struct DiskDirectoryTests {
    @Test("a database file whose directory was never synced may vanish at a power loss, synced bytes and all")
    func unsyncedEntryVanishes() {
        var vanished = 0
        var kept = 0
        for powerSeed in UInt64(0)..<32 {
            let disk = SimulatedDisk(seed: 3)
            let connection = DiskConnection(disk, name: "plain.sqlite")
            // No journal, so nothing but the main file is ever synced: its directory never is.
            #expect(connection.exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=FULL") == SQLITE_OK)
            #expect(connection.exec("CREATE TABLE t(x); INSERT INTO t VALUES(42)") == SQLITE_OK)
            #expect(disk.pendingWriteCount(of: "plain.sqlite") == 0)
            #expect(disk.entryIsDurable("plain.sqlite") == false)
            #expect(disk.pendingDirectoryEntries == 1)
            #expect(disk.hasPendingWrites, "a pending entry is something not durable")
            disk.powerLoss(seed: powerSeed)
            connection.closeAfterCrash(disk)
            if disk.fileExists("plain.sqlite") {
                kept += 1
                #expect(disk.entryIsDurable("plain.sqlite") == true)
                let reopened = DiskConnection(disk, name: "plain.sqlite")
                #expect(reopened.int("SELECT x FROM t") == 42)
                reopened.close()
            } else {
                vanished += 1
                #expect(disk.fileNames.isEmpty)
            }
            #expect(disk.pendingDirectoryEntries == 0)
            #expect(disk.counters.entriesKept + disk.counters.entriesLost == 1)
        }
        #expect(vanished > 0 && kept > 0, "vanished \(vanished), kept \(kept)")
    }

    @Test("a WAL's first sync syncs the directory (UNIXFILE_DIRSYNC); the main file's syncs do not")
    func walSyncsTheDirectory() {
        let disk = SimulatedDisk(seed: 4)
        let connection = DiskConnection(disk)
        #expect(connection.text("PRAGMA journal_mode=WAL") == "wal")
        #expect(connection.exec("PRAGMA synchronous=NORMAL; CREATE TABLE t(x)") == SQLITE_OK)
        // Switching an empty file to WAL commits through a rollback journal, whose first sync
        // syncs the directory; the WAL header's sync at the first commit does it again: both
        // entries are durable.
        let directorySyncs = disk.counters.directorySyncs
        #expect(directorySyncs >= 1)
        #expect(disk.entryIsDurable("image.sqlite") == true)
        #expect(disk.entryIsDurable("image.sqlite-wal") == true)
        #expect(disk.pendingDirectoryEntries == 0)
        // Later syncs of the same handle do not sync the directory again.
        #expect(connection.exec("INSERT INTO t VALUES(1); PRAGMA wal_checkpoint(FULL)") == SQLITE_OK)
        #expect(disk.counters.directorySyncs == directorySyncs)
        connection.close()
    }

    @Test("a WAL a clean close deleted may come back at a power loss, and SQLite reads it harmlessly")
    func lostRemovalBringsTheWALBack() {
        var cameBack = 0
        var stayedGone = 0
        for powerSeed in UInt64(0)..<24 {
            let disk = SimulatedDisk(seed: 6)
            let connection = DiskConnection(disk)
            #expect(DiskWorkload.setUp(connection, autocheckpoint: 1000) == "wal")
            for j in 1...5 { connection.exec(DiskWorkload.transaction(j, salt: 6)) }
            let signature = DiskWorkload.signature(connection)
            #expect(connection.close() == SQLITE_OK)
            // The close checkpointed and synced everything, then deleted the WAL without syncDir.
            #expect(!disk.fileExists("image.sqlite-wal"))
            #expect(disk.pendingDirectoryEntries == 1)
            disk.powerLoss(seed: powerSeed)
            if disk.fileExists("image.sqlite-wal") { cameBack += 1 } else { stayedGone += 1 }
            let reopened = DiskConnection(disk)
            #expect(reopened.text("PRAGMA integrity_check") == "ok")
            #expect(DiskWorkload.signature(reopened) == signature)
            reopened.close()
        }
        #expect(cameBack > 0 && stayedGone > 0, "came back \(cameBack), stayed gone \(stayedGone)")
    }

    @Test("xDelete with syncDir makes the removal durable at once; without it a power loss may undo it")
    func deleteWithSyncDir() throws {
        for syncDir in [Int32(1), 0] {
            var undone = 0
            for powerSeed in UInt64(0)..<16 {
                let disk = SimulatedDisk(seed: 8)
                disk.overwrite("file", bytes: [1, 2, 3])
                let vfs = try #require(sqlite3_vfs_find(disk.vfsName))
                #expect(vfs.pointee.xDelete(vfs, "/file", syncDir) == SQLITE_OK)
                #expect(!disk.fileExists("file"))
                #expect(disk.pendingDirectoryEntries == (syncDir == 1 ? 0 : 1))
                disk.powerLoss(seed: powerSeed)
                if let back = disk.bytes(of: "file") {
                    undone += 1
                    #expect(back == [1, 2, 3])
                }
            }
            if syncDir == 1 { #expect(undone == 0) } else { #expect(undone > 0) }
        }
    }

    @Test("flushAll writes directory changes back too")
    func flushAllSyncsDirectories() {
        let disk = SimulatedDisk(seed: 10)
        let connection = DiskConnection(disk, name: "plain.sqlite")
        #expect(connection.exec("PRAGMA journal_mode=OFF; CREATE TABLE t(x)") == SQLITE_OK)
        #expect(disk.entryIsDurable("plain.sqlite") == false)
        disk.flushAll()
        #expect(disk.entryIsDurable("plain.sqlite") == true)
        #expect(!disk.hasPendingWrites)
        connection.close()
    }
}
