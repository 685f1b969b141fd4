import BatonSim
import CSQLite
import Testing

@testable import Baton

/// A process's own checkpoints (`ImageCheckpoint`): once one of its syncs failed on a disk that
/// drops a failed sync's writes, a later checkpoint of the same process, the writer's or the
/// close's, must survive a crash at any of its disk changes.
@Suite("Image: a process's checkpoints after a failed sync")
struct ProcessCheckpointTests {
    static let path = "process.image"

    /// The image over `disk`, checkpointing every `checkpointPages` pages, with `mutant` on.
    static func open(_ disk: SimulatedDisk, checkpointPages: Int = 4, mutant: String? = nil, appVersion: String = "1") throws -> Image {
        var configuration = ImageConfiguration(executor: ManualWriterExecutor(), checkpointPages: checkpointPages)
        #if BATON_MUTANTS
        if let mutant { configuration.mutant = ImageMutant(rawValue: mutant) }
        #endif
        return try Image.open(path: path, vfs: disk.vfsName, appVersion: appVersion, configuration: configuration)
    }

    /// Twenty notes of 400 bytes from `first` on: several pages of WAL.
    static func notes(from first: Int) -> WriteBatch {
        WriteBatch(snapshots: (first..<first + 20).map { index in
            snapshot("Note:\(index)", "Note", ["body": .string(String(repeating: "\(index % 10)", count: 400))])
        })
    }

    /// A disk that drops a failed sync's writes, an image a first process filled and closed (all
    /// of it on the platter), and a second process whose first drain's checkpoint fails its WAL
    /// sync (the commit itself syncs nothing): the WAL's pages are clean in memory and not on the
    /// platter, and the process goes on.
    static func afterFailedSync(seed: UInt64, mutant: String?) throws -> (SimulatedDisk, Image) {
        let disk = SimulatedDisk(seed: seed)
        disk.setSyncFailure(.drops)
        SimulatedDisk.seedSQLiteRandomness(UInt32(truncatingIfNeeded: seed))
        let first = try open(disk, mutant: mutant)
        first.enqueue(notes(from: 0))
        try first.drainCommitted()
        first.close()
        disk.flushAll()
        let image = try open(disk, mutant: mutant)
        image.enqueue(notes(from: 100))
        disk.failNextSync(code: SQLITE_FULL)
        #expect(try image.drainCommitted().checkpoint == .failed)
        #expect(disk.counters.failedSyncsDropping > 0)
        return (disk, image)
    }

    /// What the next launch finds after the process died at `operations` disk changes into `body`
    /// with the power lost: the file as it opened, and its integrity check.
    static func launchAfterCrash(
        at operations: UInt32, seed: UInt64, mutant: String?, _ body: (Image) -> Void
    ) throws -> (opening: ImageOpening, integrity: String, struck: Bool) {
        let (disk, image) = try afterFailedSync(seed: seed, mutant: mutant)
        disk.armCrash(afterOperations: operations, powerLossSeed: seed &* 31 &+ UInt64(operations))
        body(image)
        let struck = disk.thaw()
        if !struck { disk.powerLoss(seed: seed) }
        image.abandon()
        let next = try open(disk)
        defer { next.close() }
        return (next.opening, next.integrityCheck(), struck)
    }

    /// Every crash point of `body` from 0 to 60 disk changes: how many launches after found the
    /// file unsound (not opened as it was, or failing its integrity check), and how many crashes
    /// struck inside.
    static func unsoundLaunches(mutant: String?, _ body: (Image) -> Void) throws -> (unsound: Int, struck: Int) {
        var unsound = 0, struck = 0
        for operations in 0...60 as ClosedRange<UInt32> {
            let found = try launchAfterCrash(at: operations, seed: 5, mutant: mutant, body)
            if found.opening != .opened || found.integrity != "ok" { unsound += 1 }
            if found.struck { struck += 1 }
        }
        return (unsound, struck)
    }

