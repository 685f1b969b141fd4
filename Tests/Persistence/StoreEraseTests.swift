@testable import Baton
import BatonSim
import CSQLite
import Foundation
import Testing

/// `Store.erase()`: a user logging out. Memory forgets at once, the check never reads the old
/// rows again, and once the writer's drain commits the erase neither the file nor its WAL holds
/// a byte of them.
@MainActor
@Suite("Erasing the store and its image")
struct StoreEraseTests {
    let ops = try! Operations(persistenceSDL)
    let screen = "query Screen($id: ID!) { character(id: $id) { id name status species image } }"

    /// The marker every name of the first user's characters holds, looked for in the files.
    static let marker = "first-users-secret"

    static func response(_ id: Int, name: String) -> String {
        #"{"data":{"character":{"id":"\#(id)","name":"\#(name)","status":"Alive","species":"Human","image":"\#(id).png"}}}"#
    }

    func variables(_ id: Int) throws -> Variables {
        try ops.plan(screen).variables(["id": .string("\(id)")])
    }

    func commit(_ store: Store, _ id: Int, name: String) throws {
        try ops.commit(store, try ops.plan(screen), ["id": .string("\(id)")], Self.response(id, name: name))
    }

    /// A first launch that commits `count` characters whose names hold ``marker``, and quits.
    func firstUser(_ path: String, count: Int = 60, mutant: Mutant? = nil) throws {
        let launch = try Launch(path, mutant: mutant)
        for id in 1...count { try commit(launch.store, id, name: "\(Self.marker)-\(id)-" + String(repeating: "x", count: 200)) }
        launch.quit()
    }

    /// An image at `path` whose SQLite calls go through `faults`, with its store.
    func faultedLaunch(_ path: String, faults: FaultInjector, mutant: Mutant? = nil, checkpointPages: Int? = nil) throws -> (Image, Store) {
        var configuration = ImageConfiguration(executor: ManualWriterExecutor(), faults: faults)
        if let checkpointPages { configuration.checkpointPages = checkpointPages }
        #if BATON_MUTANTS
        configuration.mutant = mutant.flatMap(ImageMutant.init(mutant:))
        #endif
        let image = try Image.open(path: path, appVersion: "persistence-tests", configuration: configuration)
        return (image, Store(image: image, clock: TestClock(), configuration: .init(collectsAutomatically: false)))
    }

    /// The files beside the image (the image itself included) whose bytes hold ``marker``.
    static func filesHoldingMarker(_ path: String) -> [String] {
        let marker = Array(marker.utf8)
        return ["", "-wal", CheckpointCopy.suffix, "-journal"].compactMap { suffix in
            guard let bytes = fileBytes(path + suffix) else { return nil }
            return Array(bytes).firstRange(of: marker) == nil ? nil : "image" + suffix
        }
    }

    @Test("an erase empties memory at once, notifies what was observed, and the check reads nothing of the old image")
    func memoryAndCheck() throws {
        let directory = TemporaryDirectory()
        try firstUser(directory.imagePath)
        let launch = try Launch(directory.imagePath)
        let plan = try ops.plan(screen)
        guard case .available(_, _, .image) = launch.store.check(plan, variables: try variables(1)) else {
            Issue.record("the first user's character was not read from the image")
            return
        }
        let observed = try #require(launch.store.record(RecordKey("Character:1")))
        #expect(observed.data != nil)
        let layer = launch.store.commitOptimistic(try Ingest.normalize(
            plan: plan, variables: try variables(1), response: Array(Self.response(1, name: "optimistic").utf8)))

        launch.store.erase()
        #expect(observed.data == nil)
        #expect(launch.store.keys.isEmpty)
        #expect(launch.store.layerCount == 0)
        #expect(launch.store.fetchTime(of: plan.identity(try variables(1))) == nil)
        // The writer has not run: the rows are still in the file, and the check must not read them.
        #expect(launch.store.check(plan, variables: try variables(2)) == .missing)
        #expect(launch.store.keys.isEmpty)
        // A revert of the layer the erase dropped changes nothing.
        launch.store.revert(layer)
        #expect(launch.store.keys.isEmpty)

        try commit(launch.store, 500, name: "second user")
        guard case .committed(let summary) = launch.image.writer.drain() else {
            Issue.record("the erase's drain did not commit")
            return
        }
        #expect(summary.erased && summary.wiped)
        #expect(summary.checkpoint == .plain)
        #expect(launch.store.check(plan, variables: try variables(3)) == .missing)
        #expect(launch.store.check(plan, variables: try variables(500)).isAvailable)
        launch.quit()

        let next = try Launch(directory.imagePath)
        #expect(next.store.check(plan, variables: try variables(1)) == .missing)
        guard case .available(_, _, .image) = next.store.check(plan, variables: try variables(500)) else {
            Issue.record("the second user's character, committed after the erase, was not in the image")
            return
        }
        next.quit()
    }

