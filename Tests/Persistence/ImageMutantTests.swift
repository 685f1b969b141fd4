#if BATON_MUTANTS
import Foundation
import Testing

@testable import Baton

@Suite("Image mutants change what they name")
struct ImageMutantTests {
    let directory: ImageTestDirectory
    var path: String { directory.path() }

    init() throws {
        directory = try ImageTestDirectory()
    }

    private let full: [String: Value] = ["name": .string("Rick"), "status": .string("Alive")]

    private func write(_ image: Image, _ snapshots: Snapshot...) throws {
        image.enqueue(WriteBatch(snapshots: snapshots))
        try image.drainCommitted()
    }

    @Test("partialSnapshotReplaces: a partial snapshot empties the row of what it did not carry")
    func partialSnapshotReplaces() throws {
        let image = try openTestImage(path, mutant: ImageMutant.partialSnapshotReplaces.rawValue)
        defer { image.close() }
        try write(image, snapshot("C:1", "C", full, hydrated: true))
        try write(image, snapshot("C:1", "C", ["name": .string("Morty")]))
        #expect(cellsOf(image.readRecord("C:1")) == ["name": .string("Morty")])
    }

    @Test("deletedCellsRevive: a deleted row keeps its cells and a revival gets them back")
    func deletedCellsRevive() throws {
        let image = try openTestImage(path, mutant: ImageMutant.deletedCellsRevive.rawValue)
        defer { image.close() }
        try write(image, snapshot("C:1", "C", full, hydrated: true))
        try write(image, snapshot("C:1", "C", [:], deleted: true))
        #expect(image.readRecord("C:1") == .deleted(typename: "C"))
        #expect(image.dumpRecords().first?.storedCells.count == 2)
        try write(image, snapshot("C:1", "C", ["name": .string("Rick again")]))
        #expect(cellsOf(image.readRecord("C:1")) == ["name": .string("Rick again"), "status": .string("Alive")])
    }

    @Test("evictOneLaunchEarly: a row written in the previous launch is already gone")
    func evictOneLaunchEarly() throws {
        let first = try openTestImage(path, mutant: ImageMutant.evictOneLaunchEarly.rawValue)
        try write(first, snapshot("C:1", "C", full))
        first.close()
        let second = try openTestImage(path, mutant: ImageMutant.evictOneLaunchEarly.rawValue)
        #expect(second.readRecord("C:1") == nil)
        second.writer.drain()
        #expect(second.dumpRecords().isEmpty)
        second.close()
    }

    @Test("evictNever: a row unread for many launches is still read")
    func evictNever() throws {
        let first = try openTestImage(path, mutant: ImageMutant.evictNever.rawValue)
        try write(first, snapshot("C:1", "C", full))
        first.close()
        for _ in 0..<3 {
            let image = try openTestImage(path, mutant: ImageMutant.evictNever.rawValue)
            image.writer.drain()
            image.close()
        }
        let last = try openTestImage(path, mutant: ImageMutant.evictNever.rawValue)
        #expect(last.generation == 5)
        #expect(cellsOf(last.readRecord("C:1")) == full)
        last.close()
    }

    @Test("drainInTwoTransactions: a drain stopped in its second half leaves the first half committed")
    func drainInTwoTransactions() throws {
        for mutant in [nil, ImageMutant.drainInTwoTransactions] {
            let directory = try ImageTestDirectory()
            let path = directory.path()
            let image = try openTestImage(path, mutant: mutant?.rawValue)
            image.enqueue(WriteBatch(snapshots: (1...4).map { snapshot("C:\($0)", "C", ["n": .int($0)]) }))
            #expect(image.writer.drain(stoppingAfter: 3) == .stopped(afterWrites: 3))
            image.abandon()
            let next = try Image.inspect(path: path)
            let keys = next.dumpRecords().map(\.key.rawValue)
            #expect(keys == (mutant == nil ? [] : ["C:1", "C:2"]), "mutant \(String(describing: mutant))")
            next.close()
        }
    }

    @Test("drainInTwoTransactions: a fault in the second half leaves half a drain in the file")
    func twoTransactionsUnderFault() throws {
        let faults = FaultInjector()
        var configuration = ImageConfiguration(executor: ManualWriterExecutor(), faults: faults)
        configuration.mutant = .drainInTwoTransactions
        let image = try Image.open(path: path, appVersion: "1.0", configuration: configuration)
        defer { image.close() }
        image.enqueue(WriteBatch(snapshots: (1...4).map { snapshot("C:\($0)", "C", ["n": .int($0)], hydrated: true) }))
        // Steps: the launch's eviction (a delete per aging table), the largest name id, two new
        // names (an insert each), then one upsert per snapshot: the fourth snapshot's is the 11th.
        faults.fail(.step, nth: 11, with: .full)
        #expect(image.writer.drain() != .nothingToDo)
        #expect(image.dumpRecords().map(\.key.rawValue) == ["C:1", "C:2"])
    }
}
#endif
