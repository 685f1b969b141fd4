import Foundation
import Testing

@testable import Baton

@Suite("Image launch eviction")
struct ImageEvictionTests {
    let directory: ImageTestDirectory
    var path: String { directory.path() }

    init() throws {
        directory = try ImageTestDirectory()
    }

    /// Runs one launch: open, `body`, one drain, close. Returns what `body` returned.
    @discardableResult
    private func launch<R>(_ expectedGeneration: Int, _ body: (Image) throws -> R) throws -> R {
        let image = try openTestImage(path)
        #expect(image.generation == expectedGeneration)
        let result = try body(image)
        image.writer.drain()
        #expect(image.integrityCheck() == "ok")
        image.close()
        return result
    }

    private func inspect() throws -> (records: [String], names: [String]) {
        let image = try Image.inspect(path: path)
        defer { image.close() }
        return (image.dumpRecords().map(\.key.rawValue), image.dumpNames().map(\.name))
    }

    @Test("Read in launches 2 and 3, unread in 4, gone in 5; a row unread in 3 is gone in 4")
    func rowsAgeOutByLaunch() throws {
        try launch(1) { image in
            image.enqueue(WriteBatch(snapshots: [
                snapshot("Alpha:1", "Alpha", ["alphaField": .int(1)]),
                snapshot("Bravo:1", "Bravo", ["bravoField": .int(2)]),
            ]))
        }
        try launch(2) { image in
            #expect(image.readRecord("Alpha:1") != nil)
            #expect(image.readRecord("Bravo:1") != nil)
        }
        try launch(3) { image in
            #expect(image.readRecord("Alpha:1") != nil)
        }
        #expect(try inspect().records == ["Alpha:1", "Bravo:1"])
        try launch(4) { image in
            // Bravo was unread for all of launch 3: absent before the eviction has run...
            #expect(image.readRecord("Bravo:1") == nil)
            #expect(image.dumpRecords().map(\.key.rawValue) == ["Alpha:1", "Bravo:1"])
        }
        // ...and deleted, with the names only it used, by launch 4's first drain.
        var stored = try inspect()
        #expect(stored.records == ["Alpha:1"])
        #expect(stored.names.sorted() == ["Alpha", "alphaField"])
        try launch(5) { image in
            #expect(image.readRecord("Alpha:1") == nil)
        }
        stored = try inspect()
        #expect(stored.records.isEmpty)
        #expect(stored.names.isEmpty)
    }

    @Test("The first drain of a launch evicts even with nothing queued")
    func evictionWithoutWork() throws {
        try launch(1) { $0.enqueue(WriteBatch(snapshots: [snapshot("A:1", "A", ["x": .int(1)])])) }
        try launch(2) { _ in }
        let image = try openTestImage(path)
        guard case .committed(let summary) = image.writer.drain() else {
            Issue.record("expected a commit")
            return
        }
        #expect(summary.evicted)
        #expect(image.dumpRecords().isEmpty)
        #expect(image.writer.drain() == .nothingToDo)
        image.close()
    }

    @Test("A merge stamps the names of the old cells it keeps, so the merged row stays readable")
    func mergedNamesStamped() throws {
        try launch(1) { image in
            image.enqueue(WriteBatch(snapshots: [snapshot("A:1", "A", ["kept": .int(1), "written": .int(1)], hydrated: true)]))
        }
        try launch(2) { image in
            image.enqueue(WriteBatch(snapshots: [snapshot("A:1", "A", ["written": .int(2)])]))
        }
        try launch(3) { image in
            #expect(cellsOf(image.readRecord("A:1")) == ["kept": .int(1), "written": .int(2)])
        }
    }

    @Test("Root fields and fetch times age out like records, and read stamps keep them")
    func rootAndFetchesAgeOut() throws {
        try launch(1) { image in
            image.enqueue(WriteBatch(
                rootFields: [
                    NamedCell(storageKey: "read", cell: Cell(.int(1))),
                    NamedCell(storageKey: "unread", cell: Cell(.int(2))),
                ],
                fetches: [FetchStamp(operation: OperationIdentity("Q{}"), time: 1)]))
        }
        try launch(2) { image in
            _ = image.read { ($0.rootField("read"), $0.fetchTime(OperationIdentity("Q{}"))) }
        }
        try launch(3) { image in
            let answers = image.read { ($0.rootField("read"), $0.rootField("unread"), $0.fetchTime(OperationIdentity("Q{}"))) }
            #expect(answers?.0 == Cell(.int(1)))
            #expect(answers?.1 == nil)
            #expect(answers?.2 == 1)
        }
        let image = try Image.inspect(path: path)
        #expect(image.dumpRootFields().map(\.field) == ["read"])
        #expect(image.dumpFetches().map(\.used) == [3])
        image.close()
    }

    @Test("A read writes nothing; its stamps ride on the next drain")
    func readsWriteNothing() throws {
        try launch(1) { $0.enqueue(WriteBatch(snapshots: [snapshot("A:1", "A", ["x": .int(1)])])) }
        let image = try openTestImage(path)
        #expect(image.readRecord("A:1") != nil)
        #expect(image.dumpRecords().first?.used == 1)
        let summary = try image.drainCommitted()
        #expect(summary.touches >= 1)
        #expect(image.dumpRecords().first?.used == 2)
        image.close()
    }
}
