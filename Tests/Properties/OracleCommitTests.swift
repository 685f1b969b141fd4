import Baton
import BatonSim
import Testing

@Suite("Oracle: commits, deletions, ages, layers and write sets")
struct OracleCommitTests {
    typealias F = OracleFixture
    static let one: [String: JSONValue] = ["id": .string("1")]

    @Test("a commit merges slot by slot; equal writes change nothing and hand the writer only the fetch time")
    func slotMerge() throws {
        var oracle = try F.oracle()
        try oracle.commit(F.screen("1", name: "Rick", status: "Alive", location: "Earth", episodes: [("10", "Pilot")]), "Screen", Self.one, now: 5)
        let effect = try oracle.commit(F.header("1", name: "Rick", status: "Dead"), "Header", Self.one, now: 6)
        #expect(oracle.cell("Character:1", "status") == .string("Dead"))
        #expect(oracle.cell("Character:1", "location") == .link("Character:1:location"))  // kept from the screen
        #expect(effect.changed == ["Character:1"])
        #expect(effect.batch.snapshots.map(\.key) == ["Character:1"])
        #expect(effect.batch.snapshots[0].record.cells.count == 5)  // the whole record (id, name, status, location, episodes), not the change
        #expect(effect.batch.rootFields.isEmpty)  // character(id:"1") still links to the same record
        #expect(effect.batch.fetch?.operation == #"Header{"id":"1"}"# && effect.batch.fetch?.time == 6)
        let again = try oracle.commit(F.header("1", name: "Rick", status: "Dead"), "Header", Self.one, now: 7)
        #expect(again.changed.isEmpty && again.batch.snapshots.isEmpty && again.batch.fetch?.time == 7)
        #expect(oracle.queue.count == 3)
    }

    @Test("the query root is a row per field: only its changed fields are written")
    func rootFields() throws {
        var oracle = try F.oracle()
        let first = try oracle.commit(F.header("1", name: "Rick", status: "Alive"), "Header", Self.one)
        #expect(first.batch.rootFields == [#"character(id:"1")"#: OracleCell(.link("Character:1"))])
        let second = try oracle.commit(F.header("2", name: "Morty", status: "Alive"), "Header", ["id": .string("2")])
        #expect(Array(second.batch.rootFields.keys) == [#"character(id:"2")"#])
        #expect(!second.batch.snapshots.contains { $0.key == "client:root" })
    }

    @Test("an errors-only response stamps no fetch time and writes nothing")
    func errorsOnly() throws {
        var oracle = try F.oracle()
        let response = try F.text(#"{"data":null,"errors":[{"message":"down"}]}"#, "Header", Self.one)
        let effect = oracle.serverCommit(response, operation: "Header", variables: Self.one, now: 3, answering: nil)
        #expect(effect.batch.isEmpty && oracle.queue.isEmpty && oracle.fetchTime(of: #"Header{"id":"1"}"#) == nil)
    }

    @Test("a deleted record reads null through a link and at its position in a list; it is hydrated and replaces its row")
    func deletion() throws {
        var oracle = try F.oracle()
        try oracle.commit(F.screen("1", name: "Rick", status: "Alive", location: "Earth", episodes: [("10", "Pilot"), ("11", "Lawn"), ("12", "Anatomy")]), "Screen", Self.one)
        let deletion = try F.text(#"{"data":{"deleteAny":{"deletedId":"Episode:11"}}}"#, "DeleteAny", ["key": .string("Episode:11")])
        let effect = oracle.serverCommit(deletion, operation: "DeleteAny", variables: ["key": .string("Episode:11")], now: 1, answering: nil)
        #expect(oracle.record("Episode:11") == .deleted("Episode"))
        #expect(oracle.isHydrated("Episode:11"))
        #expect(effect.batch.snapshots.first { $0.key == "Episode:11" } == OracleSnapshot(key: "Episode:11", record: .deleted("Episode"), hydrated: true))
        let read = oracle.expectedRead(operation: "Screen", variables: Self.one)
        guard case .object(let data) = read.data, case .object(let character)? = data["character"] else { Issue.record("no character"); return }
        #expect(character["episodes"] == .array([.object(["id": .string("10"), "name": .string("Pilot")]), .null, .object(["id": .string("12"), "name": .string("Anatomy")])]))
        #expect(read.isComplete)
        #expect(oracle.coverage.deletions == 1)
    }

    @Test("a record named again after its deletion holds only the new payload's values")
    func revival() throws {
        var oracle = try F.oracle()
        try oracle.commit(F.screen("1", name: "Rick", status: "Alive", location: "Earth", episodes: []), "Screen", Self.one)
        let deletion = try F.text(#"{"data":{"deleteCharacter":{"deletedId":"1"}}}"#, "DeleteCharacter", Self.one)
        oracle.serverCommit(deletion, operation: "DeleteCharacter", variables: Self.one, now: 1, answering: nil)
        #expect(oracle.record("Character:1")?.deleted == true)
        try oracle.commit(F.header("1", name: "Rick again", status: "Alive"), "Header", Self.one)
        #expect(oracle.record("Character:1") == OracleRecord(typename: "Character", cells: [
            "id": OracleCell(.string("1")), "name": OracleCell(.string("Rick again")), "status": OracleCell(.string("Alive")),
        ]))
        #expect(oracle.coverage.revivals == 1)
    }