    /// The writer's next checkpoint: one more drain whose commit fills the WAL past the size.
    static func drainAgain(_ image: Image) {
        image.enqueue(notes(from: 200))
        _ = image.writer.drain()
    }

    @Test("after a failure the next checkpoint takes the copy, and once it has finished the one after does not")
    func guardedUntilComplete() throws {
        let (disk, image) = try Self.afterFailedSync(seed: 11, mutant: nil)
        defer { image.close() }
        image.enqueue(Self.notes(from: 200))
        #expect(try image.drainCommitted().checkpoint == .guarded)
        image.enqueue(Self.notes(from: 300))
        #expect(try image.drainCommitted().checkpoint == .plain)
        #expect(!disk.fileNames.contains { $0.hasSuffix(CheckpointCopy.suffix) })
    }

    @Test("the writer's next checkpoint, crashed at every disk change: every launch after finds a sound file")
    func writersCheckpoint() throws {
        let found = try Self.unsoundLaunches(mutant: nil, Self.drainAgain)
        #expect(found.unsound == 0)
        #expect(found.struck > 20)
    }

    @Test("the close's checkpoint, crashed at every disk change: every launch after finds a sound file")
    func closesCheckpoint() throws {
        let found = try Self.unsoundLaunches(mutant: nil) { $0.close() }
        #expect(found.unsound == 0)
        #expect(found.struck > 10)
    }

    #if BATON_MUTANTS
    @Test("without the copy after a failure (checkpointUnguardedAfterFailure) some crash points leave the file unsound")
    func mutantIsCaught() throws {
        let writer = try Self.unsoundLaunches(mutant: Mutant.checkpointUnguardedAfterFailure.rawValue, Self.drainAgain)
        let close = try Self.unsoundLaunches(mutant: Mutant.checkpointUnguardedAfterFailure.rawValue) { $0.close() }
        #expect(writer.unsound > 0)
        #expect(close.unsound > 0)
    }
    #endif

    /// Queues notes 300..319 and drains: the drain must fail for the `copy` still beside the
    /// image, and leave the copy there.
    static func expectNoCommitBehind(_ copy: String, _ image: Image, _ disk: SimulatedDisk) {
        image.enqueue(notes(from: 300))
        guard case .failed(let error) = image.writer.drain() else {
            Issue.record("a drain committed with the copy beside the image")
            return
        }
        #expect(error.message.contains("copy of the WAL"))
        #expect(disk.fileNames.contains(copy))
    }