    @Test("once the erase's drain commits, neither the file nor its WAL holds a byte of the erased rows")
    func noBytesLeft() throws {
        let directory = TemporaryDirectory()
        try firstUser(directory.imagePath)
        #expect(Self.filesHoldingMarker(directory.imagePath) == ["image"])
        let launch = try Launch(directory.imagePath)
        let plan = try ops.plan(screen)
        for id in 1...30 { _ = launch.store.check(plan, variables: try variables(id)) }
        try commit(launch.store, 7, name: "\(Self.marker)-updated")
        launch.drain()
        #expect(!Self.filesHoldingMarker(directory.imagePath).isEmpty)
        launch.store.erase()
        try commit(launch.store, 500, name: "second user")
        launch.drain()
        #expect(Self.filesHoldingMarker(directory.imagePath) == [])
        launch.image.abandon()
        #expect(Self.filesHoldingMarker(directory.imagePath) == [])
    }

    @Test(
        "each way an erase can leave the old rows is caught",
        arguments: [
            (Mutant.eraseLeavesBytes, ["image"]), (.eraseNotCheckpointed, ["image", "image-wal"]),
        ])
    func mutantsLeaveBytes(mutant: Mutant, holding: [String]) throws {
        guard Mutants.available else { return }
        let directory = TemporaryDirectory()
        try firstUser(directory.imagePath, mutant: mutant)
        let launch = try Launch(directory.imagePath, mutant: mutant)
        try commit(launch.store, 7, name: "\(Self.marker)-updated")
        launch.drain()
        launch.store.erase()
        launch.drain()
        #expect(Self.filesHoldingMarker(directory.imagePath) == holding)
        launch.image.abandon()
    }

    @Test("an erase that never reaches the image leaves the rows for the next launch (mutant)", arguments: [nil, Mutant.eraseSkipsImage])
    func skippedImage(mutant: Mutant?) throws {
        guard Mutants.available || mutant == nil else { return }
        let directory = TemporaryDirectory()
        try firstUser(directory.imagePath, count: 3)
        let launch = try Launch(directory.imagePath, mutant: mutant)
        launch.store.erase()
        launch.quit()
        #expect(try Self.rowCount(directory.imagePath) == (mutant == nil ? 0 : 3))
    }

