import BatonSim
import CSQLite
import Testing

@Suite("Simulated disk: injected faults")
struct DiskFaultTests {
    /// A WAL database with transactions 1...5 committed; autocheckpoint is
    /// off so the tests decide when checkpoints run.
    static func prepared(seed: UInt64) -> (SimulatedDisk, DiskConnection) {
        let disk = SimulatedDisk(seed: seed)
        let connection = DiskConnection(disk)
        #expect(DiskWorkload.setUp(connection, autocheckpoint: 0) == "wal")
        for j in 1...5 {
            #expect(connection.exec(DiskWorkload.transaction(j, salt: Int(seed))) == SQLITE_OK)
        }
        return (disk, connection)
    }

    /// After a failed statement: roll back if a transaction is still open,
    /// then the database must hold exactly what it held before.
    static func expectUnchanged(_ connection: DiskConnection, _ signature: String) {
        if connection.inTransaction {
            connection.exec("ROLLBACK")
        }
        #expect(!connection.inTransaction)
        #expect(DiskWorkload.signature(connection) == signature)
        #expect(connection.text("PRAGMA integrity_check") == "ok")
    }

    /// The database is usable again and a kill loses nothing.
    static func expectRecovers(_ disk: SimulatedDisk, _ connection: DiskConnection, next j: Int) {
        #expect(connection.exec(DiskWorkload.transaction(j, salt: 0)) == SQLITE_OK)
        let signature = DiskWorkload.signature(connection)
        disk.kill()
        connection.closeAfterCrash(disk)
        let reopened = DiskConnection(disk)
        #expect(reopened.text("PRAGMA integrity_check") == "ok")
        #expect(DiskWorkload.last(reopened) == j)
        #expect(DiskWorkload.signature(reopened) == signature)
        #expect(reopened.close() == SQLITE_OK)
    }

    @Test("a failed write fails the commit with its code and changes nothing",
          arguments: [SimulatedDisk.Code.ioErrWrite, SQLITE_FULL, SQLITE_IOERR])
    func failedWrite(code: Int32) {
        let (disk, connection) = Self.prepared(seed: 10)
        let before = DiskWorkload.signature(connection)
        let bytesBefore = disk.stateHash
        disk.failNextWrite(code: code)
        #expect(disk.armedFaults(.write) == 1)
        #expect(connection.exec(DiskWorkload.transaction(6, salt: 0)) == code)
        #expect(disk.armedFaults(.write) == 0)
        #expect(disk.counters.injectedFaults == 1)
        #expect(disk.stateHash == bytesBefore)  // the failed write wrote nothing
        Self.expectUnchanged(connection, before)
        Self.expectRecovers(disk, connection, next: 6)
    }

    @Test("a write failing part way through a large commit leaves no trace",
          arguments: [1, 2, 3, 5, 8] as [UInt32])
    func failedNthWrite(n: UInt32) {
        let (disk, connection) = Self.prepared(seed: 11)
        let before = DiskWorkload.signature(connection)
        let big = "BEGIN;" + (0..<12).map { "INSERT INTO t(txn, body) VALUES(6, printf('%.*c', 5000, char(\(70 + $0))));" }
            .joined() + "INSERT OR REPLACE INTO m VALUES(1, 6);COMMIT;"
        disk.failNth(.write, n, code: SimulatedDisk.Code.ioErrWrite)
        let writesBefore = disk.counters.writes
        #expect(connection.exec(big) == SimulatedDisk.Code.ioErrWrite)
        #expect(disk.counters.writes == writesBefore + UInt64(n - 1))
        Self.expectUnchanged(connection, before)
        // Frames written before the failure carry no commit: a power loss
        // that keeps them must still recover transaction 5 or earlier.
        disk.kill()
        connection.closeAfterCrash(disk)
        let reopened = DiskConnection(disk)
        #expect(DiskWorkload.signature(reopened) == before)
        Self.expectRecovers(disk, reopened, next: 6)
    }

    @Test("a failed sync fails the checkpoint, syncs nothing, and the next one succeeds")
    func failedCheckpointSync() {
        let (disk, connection) = Self.prepared(seed: 12)
        let before = DiskWorkload.signature(connection)
        #expect(disk.hasPendingWrites)
        disk.failNextSync(code: SimulatedDisk.Code.ioErrFsync)
        let rc = sqlite3_wal_checkpoint_v2(connection.db, nil, SQLITE_CHECKPOINT_FULL, nil, nil)
        #expect(rc == SimulatedDisk.Code.ioErrFsync)
        #expect(disk.counters.injectedFaults == 1)
        #expect(disk.pendingWriteCount(of: "image.sqlite-wal") ?? 0 > 0)
        Self.expectUnchanged(connection, before)
        #expect(sqlite3_wal_checkpoint_v2(connection.db, nil, SQLITE_CHECKPOINT_FULL, nil, nil) == SQLITE_OK)
        #expect(!disk.hasPendingWrites)
        // Everything is durable now: any power loss keeps all five.
        disk.powerLoss(seed: 12)
        connection.closeAfterCrash(disk)
        let reopened = DiskConnection(disk)
        #expect(DiskWorkload.signature(reopened) == before)
        Self.expectRecovers(disk, reopened, next: 6)
    }

