import BatonSim
import CSQLite
import Testing

@Suite("Simulated disk: determinism")
struct DiskDeterminismTests {
    struct Outcome: Equatable {
        var afterWorkload: UInt64
        var pendingBeforePowerLoss: Bool
        var afterPowerLoss: UInt64
        var recovered: Int
        var afterMoreWork: UInt64
        var closedState: UInt64
        var counters: SimulatedDisk.Counters
    }

    /// Transactions, a kill with the old connection abandoned (and poked),
    /// more transactions, a power loss, recovery, more work, a clean close.
    static func scenario(diskSeed: UInt64, powerSeed: UInt64) -> Outcome {
        let disk = SimulatedDisk(seed: diskSeed)
        disk.setTime(milliseconds: 1_000)
        let autocheckpoint = 8 + Int(diskSeed % 24)
        var connection = DiskConnection(disk)
        #expect(DiskWorkload.setUp(connection, autocheckpoint: autocheckpoint) == "wal")
        for j in 1...25 {
            connection.exec(DiskWorkload.transaction(j, salt: Int(diskSeed % 97)))
        }
        disk.kill()
        let abandoned = connection
        connection = DiskConnection(disk)
        DiskWorkload.configure(connection, autocheckpoint: autocheckpoint)
        _ = abandoned.exec("INSERT INTO t(txn, body) VALUES(-1, 'ghost')")
        for j in 26...50 {
            connection.exec(DiskWorkload.transaction(j, salt: Int(diskSeed % 97)))
        }
        // A tail that no checkpoint syncs, so the power loss has a choice.
        connection.exec("PRAGMA wal_autocheckpoint=0")
        for j in 51...54 {
            connection.exec(DiskWorkload.transaction(j, salt: Int(diskSeed % 97)))
        }
        let afterWorkload = disk.contentHash
        let pending = disk.hasPendingWrites
        disk.powerLoss(seed: powerSeed)
        let afterPowerLoss = disk.contentHash
        connection.closeAfterCrash(disk)
        connection = DiskConnection(disk)
        DiskWorkload.configure(connection, autocheckpoint: autocheckpoint)
        #expect(connection.text("PRAGMA integrity_check") == "ok")
        let recovered = DiskWorkload.last(connection)
        for j in (recovered + 1)...(recovered + 10) {
            connection.exec(DiskWorkload.transaction(j, salt: 1))
        }
        let afterMoreWork = disk.contentHash
        #expect(connection.close() == SQLITE_OK)
        abandoned.close()
        // Only the database file is left: its raw bytes carry no WAL salt.
        #expect(disk.fileNames == ["/image.sqlite"])
        return Outcome(
            afterWorkload: afterWorkload, pendingBeforePowerLoss: pending, afterPowerLoss: afterPowerLoss, recovered: recovered,
            afterMoreWork: afterMoreWork, closedState: disk.stateHash, counters: disk.counters)
    }

    @Test("the same seeds and operations give the same disk twice", arguments: [0, 1, 2, 3, 42] as [UInt64])
    func sameSeedSameDisk(seed: UInt64) {
        let first = Self.scenario(diskSeed: seed, powerSeed: seed &+ 1000)
        let second = Self.scenario(diskSeed: seed, powerSeed: seed &+ 1000)
        #expect(first == second)
    }

    @Test("disks used on different threads at once do not disturb each other")
    func concurrentDisks() async {
        let seeds: [UInt64] = [20, 21, 22, 23]
        let sequential = seeds.map { Self.scenario(diskSeed: $0, powerSeed: $0) }
        let concurrent = await withTaskGroup(of: (Int, Outcome).self) { group in
            for (index, seed) in seeds.enumerated() {
                group.addTask { (index, Self.scenario(diskSeed: seed, powerSeed: seed)) }
            }
            var results = [Outcome?](repeating: nil, count: seeds.count)
            for await (index, outcome) in group {
                results[index] = outcome
            }
            return results.compactMap { $0 }
        }
        #expect(concurrent == sequential)
    }

    @Test("different power-loss seeds lead to different disks")
    func differentPowerSeeds() {
        let outcomes = (UInt64(0)..<12).map { Self.scenario(diskSeed: 7, powerSeed: $0) }
        // The workload before the power loss is the same every time, and it
        // leaves unsynced commits...
        #expect(Set(outcomes.map(\.afterWorkload)).count == 1)
        #expect(outcomes.allSatisfy { $0.pendingBeforePowerLoss })
        // ...what survives it is not.
        #expect(Set(outcomes.map(\.afterPowerLoss)).count > 1)
        #expect(Set(outcomes.map(\.recovered)).count > 1)
    }

    @Test("the content hash ignores WAL salts; the raw hash does not")
    func contentHashIgnoresSalts() {
        func run(prngSeed: UInt32) -> (content: UInt64, raw: UInt64) {
            SimulatedDisk.seedSQLiteRandomness(prngSeed)
            let disk = SimulatedDisk(seed: 3)
            let connection = DiskConnection(disk)
            #expect(DiskWorkload.setUp(connection, autocheckpoint: 0) == "wal")
            for j in 1...5 {
                connection.exec(DiskWorkload.transaction(j, salt: 3))
            }
            let result = (disk.contentHash, disk.stateHash)
            connection.close()
            return result
        }
        // SQLite's generator is process-wide: other tests may draw from it
        // at any time, which only makes the salts differ more.
        let a = run(prngSeed: 1)
        let b = run(prngSeed: 2)
        #expect(a.content == b.content)
        #expect(a.raw != b.raw)
    }

    @Test("xRandomness and xSleep come from the disk's seed and clock")
    func randomnessAndSleep() throws {
        func draw(_ disk: SimulatedDisk) throws -> [UInt8] {
            let vfs = try #require(sqlite3_vfs_find(disk.vfsName))
            var bytes = [UInt8](repeating: 0, count: 32)
            let n = bytes.withUnsafeMutableBytes { buffer in
                vfs.pointee.xRandomness(vfs, 32, buffer.baseAddress?.assumingMemoryBound(to: CChar.self))
            }
            #expect(n == 32)
            return bytes
        }
        let a = SimulatedDisk(seed: 99)
        let b = SimulatedDisk(seed: 99)
        let c = SimulatedDisk(seed: 100)
        #expect(a.vfsName != b.vfsName)
        let fromA = try draw(a)
        let fromB = try draw(b)
        let fromC = try draw(c)
        #expect(fromA == fromB)
        #expect(fromA != fromC)
        #expect(try draw(a) != fromA)  // the generator moves on

        let vfs = try #require(sqlite3_vfs_find(a.vfsName))
        a.setTime(milliseconds: 5_000)
        #expect(vfs.pointee.xSleep(vfs, 2_500) == 2_500)
        #expect(a.timeMilliseconds == 5_002)
        var now: sqlite3_int64 = 0
        #expect(vfs.pointee.xCurrentTimeInt64(vfs, &now) == SQLITE_OK)
        #expect(now == 210_866_760_000_000 + 5_002)
    }
}