    @Test(
        "a process killed before the writer ran the erase leaves its mark, and the next launch erases the image before it reads",
        arguments: [nil, Mutant.eraseUnmarked, Mutant.eraseMarkIgnored])
    func killedBeforeTheDrain(mutant: Mutant?) throws {
        guard Mutants.available || mutant == nil else { return }
        let directory = TemporaryDirectory()
        let plan = try ops.plan(screen)
        // One launch commits and erases: its rows are still visible to the next launch.
        let launch = try Launch(directory.imagePath, mutant: mutant)
        for id in 1...3 { try commit(launch.store, id, name: "\(Self.marker)-\(id)") }
        launch.drain()
        #expect(launch.store.erase())
        #expect(launch.image.writer.hasQueuedWork)
        launch.image.abandon()
        // The rows are still in the file: only the mark says they are gone.
        #expect(try Self.rowCount(directory.imagePath) == 3)
        #expect(Self.markIsThere(directory.imagePath) == (mutant != .eraseUnmarked))

        let next = try Launch(directory.imagePath, mutant: mutant)
        let read = next.store.check(plan, variables: try variables(2))
        if mutant == nil {
            #expect(read == .missing)
        } else {
            #expect(read.isAvailable, "under \(mutant!) the next launch reads the erased rows")
        }
        try commit(next.store, 500, name: "second user")
        next.quit()
        #expect(try Self.rowCount(directory.imagePath) == (mutant == nil ? 1 : 4))
        #expect(Self.markIsThere(directory.imagePath) == (mutant == .eraseMarkIgnored))
        if mutant == nil { #expect(Self.filesHoldingMarker(directory.imagePath) == []) }
    }

    /// True when an erase's mark is beside the image at `path`.
    static func markIsThere(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path + EraseMark.suffix)
    }

    @Test(
        "the erase's mark goes once its drain committed and checkpointed, so what the next user commits stays",
        arguments: [nil, Mutant.eraseMarkKept])
    func markDeletedAfterTheCheckpoint(mutant: Mutant?) throws {
        guard Mutants.available || mutant == nil else { return }
        let directory = TemporaryDirectory()
        try firstUser(directory.imagePath, count: 3)
        let plan = try ops.plan(screen)
        let launch = try Launch(directory.imagePath, mutant: mutant)
        #expect(launch.store.erase())
        try commit(launch.store, 500, name: "second user")
        launch.drain()
        #expect(Self.markIsThere(directory.imagePath) == (mutant != nil))
        try commit(launch.store, 501, name: "second user again")
        launch.drain()
        launch.image.abandon()
        let next = try Launch(directory.imagePath, mutant: mutant)
        let read = next.store.check(plan, variables: try variables(501))
        if mutant == nil {
            #expect(read.isAvailable)
        } else {
            #expect(read == .missing, "under the mutant the mark erases the second user's rows at every launch")
        }
        next.image.abandon()
    }

    @Test(
        "an erase whose drain fails keeps its mark: a process killed then leaves the next launch to erase",
        arguments: [nil, Mutant.eraseMarkDroppedEarly])
    func markOutlivesAFailedDrain(mutant: Mutant?) throws {
        guard Mutants.available || mutant == nil else { return }
        let directory = TemporaryDirectory()
        let plan = try ops.plan(screen)
        let faults = FaultInjector()
        let (image, store) = try faultedLaunch(directory.imagePath, faults: faults, mutant: mutant)
        for id in 1...3 { try commit(store, id, name: "\(Self.marker)-\(id)") }
        _ = image.writer.drain()
        #expect(store.erase())
        faults.fail(.exec, with: .ioerr)
        guard case .failed = image.writer.drain() else {
            Issue.record("the drain did not fail")
            return
        }
        image.abandon()
        #expect(Self.markIsThere(directory.imagePath) == (mutant == nil))
        let next = try Launch(directory.imagePath, mutant: mutant)
        let read = next.store.check(plan, variables: try variables(2))
        #expect(mutant == nil ? read == .missing : read.isAvailable)
        next.image.abandon()
    }

    @Test("an erase whose mark cannot be written says so, and still erases the image at the next drain")
    func markNotWritten() throws {
        let directory = TemporaryDirectory()
        try firstUser(directory.imagePath, count: 3)
        let plan = try ops.plan(screen)
        let faults = FaultInjector()
        let (image, store) = try faultedLaunch(directory.imagePath, faults: faults)
        faults.fail(.open, with: .cantOpen)
        #expect(store.erase() == false)
        #expect(store.keys.isEmpty)
        #expect(!Self.markIsThere(directory.imagePath))
        #expect(store.check(plan, variables: try variables(2)) == .missing)
        #expect(try image.drainCommitted().erased)
        image.close()
        #expect(try Self.rowCount(directory.imagePath) == 0)
    }