    @Test("a failed sync of a restarted WAL's header fails that commit only")
    func failedHeaderSync() {
        let (disk, connection) = Self.prepared(seed: 13)
        #expect(sqlite3_wal_checkpoint_v2(connection.db, nil, SQLITE_CHECKPOINT_FULL, nil, nil) == SQLITE_OK)
        let before = DiskWorkload.signature(connection)
        let syncsBefore = disk.counters.syncs
        disk.failNextSync(code: SimulatedDisk.Code.ioErrFsync)
        // The next commit restarts the WAL and syncs its new header first.
        let rc = connection.exec(DiskWorkload.transaction(6, salt: 0))
        #expect(rc == SimulatedDisk.Code.ioErrFsync)
        #expect(disk.counters.syncs == syncsBefore)
        Self.expectUnchanged(connection, before)
        Self.expectRecovers(disk, connection, next: 6)
    }

    @Test("a disk that stays full fails every commit until it is cleared, then nothing is lost")
    func diskFullUntilCleared() {
        let (disk, connection) = Self.prepared(seed: 14)
        let before = DiskWorkload.signature(connection)
        disk.fail(.write, code: SQLITE_FULL, times: SimulatedDisk.forever)
        for _ in 0..<5 {
            #expect(connection.exec(DiskWorkload.transaction(6, salt: 0)) == SQLITE_FULL)
            Self.expectUnchanged(connection, before)  // reads still work
        }
        #expect(disk.armedFaults(.write) == SimulatedDisk.forever)
        #expect(disk.counters.injectedFaults == 5)
        disk.clearFaults()
        Self.expectRecovers(disk, connection, next: 6)
    }

    @Test("a fault armed after skipped operations fires on the right one")
    func skippedThenFailed() {
        let disk = SimulatedDisk(seed: 15)
        let connection = DiskConnection(disk)
        #expect(DiskWorkload.setUp(connection, autocheckpoint: 0) == "wal")
        // Small transactions write their page(s) plus nothing else; skip some.
        disk.fail(.write, code: SimulatedDisk.Code.ioErrWrite, skipping: 4, times: 2)
        var failures = 0
        var successes = 0
        for j in 1...12 {
            let rc = connection.exec("INSERT OR REPLACE INTO m VALUES(1, \(j))")
            if rc == SQLITE_OK { successes += 1 } else { failures += 1 }
        }
        #expect(disk.counters.injectedFaults == 2)
        #expect(failures >= 1 && failures <= 2)
        #expect(successes + failures == 12)
        #expect(connection.text("PRAGMA integrity_check") == "ok")
        #expect(DiskWorkload.last(connection) == 12)
        connection.close()
    }

    @Test("a failed read fails the query once; the next query reads fine")
    func failedRead() {
        let (disk, connection) = Self.prepared(seed: 16)
        let before = DiskWorkload.signature(connection)
        disk.kill()  // a cold cache: the next query must read the file
        connection.closeAfterCrash(disk)
        let reopened = DiskConnection(disk)
        disk.fail(.read, code: 0)
        #expect(reopened.int("SELECT count(*) FROM t") == nil)
        #expect(sqlite3_extended_errcode(reopened.db) == SimulatedDisk.Code.ioErrRead)
        #expect(DiskWorkload.signature(reopened) == before)
        #expect(reopened.text("PRAGMA integrity_check") == "ok")
        reopened.close()
    }

    @Test("a failed truncation fails the truncating checkpoint and nothing else")
    func failedTruncate() {
        let (disk, connection) = Self.prepared(seed: 17)
        let before = DiskWorkload.signature(connection)
        disk.fail(.truncate, code: 0)
        let rc = sqlite3_wal_checkpoint_v2(connection.db, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
        #expect(rc == SimulatedDisk.Code.ioErrTruncate)
        Self.expectUnchanged(connection, before)
        #expect(sqlite3_wal_checkpoint_v2(connection.db, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil) == SQLITE_OK)
        #expect(disk.bytes(of: "image.sqlite-wal")?.count == 0)
        Self.expectRecovers(disk, connection, next: 6)
    }
}
