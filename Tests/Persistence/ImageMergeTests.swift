import Foundation
import Testing

@testable import Baton

@Suite("Image writer: the merge rule and queue order")
struct ImageMergeTests {
    let directory: ImageTestDirectory
    let image: Image

    init() throws {
        directory = try ImageTestDirectory()
        image = try openTestImage(directory.path())
    }

    private func write(_ snapshots: Snapshot...) throws {
        image.enqueue(WriteBatch(snapshots: snapshots))
        try image.drainCommitted()
    }

    private func stored(_ key: String) -> ImageRecordRow? {
        image.dumpRecords().first { $0.key.rawValue == key }
    }

    private let full: [String: Value] = ["name": .string("Rick"), "status": .string("Alive"), "age": .int(70)]

    @Test("A partial snapshot over a full row keeps the cells it does not write")
    func partialMerges() throws {
        try write(snapshot("Character:1", "Character", full, hydrated: true))
        try write(snapshot("Character:1", "Character", ["name": .string("Rick C-137")]))
        #expect(cellsOf(image.readRecord("Character:1")) == [
            "name": .string("Rick C-137"), "status": .string("Alive"), "age": .int(70),
        ])
        // Cells stay sorted by storage key whatever came from where.
        #expect(stored("Character:1")?.storedCells.map(\.storageKey) == ["age", "name", "status"])
    }

    @Test("A hydrated snapshot replaces its row")
    func hydratedReplaces() throws {
        try write(snapshot("Character:1", "Character", full, hydrated: true))
        try write(snapshot("Character:1", "Character", ["name": .string("Morty")], hydrated: true))
        #expect(cellsOf(image.readRecord("Character:1")) == ["name": .string("Morty")])
    }

    @Test("A deletion replaces its row with a deleted row that holds no cells")
    func deletionReplaces() throws {
        try write(snapshot("Character:1", "Character", full, hydrated: true))
        try write(snapshot("Character:1", "Character", [:], deleted: true))
        #expect(image.readRecord("Character:1") == .deleted(typename: "Character"))
        #expect(stored("Character:1")?.storedCells == [])
    }

    @Test("A record a payload names again after its deletion has only the new cells")
    func revivalAfterDeletion() throws {
        try write(snapshot("Character:1", "Character", full, hydrated: true))
        try write(snapshot("Character:1", "Character", [:], deleted: true))
        try write(snapshot("Character:1", "Character", ["name": .string("Rick")]))
        #expect(cellsOf(image.readRecord("Character:1")) == ["name": .string("Rick")])
    }

    @Test("A partial snapshot with no row, or over a damaged row, stands alone")
    func mergeOverNothing() throws {
        try write(snapshot("Character:2", "Character", ["name": .string("Summer")]))
        #expect(cellsOf(image.readRecord("Character:2")) == ["name": .string("Summer")])
        try write(snapshot("Character:3", "Character", full, hydrated: true))
        try withRawDatabase(directory.path()) { try $0.execute("UPDATE records SET row = x'00' WHERE key = 'Character:3'") }
        try write(snapshot("Character:3", "Character", ["name": .string("Beth")]))
        #expect(cellsOf(image.readRecord("Character:3")) == ["name": .string("Beth")])
    }

    @Test("Inside one batch, rows go in key order and a key queued twice keeps its order")
    func keyOrderInsideABatch() throws {
        try write(snapshot("Character:1", "Character", full, hydrated: true))
        image.enqueue(WriteBatch(snapshots: [
            snapshot("Character:1", "Character", ["name": .string("A")]),
            snapshot("B:1", "B", ["x": .int(1)]),
            snapshot("Character:1", "Character", ["name": .string("B"), "species": .string("Human")]),
            snapshot("A:1", "A", ["x": .int(2)]),
        ]))
        let summary = try image.drainCommitted()
        #expect(summary.snapshots == 4)
        #expect(cellsOf(image.readRecord("Character:1")) == [
            "name": .string("B"), "status": .string("Alive"), "age": .int(70), "species": .string("Human"),
        ])
        #expect(cellsOf(image.readRecord("A:1")) == ["x": .int(2)])
        #expect(cellsOf(image.readRecord("B:1")) == ["x": .int(1)])
    }

    @Test("One drain applies every snapshot of a key in queue order, not coalesced")
    func queueOrder() throws {
        try write(snapshot("Character:1", "Character", full, hydrated: true))
        image.enqueue(WriteBatch(snapshots: [snapshot("Character:1", "Character", ["name": .string("A")])]))
        image.enqueue(WriteBatch(snapshots: [snapshot("Character:1", "Character", ["species": .string("Human")])]))
        let summary = try image.drainCommitted()
        #expect(summary.snapshots == 2)
        #expect(summary.batches == 2)
        #expect(cellsOf(image.readRecord("Character:1")) == [
            "name": .string("A"), "status": .string("Alive"), "age": .int(70), "species": .string("Human"),
        ])
    }

    @Test("Delete then revive in one drain: only the revival's cells")
    func deleteThenReviveInOneDrain() throws {
        try write(snapshot("Character:1", "Character", full, hydrated: true))
        image.enqueue(WriteBatch(snapshots: [snapshot("Character:1", "Character", ["name": .string("A")])]))
        image.enqueue(WriteBatch(snapshots: [snapshot("Character:1", "Character", [:], deleted: true)]))
        image.enqueue(WriteBatch(snapshots: [snapshot("Character:1", "Character", ["status": .string("Dead")])]))
        try image.drainCommitted()
        #expect(cellsOf(image.readRecord("Character:1")) == ["status": .string("Dead")])
    }

    @Test("Revive then delete in one drain: deleted")
    func reviveThenDeleteInOneDrain() throws {
        image.enqueue(WriteBatch(snapshots: [snapshot("Character:1", "Character", full)]))
        image.enqueue(WriteBatch(snapshots: [snapshot("Character:1", "Character", [:], deleted: true)]))
        try image.drainCommitted()
        #expect(image.readRecord("Character:1") == .deleted(typename: "Character"))
    }

    @Test("Field errors, links, link types, lists and objects survive")
    func values() throws {
        let error = FieldError(message: "boom", path: "character.name", extensions: "{\"code\":\"E\"}")
        let cells = [
            NamedCell(storageKey: "episode", cell: Cell(.links([RecordKey("Episode:1"), nil, RecordKey("Episode:2")]))),
            NamedCell(storageKey: "location", cell: Cell(.link(RecordKey("Location:3")))),
            NamedCell(storageKey: "meta", cell: Cell(.object("{\"a\":[1,2]}"))),
            NamedCell(storageKey: "name", cell: Cell(.null, errors: [error])),
            NamedCell(storageKey: "tags", cell: Cell(.list([.string("x"), .list([.int(1), .null]), .double(2.5)]))),
        ]
        let snap = Snapshot(
            key: RecordKey("Character:1"), typename: "Character", cells: cells, deleted: false, hydrated: true,
            linkTypes: [RecordKey("Episode:1"): "Episode", RecordKey("Location:3"): "Location"])
        try write(snap)
        #expect(image.readRecord("Character:1") == .present(typename: "Character", cells: cells))
        let row = try #require(stored("Character:1"))
        #expect(row.linkTypes == [RecordKey("Episode:1"): "Episode", RecordKey("Location:3"): "Location"])
    }

    @Test("Root fields and fetch times are written and read back")
    func rootAndFetches() throws {
        image.enqueue(WriteBatch(
            snapshots: [snapshot("Character:1", "Character", full, hydrated: true)],
            rootFields: [
                NamedCell(storageKey: "character(id:\"1\")", cell: Cell(.link(RecordKey("Character:1")))),
                NamedCell(storageKey: "count", cell: Cell(.int(3))),
            ],
            fetches: [FetchStamp(operation: OperationIdentity("Q{}"), time: 1234.5)]))
        try image.drainCommitted()
        let answers = image.read { read in
            (read.rootField("character(id:\"1\")"), read.rootField("count"), read.rootField("missing"),
             read.fetchTime(OperationIdentity("Q{}")), read.fetchTime(OperationIdentity("R{}")))
        }
        #expect(answers?.0 == Cell(.link(RecordKey("Character:1"))))
        #expect(answers?.1 == Cell(.int(3)))
        #expect(answers?.2 == nil)
        #expect(answers?.3 == 1234.5)
        #expect(answers?.4 == nil)
        image.enqueue(WriteBatch(fetches: [FetchStamp(operation: OperationIdentity("Q{}"), time: 99)]))
        try image.drainCommitted()
        #expect(image.read { $0.fetchTime(OperationIdentity("Q{}")) } == 99)
    }

    @Test("A root field's links get their types from the batch's records")
    func rootLinkTypes() throws {
        image.enqueue(WriteBatch(
            snapshots: [
                snapshot("Character:1", "Character", ["friend": .link(RecordKey("Character:2"))], linkTypes: ["Character:2": "Character"]),
                snapshot("Episode:1", "Episode", [:]),
            ],
            rootFields: [
                NamedCell(storageKey: "all", cell: Cell(.links([
                    RecordKey("Character:1"), RecordKey("Character:2"), RecordKey("Episode:1"), RecordKey("Unknown:1"), nil,
                ]))),
            ]))
        try image.drainCommitted()
        let root = try #require(image.dumpRootFields().first)
        #expect(root.linkTypes == [
            RecordKey("Character:1"): "Character", RecordKey("Character:2"): "Character", RecordKey("Episode:1"): "Episode",
        ])
    }

    @Test("Pending keys: queued until committed")
    func pendingKeys() throws {
        image.enqueue(WriteBatch(snapshots: [snapshot("A:1", "A", ["x": .int(1)]), snapshot("B:1", "B", [:], deleted: true)]))
        #expect(image.pendingKeys() == [RecordKey("A:1"), RecordKey("B:1")])
        try image.drainCommitted()
        #expect(image.pendingKeys().isEmpty)
        #expect(image.writer.drain() == .nothingToDo)
        #expect(image.writer.status.commits == 1)
        #expect(image.writer.status.pendingItems == 0)
    }

    @Test("Names get ids in write order (batches in queue order, each batch's records by key, new link types first, sorted), the same in any file")
    func deterministicNames() throws {
        let batches = [
            WriteBatch(snapshots: [
                snapshot("Z:1", "Zeta", ["b": .int(1), "a": .link(RecordKey("Y:1"))], linkTypes: ["Y:1": "Ypsilon"]),
                snapshot("A:1", "Alpha", ["é": .int(1), "e": .int(2)]),
            ]),
            WriteBatch(snapshots: [snapshot("M:1", "Mu", ["c": .null])]),
        ]
        var dumps: [[ImageNameRow]] = []
        for index in 0..<2 {
            let other = try openTestImage(directory.path("other\(index).image"))
            for batch in batches { other.enqueue(batch) }
            try other.drainCommitted()
            dumps.append(other.dumpNames())
            other.close()
        }
        #expect(dumps[0] == dumps[1])
        // `A:1` is written before `Z:1` though queued after it: a batch's rows go in key order.
        #expect(dumps[0].map(\.name) == ["Alpha", "e", "é", "Ypsilon", "Zeta", "a", "b", "Mu", "c"])
    }

    @Test("No statement is left busy after writes and reads")
    func noBusyStatements() throws {
        try write(snapshot("Character:1", "Character", full, hydrated: true))
        _ = image.readRecord("Character:1")
        _ = image.readRecord("Character:404")
        let counts = image.statementCounts()
        #expect(counts.busy == 0)
        #expect(counts.live == counts.cached)
    }
}