    @Test("a second erase killed at any of its disk operations never leaves the first erase's mark empty (an empty file is no mark)")
    func secondEraseKilledInsideItsMark() throws {
        for operations in UInt32(0)..<6 {
            for powerLoss in [nil, UInt64(operations) + 1] {
                let disk = SimulatedDisk(seed: 40 + UInt64(operations))
                let path = "erased-twice.image"
                let image = try Image.open(path: path, vfs: disk.vfsName, appVersion: "1", configuration: ImageConfiguration(executor: ManualWriterExecutor()))
                image.enqueue(WriteBatch(snapshots: [snapshot("Character:1", "Character", ["name": .string(Self.marker)])]))
                _ = try image.drainCommitted()
                #expect(image.erase())
                disk.armCrash(afterOperations: operations, powerLossSeed: powerLoss)
                _ = image.erase()
                disk.thaw()
                image.abandon()
                let mark = disk.bytes(of: path + EraseMark.suffix) ?? []
                #expect(!mark.isEmpty, "a crash after \(operations) operations of the second erase (power lost: \(powerLoss != nil)) left no mark")
            }
        }
    }

    @Test("baton image dump of an image whose erase's process died before its drain says the next open erases what it shows")
    func dumpNotesTheMark() throws {
        let directory = TemporaryDirectory()
        let launch = try Launch(directory.imagePath)
        try commit(launch.store, 1, name: "\(Self.marker)-1")
        launch.drain()
        #expect(launch.store.erase())
        launch.image.abandon()
        let run = try BatonProcess.run(["image", "dump", "--image", directory.imagePath])
        #expect(run.status == 0, "\(run)")
        #expect(run.errors.contains("\(EraseMark.suffix) is beside the image: the store was erased"), "\(run)")
        #expect(run.output.contains(Self.marker), "the dump shows the rows as the file holds them")
        // Reading the image changed nothing: the mark is still there for the next open.
        #expect(Self.markIsThere(directory.imagePath))
    }

    @Test("an erase before a background open that never runs (the process killed) leaves the mark for the next launch")
    func beforeAnOpenThatNeverRuns() throws {
        let directory = TemporaryDirectory()
        try firstUser(directory.imagePath, count: 3)
        let plan = try ops.plan(screen)
        let path = directory.imagePath
        let opening = OpeningImage(start: { _ in }, eraseMark: EraseMark.Place(path: path, vfs: nil)) { () throws(ImageError) -> Image in
            try Image.open(path: path, appVersion: "persistence-tests", configuration: ImageConfiguration(executor: ManualWriterExecutor()))
        }
        let store = Store(image: opening, clock: TestClock(), configuration: .init(collectsAutomatically: false))
        #expect(store.erase())
        #expect(Self.markIsThere(path))
        let next = try Launch(path)
        #expect(next.store.check(plan, variables: try variables(1)) == .missing)
        next.quit()
        #expect(try Self.rowCount(path) == 0)
        #expect(!Self.markIsThere(path))
        _ = opening
    }

    /// The rows of the image's records table, read with SQLite itself.
    static func rowCount(_ path: String) throws -> Int? {
        try withRawDatabase(path) { try $0.scalarInt("SELECT count(*) FROM records WHERE key LIKE 'Character:%'") }
    }

    @Test("an erase whose drain fails keeps every read missing, and the next drain erases")
    func failedDrain() throws {
        let directory = TemporaryDirectory()
        try firstUser(directory.imagePath, count: 5)
        let plan = try ops.plan(screen)
        let faults = FaultInjector()
        let (image, store) = try faultedLaunch(directory.imagePath, faults: faults, checkpointPages: 1_000)
        store.erase()
        try commit(store, 500, name: "second user")
        faults.fail(.step, with: .ioerr)
        guard case .failed = image.writer.drain() else {
            Issue.record("the drain did not fail")
            return
        }
        #expect(store.check(plan, variables: try variables(2)) == .missing)
        #expect(try image.drainCommitted().erased)
        #expect(image.writer.status.erases == 1)
        image.close()
        #expect(Self.filesHoldingMarker(directory.imagePath) == [])
        let next = try Launch(directory.imagePath)
        #expect(next.store.check(plan, variables: try variables(2)) == .missing)
        #expect(next.store.check(plan, variables: try variables(500)).isAvailable)
        next.quit()
    }