    @Test("a checkpoint that fails behind its copy keeps the copy, and the next drain finishes it before committing")
    func failedCheckpointKeepsCopy() throws {
        let (disk, image) = try Self.afterFailedSync(seed: 9, mutant: nil)
        let copy = try VFSFile.fullPath(Self.path, vfs: disk.vfsName, door: SQLiteDoor()) + CheckpointCopy.suffix
        // The next checkpoint's syncs: the copy's, the WAL's, then the file's, which fails.
        image.enqueue(Self.notes(from: 200))
        disk.failNth(.sync, 3, code: SQLITE_IOERR)
        #expect(try image.drainCommitted().checkpoint == .failed)
        #expect(disk.fileNames.contains(copy))
        // While every sync fails, the checkpoint cannot finish: nothing commits.
        disk.fail(.sync, code: SQLITE_FULL, times: SimulatedDisk.forever)
        Self.expectNoCommitBehind(copy, image, disk)
        disk.clearFaults()
        // The checkpoint behind the copy finished first, so this one needs no copy.
        #expect(try image.drainCommitted().checkpoint == .plain)
        #expect(!disk.fileNames.contains(copy))
        for index in [100, 119, 219, 319] { #expect(image.readRecord("Note:\(index)") != nil, "Note:\(index)") }
        image.close()
        let next = try Self.open(disk)
        defer { next.close() }
        #expect(next.integrityCheck() == "ok")
        #expect(next.readRecord("Note:319") != nil)
    }

    @Test("a checkpoint whose copy cannot be deleted keeps it: nothing commits until a deletion succeeds, and nothing is lost")
    func copyDeletionFails() throws {
        let (disk, image) = try Self.afterFailedSync(seed: 11, mutant: nil)
        let copy = try VFSFile.fullPath(Self.path, vfs: disk.vfsName, door: SQLiteDoor()) + CheckpointCopy.suffix
        // The checkpoint runs behind its copy; deleting the copy then fails, and again after.
        image.enqueue(Self.notes(from: 200))
        disk.fail(.delete, code: 0, times: SimulatedDisk.forever)
        #expect(try image.drainCommitted().checkpoint == .failed)
        #expect(disk.fileNames.contains(copy))
        Self.expectNoCommitBehind(copy, image, disk)
        disk.clearFaults()
        #expect(try image.drainCommitted().checkpoint != .failed)
        #expect(!disk.fileNames.contains(copy))
        for index in [100, 219, 319] { #expect(image.readRecord("Note:\(index)") != nil, "Note:\(index)") }
        // The process dies; the next open finds a sound file and every note this launch wrote
        // (the first launch's have aged out: unread for a whole launch).
        image.abandon()
        let next = try Self.open(disk)
        defer { next.close() }
        #expect(next.integrityCheck() == "ok")
        for index in [100, 119, 219, 319] { #expect(next.readRecord("Note:\(index)") != nil, "Note:\(index)") }
    }

    @Test("an open whose copy cannot be deleted after its checkpoint fails; the next puts the copy back and loses nothing")
    func openCopyDeletionFails() throws {
        let disk = SimulatedDisk(seed: 13)
        SimulatedDisk.seedSQLiteRandomness(13)
        let first = try Self.open(disk, checkpointPages: 1_000)
        first.enqueue(Self.notes(from: 0))
        try first.drainCommitted()
        first.abandon()
        let copy = try VFSFile.fullPath(Self.path, vfs: disk.vfsName, door: SQLiteDoor()) + CheckpointCopy.suffix
        // The open copies the WAL, checkpoints it, and cannot delete the copy.
        disk.fail(.delete, code: 0, times: SimulatedDisk.forever)
        #expect(throws: ImageError.self) { try Self.open(disk, checkpointPages: 1_000) }
        #expect(disk.fileNames.contains(copy))
        disk.clearFaults()
        let next = try Self.open(disk, checkpointPages: 1_000)
        defer { next.close() }
        #expect(!disk.fileNames.contains(copy))
        #expect(next.integrityCheck() == "ok")
        for index in [0, 10, 19] { #expect(next.readRecord("Note:\(index)") != nil, "Note:\(index)") }
    }

    @Test("an open that can open no file (a locked device, no descriptor left) fails and leaves every file as it was")
    func lockedDeviceOpen() throws {
        let disk = SimulatedDisk(seed: 17)
        SimulatedDisk.seedSQLiteRandomness(17)
        let first = try Self.open(disk, checkpointPages: 1_000)
        first.enqueue(Self.notes(from: 0))
        try first.drainCommitted()
        first.abandon()
        disk.flushAll()
        let before = disk.fileNames.sorted().map { ($0, disk.bytes(of: $0)) }
        disk.fail(.open, code: 0, times: SimulatedDisk.forever)
        #expect(throws: ImageError.self) { try Self.open(disk, checkpointPages: 1_000) }
        disk.clearFaults()
        let after = disk.fileNames.sorted().map { ($0, disk.bytes(of: $0)) }
        let untouched = before.map(\.0) == after.map(\.0) && zip(before, after).allSatisfy { $0.1 == $1.1 }
        #expect(untouched, "files before: \(before.map(\.0)), after: \(after.map(\.0))")
        let next = try Self.open(disk, checkpointPages: 1_000)
        defer { next.close() }
        #expect(next.opening == .opened)
        for index in [0, 19] { #expect(next.readRecord("Note:\(index)") != nil, "Note:\(index)") }
    }

    @Test("a new image whose WAL cannot be created fails its open instead of running in rollback mode")
    func walNotCreated() throws {
        var refused = 0
        for skip: UInt32 in 0...12 {
            let disk = SimulatedDisk(seed: 19)
            SimulatedDisk.seedSQLiteRandomness(19)
            disk.fail(.open, code: 0, skipping: skip)
            disk.failNextSync(code: SQLITE_IOERR)
            let image: Image
            do {
                image = try Self.open(disk, checkpointPages: 1_000)
            } catch ImageError.journalModeNotWAL {
                refused += 1
                disk.clearFaults()
                image = try Self.open(disk, checkpointPages: 1_000)
            } catch {
                disk.clearFaults()
                image = try Self.open(disk, checkpointPages: 1_000)
            }
            defer { image.close() }
            image.enqueue(Self.notes(from: 0))
            try image.drainCommitted()
            let wal = try VFSFile.fullPath(Self.path, vfs: disk.vfsName, door: SQLiteDoor()) + "-wal"
            #expect((disk.bytes(of: wal)?.count ?? 0) > 0, "skip \(skip): the image commits without a WAL")
        }
        // One of the opens failed exactly where SQLite creates the WAL of an empty file.
        #expect(refused > 0)
    }

    @Test("abandon leaves the WAL as a kill does, and the next open checkpoints it behind its copy")
    func abandonKeepsWAL() throws {
        let disk = SimulatedDisk(seed: 4)
        let image = try Self.open(disk, checkpointPages: 1_000)
        image.enqueue(Self.notes(from: 0))
        try image.drainCommitted()
        image.abandon()
        let wal = try #require(disk.fileNames.first { $0.hasSuffix("-wal") })
        #expect((disk.bytes(of: wal)?.count ?? 0) > 0)
        let next = try Self.open(disk)
        defer { next.close() }
        #expect(next.readRecord("Note:19") != nil)
        #expect(!disk.fileNames.contains { $0.hasSuffix(CheckpointCopy.suffix) })
    }

    @Test("an app update's wipe of a long image commits more than SQLite's 1,000 pages, and the open checkpoints none of it")
    func openNeverCheckpoints() throws {
        let disk = SimulatedDisk(seed: 8)
        let first = try Self.open(disk, checkpointPages: 100_000)
        first.enqueue(WriteBatch(snapshots: (0..<1_200).map { index in
            snapshot("Note:\(index)", "Note", ["body": .string(String(repeating: "\(index % 10)", count: 1_800))])
        }))
        try first.drainCommitted()
        first.close()
        let syncsBefore = disk.counters.syncs
        let updated = try Self.open(disk, appVersion: "2")
        defer { updated.close() }
        #expect(updated.opening == .wiped(previousVersion: "1"))
        // The wipe's frames are all still in the WAL: no checkpoint ran inside the open, where
        // SQLite would have ignored its failure. The first drain's checkpoint is the writer's.
        #expect(updated.core.withState { $0.connection?.walFrames ?? 0 } > 1_000)
        // One sync: the new WAL's header. A checkpoint would have synced the WAL and the file too.
        #expect(disk.counters.syncs - syncsBefore <= 1)
    }

    @Test("a process that saw no failure checkpoints without a copy, every few pages, and its close empties the WAL")
    func noFailureNoCopy() throws {
        let disk = SimulatedDisk(seed: 3)
        let image = try Self.open(disk)
        var copies = 0
        for round in 0..<6 {
            image.enqueue(Self.notes(from: round * 100))
            #expect(try image.drainCommitted().checkpoint == .plain)
            copies += disk.fileNames.filter { $0.hasSuffix(CheckpointCopy.suffix) }.count
        }
        #expect(copies == 0)
        #expect(disk.counters.syncs > 6)
        image.close()
        #expect(!disk.fileNames.contains { $0.hasSuffix("-wal") })
    }
}
