import Baton
import BatonSim
import Testing

@Suite("Oracle: the availability check, hydration and the rows it reads")
struct OracleCheckTests {
    typealias F = OracleFixture
    static let one: [String: JSONValue] = ["id": .string("1")]

    /// An oracle whose image holds a screen of Character:1 (written at time 50, launch 1) and
    /// that relaunched at generation 2 with an empty memory.
    static func relaunched() throws -> Oracle {
        var oracle = try F.oracle()
        try oracle.commit(F.screen("1", name: "Rick", status: "Alive", location: "Earth", episodes: [("10", "Pilot"), ("11", "Lawn")]), "Screen", one, now: 50)
        oracle.drainCommitted(synced: true)
        oracle.relaunched(found: 0, generation: 2, after: .quit)
        return oracle
    }

    @Test("a fetch stamped after now (the clock was set back) is stale under an expiration, fresh without one")
    func clockSetBack() throws {
        var oracle = try F.oracle()
        try oracle.commit(F.header("5", name: "Beth", status: "Alive"), "Header", ["id": .string("5")], now: 500)
        func freshness(_ expiration: Double?, now: Double) -> ExpectedCheck.Freshness? {
            oracle.check(operation: "Header", variables: ["id": .string("5")], expiration: expiration, now: now, hasImage: false).freshness
        }
        #expect(freshness(60, now: 499.5) == .stale)
        #expect(freshness(nil, now: 400) == .fresh)
        #expect(freshness(60, now: 500) == .fresh)
        #expect(freshness(60, now: 559.9) == .fresh)
        #expect(freshness(60, now: 560) == .stale)
        #expect(oracle.coverage.fetchesAheadOfClock == 1)
    }

    @Test("an empty memory: the walk reads the rows it lacks in walk order, then the fetch time; memory is filled and hydrated")
    func hydration() throws {
        var oracle = try Self.relaunched()
        #expect(oracle.base.isEmpty && oracle.hasWriterWork)
        let check = oracle.check(operation: "Screen", variables: Self.one, expiration: 60, now: 120, hasImage: true)
        #expect(check.available && check.source == .image && check.fetchTime == 50 && check.freshness == .stale)
        #expect(check.reads == [
            .rootField(#"character(id:"1")"#, true), .record("Character:1", .present), .record("Character:1:location", .present),
            .record("Episode:10", .present), .record("Episode:11", .present), .fetch(#"Screen{"id":"1"}"#, true),
        ])
        #expect(oracle.record("Character:1")?.cells["name"]?.value == .string("Rick"))
        #expect(["Character:1", "Character:1:location", "Episode:10", "Episode:11"].allSatisfy { oracle.isHydrated(OracleText($0)) })
        #expect(!oracle.isHydrated("client:root"))
        #expect(oracle.touches.records.count == 4 && oracle.touches.rootFields.count == 1 && oracle.touches.fetches.count == 1)
        #expect(oracle.coverage.checksFromImage == 1 && oracle.coverage.recordHydrations == 4 && oracle.coverage.rootFieldHydrations == 1)

        // A second check answers from memory and reads nothing; the fetch time is in memory now.
        let again = oracle.check(operation: "Screen", variables: Self.one, expiration: nil, now: 120, hasImage: true)
        #expect(again.available && again.source == .memory && again.reads.isEmpty && again.fetchTime == 50)
        #expect(oracle.expectedRead(operation: "Screen", variables: Self.one).isComplete)
    }

    @Test("memory's own cells win; a record lacking a selected slot is filled from its row once")
    func memoryWins() throws {
        var oracle = try Self.relaunched()
        try oracle.commit(F.header("1", name: "Rick", status: "Dead"), "Header", Self.one, now: 60)
        #expect(!oracle.isHydrated("Character:1"))
        let check = oracle.check(operation: "Screen", variables: Self.one, expiration: nil, now: 61, hasImage: true)
        #expect(check.available && check.source == .image)
        #expect(check.reads.first == .record("Character:1", .present))  // the root field is in memory
        #expect(oracle.record("Character:1")?.cells["status"]?.value == .string("Dead"))
        #expect(oracle.record("Character:1")?.cells["location"]?.value == .link("Character:1:location"))
        #expect(oracle.isHydrated("Character:1"))
        // Hydrated once: a later walk that lacks something never reads the row again.
        let header = oracle.check(operation: "Header", variables: ["id": .string("1")], expiration: nil, now: 61, hasImage: true)
        #expect(!header.reads.contains(.record("Character:1", .present)))
    }