    @Test("an erase whose checkpoint a sync fault failed is checkpointed by the next drain that commits", arguments: [nil, Mutant.eraseCheckpointForgotten])
    func owedCheckpoint(mutant: Mutant?) throws {
        guard Mutants.available || mutant == nil else { return }
        let disk = SimulatedDisk(seed: 5)
        var configuration = ImageConfiguration(executor: ManualWriterExecutor())
        #if BATON_MUTANTS
        configuration.mutant = mutant.flatMap(ImageMutant.init(mutant:))
        #endif
        let path = "erase.image"
        let image = try Image.open(path: path, vfs: disk.vfsName, appVersion: "1", configuration: configuration)
        let secret = "\(Self.marker)-in-a-row"
        image.enqueue(WriteBatch(snapshots: [snapshot("Character:1", "Character", ["name": .string(secret)])]))
        #expect(try image.drainCommitted().checkpoint == .none)
        func holdsSecret() -> Bool {
            [path, path + "-wal"].contains { disk.bytes(of: $0)?.firstRange(of: Array(secret.utf8)) != nil }
        }
        #expect(holdsSecret())
        #expect(image.erase())
        disk.failNextSync(code: SQLITE_IOERR)
        let erased = try image.drainCommitted()
        #expect(erased.erased && erased.checkpoint == .failed)
        #expect(holdsSecret(), "the failed checkpoint left the erased row in the WAL")
        image.enqueue(WriteBatch(snapshots: [snapshot("Character:2", "Character", ["name": .string("the next user")])]))
        let next = try image.drainCommitted()
        #expect(next.checkpoint == (mutant == nil ? .guarded : .none))
        #expect(holdsSecret() == (mutant != nil))
        image.close()
    }

    @Test("the production writer retries an erase's failed checkpoint on its own, with no commit after the erase", arguments: [nil, Mutant.eraseCheckpointForgotten])
    func owedCheckpointRetried(mutant: Mutant?) throws {
        guard Mutants.available || mutant == nil else { return }
        let disk = SimulatedDisk(seed: 6)
        let executor = BackgroundWriterExecutor()
        var configuration = ImageConfiguration(executor: executor)
        #if BATON_MUTANTS
        configuration.mutant = mutant.flatMap(ImageMutant.init(mutant:))
        #endif
        let path = "retried.image"
        let image = try Image.open(path: path, vfs: disk.vfsName, appVersion: "1", configuration: configuration)
        defer { image.close() }
        let secret = Array("\(Self.marker)-retried".utf8)
        /// Waits until the writer has nothing queued, owes nothing and runs nothing: only then may
        /// the test read the simulated disk, which is not made to be read while SQLite writes it.
        func settled() -> Bool {
            for _ in 0..<400 {
                if !image.writer.hasQueuedWork, !image.writer.owesEraseCheckpoint {
                    executor.waitUntilIdle()
                    if !image.writer.hasQueuedWork, !image.writer.owesEraseCheckpoint { return true }
                }
                usleep(5_000)
            }
            return false
        }
        func holdsSecret() -> Bool {
            [path, path + "-wal"].contains { disk.bytes(of: $0)?.firstRange(of: secret) != nil }
        }
        image.enqueue(WriteBatch(snapshots: [snapshot("Character:1", "Character", ["name": .string(String(decoding: secret, as: UTF8.self))])]))
        #expect(settled())
        #expect(holdsSecret())
        // The first sync is the erase's mark's; the next, the checkpoint's.
        disk.fail(.sync, code: SQLITE_IOERR, skipping: 1)
        #expect(image.erase())
        #expect(settled(), "the writer still owes the erase's checkpoint")
        #expect(holdsSecret() == (mutant != nil))
        #expect(image.writer.status.erases == 1)
    }

