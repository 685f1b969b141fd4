import BatonSim
import CSQLite
import Testing

@Suite("Simulated disk: SQLite in WAL mode over the durability model")
struct DiskDurabilityTests {
    @Test("WAL with synchronous=NORMAL opens on the simulated disk")
    func walOpens() {
        let disk = SimulatedDisk(seed: 1)
        let connection = DiskConnection(disk)
        #expect(DiskWorkload.setUp(connection, autocheckpoint: 1000) == "wal")
        #expect(connection.text("PRAGMA journal_mode") == "wal")
        #expect(connection.int("PRAGMA synchronous") == 1)
        #expect(connection.exec(DiskWorkload.transaction(1, salt: 0)) == SQLITE_OK)
        #expect(disk.fileNames == ["/image.sqlite", "/image.sqlite-wal"])
        #expect(disk.fileExists("image.sqlite"))
        #expect(disk.liveHandleCount == 2)
        // synchronous=NORMAL: commits stay pending in the WAL until a checkpoint.
        #expect(disk.hasPendingWrites)
        #expect((disk.pendingWriteCount(of: "image.sqlite-wal") ?? 0) > 0)
        #expect(disk.pendingWriteCount(of: "nothing-here") == nil)
        let counters = disk.counters
        #expect(counters.writes > 0 && counters.bytesWritten > 0 && counters.opens >= 2)
        #expect(connection.text("PRAGMA integrity_check") == "ok")
        // A clean close checkpoints, syncs and deletes the WAL.
        let deletesBefore = disk.counters.deletes
        #expect(connection.close() == SQLITE_OK)
        #expect(disk.fileNames == ["/image.sqlite"])
        // Every byte is synced; only the WAL's removal waits for a directory sync (SQLite
        // deletes it without syncDir).
        #expect(disk.hasPendingWrites)
        #expect(disk.pendingDirectoryEntries == 1)
        #expect(disk.pendingWriteCount(of: "image.sqlite") == 0)
        #expect(disk.liveHandleCount == 0)
        #expect(disk.bytes(of: "image.sqlite") == disk.durableBytes(of: "/image.sqlite"))
        #expect(disk.counters.deletes == deletesBefore + 1)
    }

    @Test("a kill keeps every committed transaction, over many kills and checkpoints")
    func killKeepsEverything() {
        let disk = SimulatedDisk(seed: 2)
        var connection = DiskConnection(disk)
        #expect(DiskWorkload.setUp(connection, autocheckpoint: 4) == "wal")
        var signatures = [DiskWorkload.signature(connection)]
        var committed = 0
        for round in 0..<6 {
            for _ in 0..<(10 + round * 3) {
                committed += 1
                #expect(connection.exec(DiskWorkload.transaction(committed, salt: 2)) == SQLITE_OK)
                signatures.append(DiskWorkload.signature(connection))
            }
            let pendingBefore = disk.hasPendingWrites
            let currentBefore = disk.stateHash
            disk.kill()
            // The OS still has everything: a kill changes no byte and syncs nothing.
            #expect(disk.stateHash == currentBefore)
            #expect(disk.hasPendingWrites == pendingBefore)
            #expect(disk.liveHandleCount == 0)
            connection.closeAfterCrash(disk)
            connection = DiskConnection(disk)
            DiskWorkload.configure(connection, autocheckpoint: 4)
            #expect(connection.text("PRAGMA integrity_check") == "ok")
            #expect(DiskWorkload.last(connection) == committed)
            #expect(DiskWorkload.signature(connection) == signatures[committed])
        }
        #expect(disk.counters.kills == 6)
        #expect(connection.close() == SQLITE_OK)
    }

    /// What one power-loss run showed.
    struct Recovery {
        var synced: Int
        var committed: Int
        var recovered: Int
    }