    @Test("fetch times, expiration and invalidate(): stale when older or fetched before the invalidation")
    func ages() throws {
        var oracle = try F.oracle()
        try oracle.commit(F.header("1", name: "Rick", status: "Alive"), "Header", Self.one, now: 100)
        var check = oracle.check(operation: "Header", variables: Self.one, expiration: 60, now: 150, hasImage: false)
        #expect(check.available && check.fetchTime == 100 && check.freshness == .fresh && check.source == .memory)
        check = oracle.check(operation: "Header", variables: Self.one, expiration: 60, now: 160, hasImage: false)
        #expect(check.freshness == .stale)
        oracle.invalidate()
        check = oracle.check(operation: "Header", variables: Self.one, expiration: nil, now: 161, hasImage: false)
        #expect(check.freshness == .stale)
        try oracle.commit(F.header("1", name: "Rick", status: "Alive"), "Header", Self.one, now: 170)
        check = oracle.check(operation: "Header", variables: Self.one, expiration: nil, now: 171, hasImage: false)
        #expect(check.freshness == .fresh && check.fetchTime == 170)
        check = oracle.check(operation: "Header", variables: ["id": .string("1"), "extra": .int(1)], expiration: nil, now: 171, hasImage: false)
        #expect(check.freshness == .fresh && check.fetchTime == 170)  // undeclared variables do not change the identity
    }

    @Test("an unknown age is fresh with no expiration and no invalidation, stale where either applies")
    func unknownAge() throws {
        var oracle = try F.oracle()
        try oracle.commit(F.screen("1", name: "Rick", status: "Alive", location: "Earth", episodes: []), "Screen", Self.one, now: 10)
        var check = oracle.check(operation: "Header", variables: Self.one, expiration: nil, now: 11, hasImage: false)
        #expect(check.available && check.fetchTime == nil && check.freshness == .fresh)
        check = oracle.check(operation: "Header", variables: Self.one, expiration: 1000, now: 11, hasImage: false)
        #expect(check.freshness == .stale)
        oracle.invalidate()
        check = oracle.check(operation: "Header", variables: Self.one, expiration: nil, now: 11, hasImage: false)
        #expect(check.freshness == .stale)
    }

    @Test("optimistic layers: the UI sees them over memory; an answer drops its layer; a failure reverts; the writer never sees them")
    func layers() throws {
        var oracle = try F.oracle()
        try oracle.commit(F.header("1", name: "Rick", status: "Alive"), "Header", Self.one)
        let queued = oracle.queue.count
        let rename = { (name: String) in
            try F.text(#"{"data":{"rename":{"character":{"id":"1","name":"\#(name)"}}}}"#, "Rename", ["id": .string("1"), "name": .string(name)])
        }
        oracle.optimistic(layer: 1, try rename("Pickle"), operation: "Rename", variables: [:])
        oracle.optimistic(layer: 2, try rename("Tiny"), operation: "Rename", variables: [:])
        #expect(oracle.cell("Character:1", "name") == .string("Tiny"))
        #expect(oracle.record("Character:1")?.cells["name"]?.value == .string("Rick"))
        #expect(oracle.queue.count == queued)
        oracle.revert(layer: 2)
        #expect(oracle.cell("Character:1", "name") == .string("Pickle"))
        let effect = oracle.serverCommit(try rename("Rick C-137"), operation: "Rename", variables: ["id": .string("1"), "name": .string("Rick C-137")], now: 1, answering: 1)
        #expect(oracle.layerCount == 0)
        #expect(oracle.cell("Character:1", "name") == .string("Rick C-137"))
        #expect(effect.visiblyChanged.contains("Character:1"))
        #expect(effect.batch.snapshots.first { $0.key == "Character:1" }?.record.cells["name"]?.value == .string("Rick C-137"))
    }

    @Test("a server commit under a live layer: the base takes the server's value, the UI still the layer's")
    func commitUnderLayer() throws {
        var oracle = try F.oracle()
        try oracle.commit(F.header("1", name: "Rick", status: "Alive"), "Header", Self.one)
        let pickle = try F.text(#"{"data":{"rename":{"character":{"id":"1","name":"Pickle"}}}}"#, "Rename", ["id": .string("1"), "name": .string("Pickle")])
        oracle.optimistic(layer: 7, pickle, operation: "Rename", variables: [:])
        let effect = try oracle.commit(F.header("1", name: "Rick", status: "Dead"), "Header", Self.one)
        #expect(oracle.cell("Character:1", "name") == .string("Pickle") && oracle.cell("Character:1", "status") == .string("Dead"))
        #expect(effect.batch.snapshots[0].record.cells["name"]?.value == .string("Rick"))
        #expect(effect.visiblyChanged == ["Character:1"])
        #expect(effect.changedSlots["Character:1"] == ["status"])
    }
}