    @Test("an erase the image cannot take (its open failed, or it was closed) says so, and the file keeps its rows")
    func imageCannotTake() throws {
        let directory = TemporaryDirectory()
        try firstUser(directory.imagePath, count: 3)
        let failed = OpeningImage(start: { $0() }) { () throws(ImageError) -> Image in
            throw ImageError.sqlite(SQLiteError(extendedCode: .ioerr, message: "the device is locked"))
        }
        let store = Store(image: failed, clock: TestClock(), configuration: .init(collectsAutomatically: false))
        try commit(store, 500, name: "second user")
        #expect(store.erase() == false)
        #expect(store.keys.isEmpty)
        #expect(try Self.rowCount(directory.imagePath) == 3)

        let launch = try Launch(directory.imagePath)
        launch.image.close()
        #expect(launch.store.erase() == false)
        #expect(try Self.rowCount(directory.imagePath) == 3)
        let opened = try Launch(directory.imagePath)
        #expect(opened.store.erase())
        #expect(Store(image: nil).erase())
        opened.quit()
        #expect(try Self.rowCount(directory.imagePath) == 0)
    }

    @Test("an erase while a drain is in flight: the drain's commit leaves the erase for the next drain, its failure puts nothing back")
    func duringADrain() throws {
        let directory = TemporaryDirectory()
        let image = try openTestImage(directory.imagePath)
        let old = WriteBatch(snapshots: [snapshot("Character:1", "Character", ["name": .string("old")])])
        image.enqueue(old)
        let committed = image.writer.takeWork()
        #expect(image.erase())
        image.writer.workCommitted(committed)
        #expect(image.read { _ in true } == nil)
        let next = image.writer.takeWork()
        #expect(next.wipe && next.erase)
        image.writer.workFailed(next, error: SQLiteError(extendedCode: .ioerr, message: "test"))

        image.enqueue(old)
        let failed = image.writer.takeWork()
        #expect(image.erase())
        image.writer.workFailed(failed, error: SQLiteError(extendedCode: .ioerr, message: "test"))
        #expect(image.pendingKeys().isEmpty)
        let retried = image.writer.takeWork()
        #expect(retried.batches.isEmpty && retried.erase)
        image.writer.workFailed(retried, error: SQLiteError(extendedCode: .ioerr, message: "test"))
        #expect(try image.drainCommitted().erased)
        #expect(image.readRecord("Character:1") == nil)
        image.close()
    }

    @Test("an erase before a background open erases the image the moment it opens, before the commits made after it")
    func beforeTheOpen() throws {
        let directory = TemporaryDirectory()
        try firstUser(directory.imagePath, count: 5)
        let plan = try ops.plan(screen)
        let path = directory.imagePath
        let pending = PendingOpen()
        let opening = OpeningImage(start: { pending.job = $0 }) { () throws(ImageError) -> Image in
            try Image.open(path: path, appVersion: "persistence-tests", configuration: ImageConfiguration(executor: ManualWriterExecutor()))
        }
        let store = Store(image: opening, clock: TestClock(), configuration: .init(collectsAutomatically: false))
        try commit(store, 400, name: "before the erase")
        #expect(store.erase())
        try commit(store, 500, name: "second user")
        #expect(opening.pendingKeys() == [RecordKey("Character:500"), .queryRoot])
        pending.job?()
        let image = try #require(opening.wait())
        #expect(store.check(plan, variables: try variables(2)) == .missing)
        #expect(try image.drainCommitted().erased)
        image.close()
        let next = try Launch(directory.imagePath)
        #expect(next.store.check(plan, variables: try variables(2)) == .missing)
        #expect(next.store.check(plan, variables: try variables(400)) == .missing)
        #expect(next.store.check(plan, variables: try variables(500)).isAvailable)
        next.quit()
    }
}

/// The open's work, held until the test runs it.
private final class PendingOpen: @unchecked Sendable {
    var job: (@Sendable () -> Void)?
}
