import BatonSim
import CSQLite
import Testing

/// A crash armed at a disk-changing operation (`armCrash`): the process dies there, and nothing it
/// tries afterwards reaches the disk until the next process.
@Suite("Simulated disk: a crash at a chosen operation")
struct DiskCrashPointTests {
    /// A WAL database with transactions 1...3 committed, autocheckpoint off.
    static func prepared(seed: UInt64) -> (SimulatedDisk, DiskConnection) {
        let disk = SimulatedDisk(seed: seed)
        let connection = DiskConnection(disk)
        #expect(DiskWorkload.setUp(connection, autocheckpoint: 0) == "wal")
        for j in 1...3 {
            #expect(connection.exec(DiskWorkload.transaction(j, salt: Int(seed))) == SQLITE_OK)
        }
        return (disk, connection)
    }

    @Test("a kill at the operation: the commit fails, nothing after it lands, and the next process finds the old or the new commit whole",
          arguments: [0, 1, 2, 3, 5, 8] as [UInt32])
    func killAtOperation(operations: UInt32) {
        let (disk, connection) = Self.prepared(seed: 21)
        let before = DiskWorkload.signature(connection)
        let writesBefore = disk.counters.writes
        disk.armCrash(afterOperations: operations, powerLossSeed: nil)
        let code = connection.exec(DiskWorkload.transaction(4, salt: 0))
        if code != SQLITE_OK {
            // The dead process tries more: a new connection, another commit. None reaches the disk.
            let frozen = disk.stateHash
            var other: OpaquePointer?
            #expect(sqlite3_open_v2("other.sqlite", &other, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, disk.vfsName) != SQLITE_OK)
            sqlite3_close(other)
            #expect(connection.exec(DiskWorkload.transaction(5, salt: 0)) != SQLITE_OK)
            #expect(disk.stateHash == frozen)
            #expect(!disk.fileExists("other.sqlite"))
            #expect(disk.thaw())
            #expect(disk.counters.writes - writesBefore <= UInt64(operations))
        } else {
            // The commit made fewer operations than the crash waited for.
            #expect(operations > 0)
            #expect(!disk.thaw())
            disk.kill()
        }
        connection.closeAfterCrash(disk)
        let reopened = DiskConnection(disk)
        #expect(reopened.text("PRAGMA integrity_check") == "ok")
        let last = DiskWorkload.last(reopened)
        #expect(last == (code == SQLITE_OK ? 4 : 3) || (code != SQLITE_OK && last == 4), "found transaction \(last)")
        if last == 3 { #expect(DiskWorkload.signature(reopened) == before) }
        #expect(reopened.close() == SQLITE_OK)
    }

    @Test("a power loss at the operation keeps a committed prefix, and the disk works again after thaw")
    func powerLossAtOperation() {
        for operations in 0...6 as ClosedRange<UInt32> {
            let (disk, connection) = Self.prepared(seed: 40 + UInt64(operations))
            disk.armCrash(afterOperations: operations, powerLossSeed: 7 + UInt64(operations))
            _ = connection.exec(DiskWorkload.transaction(4, salt: 0))
            if !disk.thaw() { disk.powerLoss(seed: 7) }
            #expect(!disk.hasPendingWrites)
            connection.closeAfterCrash(disk)
            let reopened = DiskConnection(disk)
            #expect(reopened.text("PRAGMA integrity_check") == "ok")
            #expect((0...4).contains(DiskWorkload.last(reopened)))
            #expect(reopened.exec(DiskWorkload.transaction(9, salt: 0)) == SQLITE_OK)
            #expect(reopened.close() == SQLITE_OK)
        }
    }

    @Test("an armed crash that never struck is disarmed by thaw")
    func thawDisarms() {
        let (disk, connection) = Self.prepared(seed: 3)
        disk.armCrash(afterOperations: 10_000, powerLossSeed: nil)
        #expect(connection.exec(DiskWorkload.transaction(4, salt: 0)) == SQLITE_OK)
        #expect(disk.thaw() == false)
        for j in 5...40 { #expect(connection.exec(DiskWorkload.transaction(j, salt: 0)) == SQLITE_OK) }
        #expect(DiskWorkload.last(connection) == 40)
        #expect(connection.close() == SQLITE_OK)
    }
}
