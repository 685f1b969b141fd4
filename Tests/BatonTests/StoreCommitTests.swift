import Baton
import Observation
import Synchronization
import Testing

/// Counts observation callbacks.
final class ChangeCounter: Sendable {
    private let value = Mutex(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

@MainActor
@Suite("Commit: records, identity and notifications")
struct StoreCommitTests {
    let header = try! StoreFixture.plan("query H($id: ID!) { character(id: $id) { id name status } }")

    @Test("the same entity reached by two paths is one record")
    func sameEntityTwoPaths() throws {
        let plan = try StoreFixture.plan("""
        query { character(id: "1") { id name friends(first: 2) { id name } } episode(id: "e") { id characters { id status } } }
        """)
        let store = Store()
        try StoreFixture.commit(store, plan, [:], """
        {"data":{"character":{"id":"1","name":"Rick","friends":[{"id":"2","name":"Morty"}]},
         "episode":{"id":"e","characters":[{"id":"2","status":"Alive"},{"id":"1","status":"Dead"}]}}}
        """)
        let morty = try #require(store.data(of: RecordKey("Character:2")))
        #expect(morty.cells[SlotID.named("name")]?.value == .string("Morty"))
        #expect(morty.cells[SlotID.named("status")]?.value == .string("Alive"))
        #expect(store.keys.filter { $0.rawValue.hasPrefix("Character:") }.count == 2)
    }

    @Test("an object without an id gets its path key")
    func pathKey() throws {
        let plan = try StoreFixture.plan("query { characters(page: 2) { info { count } results { id } } }")
        let store = Store()
        try StoreFixture.commit(store, plan, [:], #"{"data":{"characters":{"info":{"count":5},"results":[{"id":"1"}]}}}"#)
        let info = try #require(store.data(of: RecordKey("client:root:characters(page:2):info")))
        #expect(info.cells[SlotID.named("count")]?.value == .int(5))
        #expect(store.data(of: .queryRoot)?.cells[SlotID.named("characters(page:2)")]?.value == .link(RecordKey("client:root:characters(page:2)")))
    }

    @Test("a null element of a list of links is kept at its index")
    func nullInLinks() throws {
        let plan = try StoreFixture.plan(#"query { episode(id: "e") { id characters { id } } }"#)
        let store = Store()
        try StoreFixture.commit(store, plan, [:], #"{"data":{"episode":{"id":"e","characters":[{"id":"1"},null,{"id":"2"}]}}}"#)
        let episode = try #require(store.data(of: RecordKey("Episode:e")))
        #expect(episode.cells[SlotID.named("characters")]?.value == .links([RecordKey("Character:1"), nil, RecordKey("Character:2")]))
        let read = store.read(plan, variables: try plan.variables())
        #expect(read.data == (try StoreFixture.json(#"{"episode":{"id":"e","characters":[{"id":"1"},null,{"id":"2"}]}}"#)))
    }

    @Test("a missing field is absent, not null")
    func missingFieldAbsent() throws {
        let store = Store()
        try StoreFixture.commit(store, header, ["id": .string("1")], #"{"data":{"character":{"id":"1","name":"Rick"}}}"#)
        let rick = try #require(store.data(of: RecordKey("Character:1")))
        #expect(rick.cells[SlotID.named("status")] == nil)
        #expect(rick.cells[SlotID.named("name")]?.value == .string("Rick"))
        #expect(store.check(header, variables: try header.variables(["id": .string("1")])) == .missing)
    }

    @Test("a field error lands on the field its path names")
    func fieldError() throws {
        let store = Store()
        try StoreFixture.commit(store, header, ["id": .string("1")], """
        {"data":{"character":{"id":"1","name":"Rick","status":null}},"errors":[{"message":"private","path":["character","status"]}]}
        """)
        let cell = try #require(store.data(of: RecordKey("Character:1"))?.cells[SlotID.named("status")])
        #expect(cell.value == .null)
        #expect(cell.errors.first?.message == "private")
        #expect(cell.errors.first?.path == "character.status")
        #expect(store.data(of: RecordKey("Character:1"))?.cells[SlotID.named("name")]?.errors.isEmpty == true)
    }

    @Test("equal values notify nothing and a changed slot notifies once")
    func notifications() throws {
        let store = Store()
        let variables: [String: JSONValue] = ["id": .string("1")]
        try StoreFixture.commit(store, header, variables, #"{"data":{"character":{"id":"1","name":"Rick","status":"Alive"}}}"#)
        let rick = try #require(store.record(RecordKey("Character:1")))
        let name = ChangeCounter()
        let status = ChangeCounter()
        func observeName() {
            withObservationTracking { _ = rick["name"] } onChange: { name.increment() }
        }
        func observeStatus() {
            withObservationTracking { _ = rick["status"] } onChange: { status.increment() }
        }
        observeName()
        observeStatus()
        try StoreFixture.commit(store, header, variables, #"{"data":{"character":{"id":"1","name":"Rick","status":"Alive"}}}"#)
        #expect(name.count == 0)
        #expect(status.count == 0)
        try StoreFixture.commit(store, header, variables, #"{"data":{"character":{"id":"1","name":"Rick","status":"Dead"}}}"#)
        #expect(name.count == 0)
        #expect(status.count == 1)
        #expect(rick["status"] == .string("Dead"))
    }

    @Test("malformed input of each kind gives an error and leaves the store unchanged", arguments: [
        #"{"data":{"character":{"id":"1","name":"Rick""#,
        #"{"data":{"character":{"id":"1","name":7}}}"#,
        #"{"data":{"character":{"name":"Rick"}}}"#,
        #"{"data":{"character":["#,
        #"[1,2,3]"#,
        #"{"data":{"character":{"id":"1","name":"Rick"}}} trailing"#,
    ])
    func malformed(json: String) throws {
        let store = Store()
        let variables: [String: JSONValue] = ["id": .string("1")]
        try StoreFixture.commit(store, header, variables, #"{"data":{"character":{"id":"1","name":"Before"}}}"#)
        let before = store.recordSource()
        #expect(throws: (any Error).self) {
            try StoreFixture.commit(store, header, variables, json)
        }
        #expect(store.recordSource() == before)
    }

    @Test("the record source prints Relay's shape")
    func recordSource() throws {
        let plan = try StoreFixture.plan(#"query { episode(id: "e") { id name characters { id name } } }"#)
        let store = Store()
        try StoreFixture.commit(store, plan, [:], #"{"data":{"episode":{"id":"e","name":"Pilot","characters":[{"id":"1","name":"Rick"},null]}}}"#)
        #expect(store.recordSource() == """
        {
          "Character:1": {"__typename": "Character", "id": "1", "name": "Rick"},
          "Episode:e": {"__typename": "Episode", "characters": {"__refs": ["Character:1", null]}, "id": "e", "name": "Pilot"},
          "client:root": {"__typename": "Query", "episode(id:\\"e\\")": {"__ref": "Episode:e"}}
        }

        """)
    }
}
