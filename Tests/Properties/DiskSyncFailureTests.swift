import BatonSim
import CSQLite
import Testing

/// What a failed sync does on the simulated disk: keeps the writes pending (a later sync persists
/// them), or drops them as Linux may after a writeback error (they stay visible, never reach the
/// platter, and the next sync succeeds).
@Suite("Simulated disk: failed syncs keep or drop the pending writes")
struct DiskSyncFailureTests {
    /// A WAL with unsynced frames, then a checkpoint whose WAL sync fails.
    private static func failedCheckpoint(_ mode: SimulatedDisk.SyncFailure) -> (SimulatedDisk, DiskConnection) {
        let disk = SimulatedDisk(seed: 21)
        disk.setSyncFailure(mode)
        let connection = DiskConnection(disk)
        #expect(DiskWorkload.setUp(connection, autocheckpoint: 100_000) == "wal")
        for j in 1...4 { connection.exec(DiskWorkload.transaction(j, salt: 21)) }
        #expect((disk.pendingWriteCount(of: "image.sqlite-wal") ?? 0) > 0)
        disk.failNextSync(code: SimulatedDisk.Code.ioErrFsync)
        #expect(connection.exec("PRAGMA wal_checkpoint(FULL)") == SimulatedDisk.Code.ioErrFsync)
        return (disk, connection)
    }

    @Test("keeps: the writes stay pending and the next sync persists them")
    func keeps() {
        let (disk, connection) = Self.failedCheckpoint(.keeps)
        #expect((disk.pendingWriteCount(of: "image.sqlite-wal") ?? 0) > 0)
        #expect(disk.isDiverged("image.sqlite-wal") == false)
        #expect(disk.counters.failedSyncsDropping == 0)
        #expect(connection.exec("PRAGMA wal_checkpoint(FULL)") == SQLITE_OK)
        #expect(disk.bytes(of: "image.sqlite-wal") == disk.durableBytes(of: "image.sqlite-wal"))
        connection.close()
    }

    @Test("drops: the writes stay visible, never become durable, and the next sync succeeds")
    func drops() {
        let (disk, connection) = Self.failedCheckpoint(.drops)
        let seen = disk.bytes(of: "image.sqlite-wal")
        #expect(disk.pendingWriteCount(of: "image.sqlite-wal") == 0)
        #expect(disk.isDiverged("image.sqlite-wal") == true)
        #expect(disk.hasPendingWrites, "a diverged file is not durable")
        #expect(disk.counters.failedSyncsDropping == 1)
        #expect(disk.counters.writesLostToFailedSync > 0)
        #expect(disk.durableBytes(of: "image.sqlite-wal") != seen)
        // The OS writing its cache back does not bring them back either.
        disk.flushAll()
        #expect(disk.durableBytes(of: "image.sqlite-wal") != seen)
        #expect(disk.bytes(of: "image.sqlite-wal") == seen, "reads still see them")
        // The next checkpoint's sync succeeds: it had nothing to write. The checkpoint copies
        // the frames (read from the cache) into the database and syncs it: the data is durable
        // there, while the WAL stays diverged.
        #expect(connection.exec("PRAGMA wal_checkpoint(FULL)") == SQLITE_OK)
        #expect(disk.bytes(of: "image.sqlite") == disk.durableBytes(of: "image.sqlite"))
        #expect(disk.isDiverged("image.sqlite-wal") == true)
        // A power loss: the WAL goes back to its durable bytes, no longer diverged.
        let signature = DiskWorkload.signature(connection)
        disk.powerLoss(seed: 3)
        #expect(disk.isDiverged("image.sqlite-wal") == false)
        connection.closeAfterCrash(disk)
        let reopened = DiskConnection(disk)
        #expect(reopened.text("PRAGMA integrity_check") == "ok")
        #expect(DiskWorkload.signature(reopened) == signature)
        reopened.close()
    }
}