    /// Commits transactions (killing and relaunching on the way for some
    /// seeds), cuts the power, checks that the database recovered to a
    /// prefix, then goes on from there and cuts the power again.
    static func powerLossRun(seed: UInt64, device: SimulatedDisk.Device = .careful) -> [Recovery] {
        let disk = SimulatedDisk(seed: seed)
        disk.setDevice(device)
        // From a checkpoint every commit or two to none in the whole run.
        let autocheckpoint = [4, 16, 64, 256][Int(seed % 4)] + Int(seed % 7)
        let salt = Int(seed % 1000)
        var connection = DiskConnection(disk)
        #expect(DiskWorkload.setUp(connection, autocheckpoint: autocheckpoint) == "wal")
        var signatures = [DiskWorkload.signature(connection)]
        var committed = 0
        var synced = 0
        var results: [Recovery] = []
        for round in 0..<2 {
            let count = 20 + Int((seed &* 31 &+ UInt64(round) &* 17) % 50)
            for step in 0..<count {
                committed += 1
                let rc = connection.exec(DiskWorkload.transaction(committed, salt: salt))
                #expect(rc == SQLITE_OK, "seed \(seed): transaction \(committed) failed: \(rc) \(connection.errorMessage)")
                signatures.append(DiskWorkload.signature(connection))
                if !disk.hasPendingWrites { synced = committed }
                if seed % 3 == 0 && step == count / 2 {
                    // A kill on the way: pending writes stay pending across it.
                    disk.kill()
                    connection.closeAfterCrash(disk)
                    connection = DiskConnection(disk)
                    DiskWorkload.configure(connection, autocheckpoint: autocheckpoint)
                    #expect(DiskWorkload.last(connection) == committed)
                }
            }
            disk.powerLoss(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(round))
            #expect(!disk.hasPendingWrites)
            connection.closeAfterCrash(disk)
            connection = DiskConnection(disk)
            DiskWorkload.configure(connection, autocheckpoint: autocheckpoint)
            let integrity = connection.text("PRAGMA integrity_check")
            #expect(integrity == "ok", "seed \(seed) round \(round): \(integrity)")
            let recovered = DiskWorkload.last(connection)
            #expect(
                recovered >= synced && recovered <= committed,
                "seed \(seed) round \(round): recovered \(recovered), synced \(synced), committed \(committed)")
            if recovered >= 0 && recovered < signatures.count {
                #expect(
                    DiskWorkload.signature(connection) == signatures[recovered],
                    "seed \(seed) round \(round): content differs from transaction \(recovered)")
            }
            results.append(Recovery(synced: synced, committed: committed, recovered: recovered))
            // Go on from what survived.
            committed = max(recovered, 0)
            signatures.removeSubrange((committed + 1)...)
            synced = committed
        }
        #expect(connection.close() == SQLITE_OK)
        #expect(disk.liveHandleCount == 0)
        return results
    }

    @Test("after a power loss the database is consistent and holds a prefix between the last sync and the last commit (200 seeds)")
    func powerLossKeepsAPrefix() {
        var nothingUnsynced = 0
        var atCommitted = 0
        var atSynced = 0
        var between = 0
        for seed in UInt64(0)..<200 {
            for recovery in Self.powerLossRun(seed: seed) {
                if recovery.synced == recovery.committed {
                    nothingUnsynced += 1
                } else if recovery.recovered == recovery.committed {
                    atCommitted += 1
                } else if recovery.recovered == recovery.synced {
                    atSynced += 1
                } else {
                    between += 1
                }
            }
        }
        // 400 power losses; the model must reach every kind of outcome.
        #expect(nothingUnsynced + atCommitted + atSynced + between == 400)
        #expect(atCommitted > 0)
        #expect(atSynced > 0)
        #expect(between > 0)
        print(
            "power loss outcomes: nothing unsynced \(nothingUnsynced); with unsynced commits: "
                + "all kept \(atCommitted), back to the last sync point \(atSynced), in between \(between)")
    }

    @Test("a power loss right after a kill can still lose what was never synced")
    func powerLossAfterKill() {
        let disk = SimulatedDisk(seed: 5)
        var connection = DiskConnection(disk)
        #expect(DiskWorkload.setUp(connection, autocheckpoint: 100_000) == "wal")
        connection.exec("PRAGMA wal_checkpoint(TRUNCATE)")
        let syncedSignature = DiskWorkload.signature(connection)
        // The checkpoint synced the database; only the WAL's truncation,
        // which SQLite does not sync, is pending.
        #expect(disk.pendingWriteCount(of: "image.sqlite") == 0)
        for j in 1...10 {
            #expect(connection.exec(DiskWorkload.transaction(j, salt: 5)) == SQLITE_OK)
        }
        disk.kill()
        #expect(disk.hasPendingWrites)
        // Replay the same steps on fresh disks and cut the power after the
        // kill: every outcome is consistent, nothing synced is lost, and some
        // seed loses everything that was never synced.
        var lostAll = false
        for powerSeed in UInt64(0)..<64 where !lostAll {
            let probe = Self.replayToKill(seed: 5)
            probe.powerLoss(seed: powerSeed)
            let reopened = DiskConnection(probe)
            #expect(reopened.text("PRAGMA integrity_check") == "ok")
            let last = DiskWorkload.last(reopened)
            #expect((0...10).contains(last))
            if last == 0 {
                lostAll = true
                #expect(DiskWorkload.signature(reopened) == syncedSignature)
            }
            reopened.close()
        }
        #expect(lostAll)
        connection.closeAfterCrash(disk)
        connection = DiskConnection(disk)
        #expect(DiskWorkload.last(connection) == 10)
        connection.close()
    }

    /// The same steps as powerLossAfterKill up to the kill, on a new disk.
    static func replayToKill(seed: UInt64) -> SimulatedDisk {
        let disk = SimulatedDisk(seed: seed)
        let connection = DiskConnection(disk)
        _ = DiskWorkload.setUp(connection, autocheckpoint: 100_000)
        connection.exec("PRAGMA wal_checkpoint(TRUNCATE)")
        for j in 1...10 {
            connection.exec(DiskWorkload.transaction(j, salt: 5))
        }
        disk.kill()
        connection.closeAfterCrash(disk)
        return disk
    }

    @Test("connections abandoned by a crash fail harmlessly and corrupt nothing")
    func abandonedConnections() {
        let disk = SimulatedDisk(seed: 6)
        let old = DiskConnection(disk)
        #expect(DiskWorkload.setUp(old, autocheckpoint: 8) == "wal")
        for j in 1...20 {
            old.exec(DiskWorkload.transaction(j, salt: 6))
        }
        disk.kill()
        let current = DiskConnection(disk)
        DiskWorkload.configure(current, autocheckpoint: 8)
        #expect(DiskWorkload.last(current) == 20)
        // The dead process's connection: every use fails with an I/O error.
        let write = old.exec(DiskWorkload.transaction(99, salt: 6))
        #expect(write & 0xFF == SQLITE_IOERR)
        if old.inTransaction { old.exec("ROLLBACK") }
        #expect(old.int("SELECT count(*) FROM t") == nil)
        for j in 21...40 {
            #expect(current.exec(DiskWorkload.transaction(j, salt: 6)) == SQLITE_OK)
            // Interleave uses of the dead connection with the live one.
            _ = old.exec("INSERT INTO t(txn, body) VALUES(-1, 'ghost')")
            _ = old.int("SELECT max(id) FROM t")
        }
        let before = disk.stateHash
        // Closing the abandoned connection must not checkpoint, delete or write.
        #expect(old.close() == SQLITE_OK)
        #expect(disk.stateHash == before)
        #expect(current.text("PRAGMA integrity_check") == "ok")
        #expect(DiskWorkload.last(current) == 40)
        #expect(current.int("SELECT count(*) FROM t WHERE txn = -1 OR txn = 99") == 0)
        disk.kill()
        let third = DiskConnection(disk)
        #expect(third.text("PRAGMA integrity_check") == "ok")
        #expect(DiskWorkload.last(third) == 40)
        #expect(third.close() == SQLITE_OK)
        #expect(disk.liveHandleCount == 0)
        // `current` was abandoned by the second kill; closing it later is fine too.
        #expect(current.close() == SQLITE_OK)
    }

    @Test("an abandoned connection may be closed after its disk is gone")
    func closeAfterDiskIsGone() {
        var disk: SimulatedDisk? = SimulatedDisk(seed: 7)
        let connection = DiskConnection(disk!)
        #expect(DiskWorkload.setUp(connection, autocheckpoint: 1000) == "wal")
        #expect(connection.exec(DiskWorkload.transaction(1, salt: 7)) == SQLITE_OK)
        disk!.kill()
        disk = nil
        #expect(connection.exec(DiskWorkload.transaction(2, salt: 7)) & 0xFF == SQLITE_IOERR)
        #expect(connection.close() == SQLITE_OK)
    }

    @Test("simulated time drives SQLite's clock")
    func simulatedTime() {
        let disk = SimulatedDisk(seed: 8)
        disk.setTime(milliseconds: 1_700_000_000_123)
        #expect(disk.timeMilliseconds == 1_700_000_000_123)
        let connection = DiskConnection(disk)
        #expect(connection.int("SELECT CAST(strftime('%s', 'now') AS INTEGER)") == 1_700_000_000)
        #expect(connection.text("SELECT strftime('%Y-%m-%d %H:%M:%f', 'now')") == "2023-11-14 22:13:20.123")
        disk.setTime(milliseconds: 0)
        #expect(connection.text("SELECT date('now')") == "1970-01-01")
        connection.close()
    }

    @Test("files can be listed, read, corrupted and deleted")
    func inspection() {
        let disk = SimulatedDisk(seed: 9)
        let connection = DiskConnection(disk)
        #expect(DiskWorkload.setUp(connection, autocheckpoint: 1000) == "wal")
        #expect(connection.exec(DiskWorkload.transaction(1, salt: 9)) == SQLITE_OK)
        let wal = disk.bytes(of: "image.sqlite-wal") ?? []
        #expect(wal.count > 32)
        #expect(disk.durableBytes(of: "image.sqlite-wal")?.count ?? 0 <= wal.count)
        #expect(disk.bytes(of: "missing") == nil)
        connection.close()

        // Garbage in place of the database: SQLite says it is not a database.
        disk.overwrite("image.sqlite", bytes: Array(repeating: 0xA5, count: 4096))
        #expect(disk.bytes(of: "image.sqlite") == disk.durableBytes(of: "image.sqlite"))
        #expect(disk.entryIsDurable("image.sqlite") == true)
        disk.flushAll()  // the WAL's removal at the close
        #expect(!disk.hasPendingWrites)
        let broken = DiskConnection(disk)
        #expect(broken.int("SELECT count(*) FROM sqlite_master") == nil)
        #expect(sqlite3_errcode(broken.db) == SQLITE_NOTADB)
        broken.close()

        #expect(disk.delete("image.sqlite"))
        #expect(!disk.delete("image.sqlite"))
        #expect(disk.fileNames.isEmpty)
        let fresh = DiskConnection(disk)
        #expect(DiskWorkload.setUp(fresh, autocheckpoint: 1000) == "wal")
        #expect(fresh.text("PRAGMA integrity_check") == "ok")
        fresh.close()
    }
}
