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

/// Why the simulator's power losses never fall inside a checkpoint while syncs drop writes: SQLite
/// cannot survive it, and no program on top of SQLite can tell.
@Suite("Simulated disk: SQLite and a sync that dropped WAL frames")
struct DiskDroppedSyncLimitTests {
    /// The outcome of one run: a WAL whose checkpoint sync failed, a second checkpoint stopped
    /// after `copied` page writes into the database, then a power loss.
    private static func run(_ mode: SimulatedDisk.SyncFailure, copied: UInt32, powerSeed: UInt64) -> (consistent: Bool, prefix: Bool) {
        let disk = SimulatedDisk(seed: 31)
        disk.setSyncFailure(mode)
        let connection = DiskConnection(disk)
        #expect(DiskWorkload.setUp(connection, autocheckpoint: 100_000) == "wal")
        var signatures = [DiskWorkload.signature(connection)]
        for j in 1...6 {
            connection.exec(DiskWorkload.transaction(j, salt: 31))
            signatures.append(DiskWorkload.signature(connection))
        }
        disk.failNextSync(code: SimulatedDisk.Code.ioErrFsync)
        #expect(connection.exec("PRAGMA wal_checkpoint(FULL)") == SimulatedDisk.Code.ioErrFsync)
        // The next checkpoint syncs the WAL (successfully: in `drops` it has nothing to write),
        // copies pages into the database, and stops there: as a power loss in the middle would.
        disk.fail(.write, code: 0, skipping: copied, times: 1)
        #expect(connection.exec("PRAGMA wal_checkpoint(FULL)") == SimulatedDisk.Code.ioErrWrite)
        disk.powerLoss(seed: powerSeed)
        connection.closeAfterCrash(disk)
        let reopened = DiskConnection(disk)
        defer { reopened.close() }
        let consistent = reopened.text("PRAGMA integrity_check") == "ok"
        return (consistent, consistent && signatures.contains(DiskWorkload.signature(reopened)))
    }

    @Test("keeps: a checkpoint cut short by a power loss always recovers to a committed state")
    func keepsRecovers() {
        for copied in UInt32(1)...4 {
            for powerSeed in UInt64(0)..<8 {
                let outcome = Self.run(.keeps, copied: copied, powerSeed: powerSeed)
                #expect(outcome.consistent && outcome.prefix, "copied \(copied), power seed \(powerSeed)")
            }
        }
    }

    @Test("drops: the same power loss can leave a database that is no committed state (SQLite trusts its WAL sync)")
    func dropsCanCorrupt() {
        var broken = 0
        for copied in UInt32(1)...4 {
            for powerSeed in UInt64(0)..<8 where !Self.run(.drops, copied: copied, powerSeed: powerSeed).prefix {
                broken += 1
            }
        }
        #expect(broken > 0)
        print("dropped WAL frames, checkpoint cut short, power lost: \(broken) of 32 runs recover to no committed state")
    }
}
