@testable import Baton
import Synchronization
import Testing

/// An image that keeps every batch a store hands it and reads nothing.
private final class BatchRecorder: StoreImage {
    private let batches = Mutex<[WriteBatch]>([])

    var taken: [WriteBatch] {
        batches.withLock { batches in
            defer { batches = [] }
            return batches
        }
    }

    func enqueue(_ batch: WriteBatch) { batches.withLock { $0.append(batch) } }
    func erase() -> Bool { true }
    func pendingKeys() -> Set<RecordKey> { [] }
    func read<T>(_ body: (any ImageReadTransaction) -> T) -> T? { nil }
}

@MainActor
@Suite("Memory by record id: outlines, marks, compaction and snapshots")
struct StoreMemoryTests {
    let friends = try! StoreFixture.plan(#"query F { character(id: "1") { id friends(first: 2) { id name } } }"#)
    let header = try! StoreFixture.plan(#"query H { character(id: "1") { id } }"#)
    let friend = try! StoreFixture.plan(#"query G { character(id: "2") { id name } }"#)

    private func character(_ id: String, _ cells: [String: Value]) -> RecordChange {
        var slots = CellTable()
        for (name, value) in cells { slots[SlotID.named(name)] = Cell(value) }
        return RecordChange(key: RecordKey("Character:\(id)"), typename: "Character", cells: slots)
    }

    private var root: RecordChange {
        RecordChange(key: .queryRoot, typename: "Query", cells: [SlotID.named(#"character(id:"1")"#): Cell(.link(RecordKey("Character:1")))])
    }

    @Test("a link read before its target entered memory still protects the target once it has")
    func targetEntersLater() throws {
        let store = Store(configuration: .init(releaseBufferSize: 0, collectsAutomatically: false))
        // Character 1 links to Character 2, which memory does not hold yet: the check misses,
        // and writes character 1's outline with an id for Character:2.
        store.commit(ChangeSet(records: [root, character("1", ["id": .string("1"), "friends(first:2)": .links([RecordKey("Character:2")])])]))
        #expect(!store.check(friends, variables: try friends.variables()).isAvailable)
        try StoreFixture.commit(store, friend, [:], #"{"data":{"character":{"id":"2","name":"Morty"}}}"#)
        #expect(store.check(friends, variables: try friends.variables()).isAvailable)
        let token = store.retain(friends, variables: try friends.variables())
        store.collect()
        // Character 2 is reached through the outline written before it arrived.
        #expect(store.data(of: RecordKey("Character:2")) != nil)
        #expect(store.data(of: .queryRoot)?.cells[SlotID.named(#"character(id:"2")"#)] == nil)
        store.release(token)
    }

    @Test("a link from a record whose outline was written before the target was swept and came back")
    func targetSweptAndBack() throws {
        let store = Store(configuration: .init(releaseBufferSize: 0, collectsAutomatically: false))
        try StoreFixture.commit(store, friends, [:], #"{"data":{"character":{"id":"1","friends":[{"id":"2","name":"Morty"}]}}}"#)
        #expect(store.check(friends, variables: try friends.variables()).isAvailable)
        let narrow = store.retain(header, variables: try header.variables())
        store.collect()
        #expect(store.data(of: RecordKey("Character:2")) == nil)
        #expect(!store.check(friends, variables: try friends.variables()).isAvailable)
        try StoreFixture.commit(store, friend, [:], #"{"data":{"character":{"id":"2","name":"Morty"}}}"#)
        let wide = store.retain(friends, variables: try friends.variables())
        store.release(narrow)
        store.collect()
        #expect(store.data(of: RecordKey("Character:2"))?.cells[SlotID.named("name")]?.value == .string("Morty"))
        #expect(store.check(friends, variables: try friends.variables()).isAvailable)
        store.release(wide)
    }

    @Test("links in nested lists and lists with nulls are all followed by the check and the mark")
    func nestedLists() throws {
        let store = Store(configuration: .init(releaseBufferSize: 0, collectsAutomatically: false))
        let nested = Value.list([.list([.link(RecordKey("Character:2"))]), .null, .links([nil, RecordKey("Character:3")])])
        store.commit(ChangeSet(records: [root, character("1", ["id": .string("1"), "friends(first:2)": nested])]))
        #expect(!store.check(friends, variables: try friends.variables()).isAvailable)
        store.commit(ChangeSet(records: [character("2", ["id": .string("2"), "name": .string("Morty")])]))
        #expect(!store.check(friends, variables: try friends.variables()).isAvailable)
        store.commit(ChangeSet(records: [character("3", ["id": .string("3"), "name": .string("Summer")])]))
        #expect(store.check(friends, variables: try friends.variables()).isAvailable)
        store.commit(ChangeSet(records: [character("4", ["id": .string("4")])]))
        let token = store.retain(friends, variables: try friends.variables())
        let result = store.collect()
        #expect(result.swept == 1)
        #expect(store.data(of: RecordKey("Character:4")) == nil)
        #expect(store.data(of: RecordKey("Character:2")) != nil && store.data(of: RecordKey("Character:3")) != nil)
        store.release(token)
    }

    @Test("a collection that sweeps most records numbers the rest afresh, and they stay whole")
    func compaction() throws {
        let store = Store(configuration: .init(releaseBufferSize: 0, collectsAutomatically: false))
        try StoreFixture.commit(store, friends, [:], #"{"data":{"character":{"id":"1","friends":[{"id":"2","name":"Morty"}]}}}"#)
        // Deleted here: counts as hydrated, and must still after its id changes.
        let deletion = try StoreFixture.plan(#"mutation D { deleteCharacter(id: "9") { deletedId @deleteRecord(typename: "Character") } }"#)
        try StoreFixture.commit(store, deletion, [:], #"{"data":{"deleteCharacter":{"deletedId":"9"}}}"#)
        #expect(store.isHydrated(RecordKey("Character:9")))
        let many = (0..<3_000).map { character("x\($0)", ["id": .string("x\($0)")]) }
        store.commit(ChangeSet(records: many))
        let token = store.retain(friends, variables: try friends.variables())
        let deleted = store.retain(try StoreFixture.plan(#"query K { character(id: "9") { id } }"#), variables: Variables())
        store.commit(ChangeSet(records: [RecordChange(
            key: .queryRoot, typename: "Query", cells: [SlotID.named(#"character(id:"9")"#): Cell(.link(RecordKey("Character:9")))])]))
        let before = store.base.idCount
        let result = store.collect()
        // The 3,000 and the deletion's payload record, which no root reaches.
        #expect(result.swept == 3_001)
        #expect(store.base.idCount < before / 2)
        #expect(store.isHydrated(RecordKey("Character:9")))
        #expect(store.data(of: RecordKey("Character:9"))?.deleted == true)
        #expect(store.check(friends, variables: try friends.variables()).isAvailable)
        #expect(store.keys.filter { $0.rawValue.hasPrefix("Character:") } == [RecordKey("Character:1"), RecordKey("Character:2"), RecordKey("Character:9")])
        // The renumbered memory takes new records and collects them like any other.
        store.commit(ChangeSet(records: [character("x1", ["id": .string("x1")])]))
        #expect(store.collect().swept == 1)
        #expect(store.check(friends, variables: try friends.variables()).isAvailable)
        store.release(token)
        store.release(deleted)
    }

    @Test("a store's snapshots name, sort and type their cells as memory held them at the commit")
    func snapshotsAsMemoryHeldThem() throws {
        let image = BatchRecorder()
        let store = Store(image: image, configuration: .init(collectsAutomatically: false))
        let notes = try StoreFixture.plan("""
        query N($after: String) {
          character(id: "1") {
            id name origin { id name } episodes { id name characters { id } }
            notes(first: 2, after: $after) @connection(key: "N_notes") {
              edges { cursor node { id text } }
              pageInfo { endCursor startCursor hasNextPage hasPreviousPage }
            }
          }
        }
        """)
        func page(_ ids: [Int], after: String?) -> String {
            let edges = ids.map { #"{"cursor":"c\#($0)","node":{"id":"n\#($0)","text":"note \#($0)"}}"# }.joined(separator: ",")
            return #"{"data":{"character":{"id":"1","name":"Rick","origin":{"id":"L1","name":"Earth"},"episodes":[{"id":"E1","name":"Pilot","characters":[{"id":"1"},{"id":"2"}]}],"notes":{"edges":[\#(edges)],"pageInfo":{"endCursor":"c\#(ids.last!)","startCursor":"c\#(ids.first!)","hasNextPage":true,"hasPreviousPage":\#(after != nil)}}}}}"#
        }
        let deletion = try StoreFixture.plan(#"mutation D { deleteCharacter(id: "2") { deletedId @deleteRecord(typename: "Character") } }"#)
        let commits: [(Plan, [String: JSONValue], String)] = [
            (notes, [:], page([1, 2], after: nil)),
            // A page that joins the connection: its edges list holds copies from the first page.
            (notes, ["after": .string("c2")], page([3, 4], after: "c2")),
            (deletion, [:], #"{"data":{"deleteCharacter":{"deletedId":"2"}}}"#),
        ]
        var snapshots = 0
        for (plan, variables, json) in commits {
            try StoreFixture.commit(store, plan, variables, json)
            for batch in image.taken {
                for snapshot in batch.snapshots {
                    snapshots += 1
                    let data = try #require(store.data(of: snapshot.key))
                    #expect(snapshot.typename == data.typename && snapshot.deleted == data.deleted)
                    #expect(snapshot.cells == (data.deleted ? [] : data.namedCells))
                    var expected: [RecordKey: String] = [:]
                    for cell in data.cells.values {
                        cell.value.forEachLink { target in expected[target] = store.data(of: target)?.typename }
                    }
                    #expect(snapshot.linkTypes == expected, "link types of \(snapshot.key)")
                }
                let rootTypes = DrainTransaction.rootLinkTypes(of: batch)
                for field in batch.rootFields {
                    field.cell.value.forEachLink { target in
                        #expect(rootTypes[target] == store.data(of: target)?.typename, "root link to \(target)")
                    }
                }
            }
        }
        #expect(snapshots > 10)
    }

    @Test("an id set answers like a set before and after it spreads into bits")
    func idSet() {
        var set = IDSet(capacity: 100)
        var reference = Set<Int>()
        for step in 0..<500 {
            let id = (step * 7_919 + 13) % 400
            #expect(set.insert(id) == reference.insert(id).inserted)
        }
        for id in 0..<500 { #expect(set.contains(id) == reference.contains(id)) }
    }
}