    @Test("a deleted row makes an absent record deleted, which counts as present and reads null")
    func deletedRow() throws {
        var oracle = try F.oracle()
        try oracle.commit(F.screen("1", name: "Rick", status: "Alive", location: "Earth", episodes: [("10", "Pilot"), ("11", "Lawn")]), "Screen", Self.one, now: 1)
        let deletion = try F.text(#"{"data":{"deleteAny":{"deletedId":"Episode:11"}}}"#, "DeleteAny", ["key": .string("Episode:11")])
        oracle.serverCommit(deletion, operation: "DeleteAny", variables: ["key": .string("Episode:11")], now: 2, answering: nil)
        oracle.drainCommitted(synced: true)
        #expect(oracle.image.records["Episode:11"] == OracleRow(used: 1, typename: "Episode", deleted: true))
        oracle.relaunched(found: 0, generation: 2, after: .kill)
        let check = oracle.check(operation: "Screen", variables: Self.one, expiration: nil, now: 3, hasImage: true)
        #expect(check.available)
        #expect(check.reads.contains(.record("Episode:11", .deleted)))
        #expect(oracle.record("Episode:11") == .deleted("Episode"))
        guard case .object(let data) = oracle.expectedRead(operation: "Screen", variables: Self.one).data,
            case .object(let character)? = data["character"], case .array(let episodes)? = character["episodes"]
        else { Issue.record("no episodes"); return }
        #expect(episodes.count == 2 && episodes[1] == .null)
    }

    @Test("a missing root field: the walk reads its row, finds none and stops; the fetch row is still read")
    func missing() throws {
        var oracle = try Self.relaunched()
        let check = oracle.check(operation: "Header", variables: ["id": .string("2")], expiration: nil, now: 1, hasImage: true)
        #expect(!check.available && check.source == nil)
        #expect(check.reads == [.rootField(#"character(id:"2")"#, false), .fetch(#"Header{"id":"2"}"#, false)])
        #expect(oracle.touches.isEmpty)
    }

    @Test("without an image the check reads nothing")
    func noImage() throws {
        var oracle = try Self.relaunched()
        let check = oracle.check(operation: "Screen", variables: Self.one, expiration: nil, now: 1, hasImage: false)
        #expect(!check.available && check.reads.isEmpty && oracle.base.isEmpty)
    }

    @Test("memory answers but lacks the fetch time: only the fetch row is read")
    func fetchOnly() throws {
        var oracle = try Self.relaunched()
        try oracle.commit(F.header("1", name: "Rick", status: "Alive"), "Header", Self.one, now: 70)
        let check = oracle.check(operation: "Header", variables: ["id": .string("1")], expiration: nil, now: 71, hasImage: true)
        #expect(check.source == .memory && check.fetchTime == 70 && check.reads.isEmpty)
        let other = oracle.check(operation: "Header", variables: ["id": .string("1")], expiration: nil, now: 71, hasImage: true)
        #expect(other.reads.isEmpty)
    }

    @Test("rows unread for a whole launch are invisible: the read misses and the record counts as read")
    func agedOut() throws {
        var oracle = try F.oracle()
        try oracle.commit(F.header("1", name: "Rick", status: "Alive"), "Header", Self.one, now: 1)
        oracle.drainCommitted(synced: true)
        oracle.relaunched(found: 0, generation: 2, after: .quit)
        oracle.drainCommitted(synced: true)  // launch 2 reads nothing
        oracle.relaunched(found: 0, generation: 3, after: .quit)
        #expect(oracle.image.records["Character:1"]?.used == 1)
        let check = oracle.check(operation: "Header", variables: Self.one, expiration: nil, now: 2, hasImage: true)
        #expect(!check.available)
        #expect(check.reads == [.rootField(#"character(id:"1")"#, false), .fetch(#"Header{"id":"1"}"#, false)])
        oracle.drainCommitted(synced: true)
        #expect(oracle.image.records.isEmpty && oracle.image.root.isEmpty && oracle.image.fetches.isEmpty)
        #expect(oracle.coverage.rowsAgedOut == 3)
    }

    @Test("layers are visible to the check and to the read")
    func layersVisible() throws {
        var oracle = try F.oracle()
        let rename = try F.text(#"{"data":{"rename":{"character":{"id":"9","name":"Nine"}}}}"#, "Rename", ["id": .string("9"), "name": .string("Nine")])
        oracle.optimistic(layer: 1, rename, operation: "Rename", variables: [:])
        #expect(oracle.record("Character:9") == nil && oracle.visible("Character:9") != nil)
        let read = oracle.expectedRead(operation: "Rename", variables: ["id": .string("9"), "name": .string("Nine")])
        #expect(read.isComplete)
        #expect(read.data == .object(["rename": .object(["character": .object(["id": .string("9"), "name": .string("Nine")])])]))
    }

    @Test("read-back leaves out what memory lacks and says it is incomplete; aliases are the response keys")
    func partialRead() throws {
        let world = try OracleFixture.world(documents: [
            #"query A($id: ID!) { who: character(id: $id) { id alias: name status, location { name } } }"#,
        ])
        var oracle = Oracle(world: world)
        oracle.firstLaunch(generation: 1)
        let response = try ModelResponse.normalize(
            text: Array(#"{"data":{"who":{"id":"1","alias":"Rick","status":"Alive","location":{"name":"Earth"}}}}"#.utf8),
            operation: world.operation(named: "A")!, variables: Self.one, schema: world.schema)
        oracle.serverCommit(response, operation: "A", variables: Self.one, now: 0, answering: nil)
        var read = oracle.expectedRead(operation: "A", variables: Self.one)
        #expect(read.isComplete)
        #expect(read.data == .object(["who": .object([
            "id": .string("1"), "alias": .string("Rick"), "status": .string("Alive"), "location": .object(["name": .string("Earth")]),
        ])]))
        _ = oracle.collect()  // what waits for the writer stays
        #expect(oracle.expectedRead(operation: "A", variables: Self.one).isComplete)
        oracle.drainCommitted(synced: true)
        _ = oracle.collect()  // nothing retains A: everything but the root goes
        read = oracle.expectedRead(operation: "A", variables: Self.one)
        #expect(!read.isComplete && read.data == .object([:]))
    }
}
