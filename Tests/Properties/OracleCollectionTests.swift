import Baton
import BatonSim
import Testing

@Suite("Oracle: retention and collection (Relay's GC)")
struct OracleCollectionTests {
    typealias F = OracleFixture
    static let one: [String: JSONValue] = ["id": .string("1")]

    /// An oracle with Character:1's screen and Character:2's header in memory, drained.
    static func loaded() throws -> Oracle {
        var oracle = try F.oracle()
        try oracle.commit(F.screen("1", name: "Rick", status: "Alive", location: "Earth", episodes: [("10", "Pilot")]), "Screen", one)
        try oracle.commit(F.header("2", name: "Morty", status: "Alive"), "Header", ["id": .string("2")])
        oracle.drainCommitted(synced: true)
        return oracle
    }

    @Test("what a retained root reaches stays; everything else goes, unreached query-root fields too; operation roots never")
    func retained() throws {
        var oracle = try Self.loaded()
        let deletion = try F.text(#"{"data":{"deleteCharacter":{"deletedId":"3"}}}"#, "DeleteCharacter", ["id": .string("3")])
        oracle.serverCommit(deletion, operation: "DeleteCharacter", variables: ["id": .string("3")], now: 0, answering: nil)
        oracle.drainCommitted(synced: true)
        oracle.retain(token: 1, operation: "Header", variables: ["id": .string("2")])
        let result = oracle.collect()
        #expect(result.swept == ["Character:1", "Character:1:location", "Character:3", "Episode:10", #"client:root:mutation:deleteCharacter(id:"3")"#])
        #expect(result.sweptRootFields == [#"character(id:"1")"#])
        #expect(oracle.record("Character:2") != nil && oracle.record("client:root:mutation") != nil)
        #expect(oracle.record("client:root")?.cells.keys.map(\.string) == [#"character(id:"2")"#])
        #expect(result.kept == 3)
    }

    @Test("released roots keep protecting until ten newer ones were released")
    func releaseBuffer() throws {
        var oracle = try Self.loaded()
        oracle.retain(token: 1, operation: "Screen", variables: Self.one)
        oracle.release(token: 1)
        for token in 2...10 {
            oracle.retain(token: token, operation: "Header", variables: ["id": .string(String(100 + token))])
            oracle.release(token: token)
        }
        #expect(oracle.retainedCount.buffered == 10)
        _ = oracle.collect()
        #expect(oracle.record("Episode:10") != nil)
        oracle.retain(token: 11, operation: "Header", variables: ["id": .string("111")])
        oracle.release(token: 11)
        #expect(oracle.retainedCount.buffered == 10)
        _ = oracle.collect()
        #expect(oracle.record("Episode:10") == nil && oracle.record("Character:1") == nil)
    }

    @Test("records waiting for the writer and the query root while its fields wait are kept")
    func pendingWriter() throws {
        var oracle = try F.oracle()
        try oracle.commit(F.header("1", name: "Rick", status: "Alive"), "Header", Self.one)
        #expect(oracle.pendingKeys == ["Character:1", "client:root"])
        let result = oracle.collect()
        #expect(result.swept.isEmpty && result.sweptRootFields.isEmpty)
        oracle.drainCommitted(synced: false)
        #expect(oracle.collect().swept == ["Character:1"])
    }

    @Test("everything a layer touches is kept, and what it links to")
    func layersProtect() throws {
        var oracle = try Self.loaded()
        let rename = try F.text(#"{"data":{"rename":{"character":{"id":"1","name":"Pickle"}}}}"#, "Rename", ["id": .string("1"), "name": .string("Pickle")])
        oracle.optimistic(layer: 1, rename, operation: "Rename", variables: [:])
        let result = oracle.collect()
        #expect(oracle.record("Character:1") != nil)
        #expect(result.swept.contains("Character:2") && !result.swept.contains("Character:1"))
        // The layer's version of Character:1 holds the base's cells too: its links are kept.
        #expect(!result.swept.contains("Episode:10") && !result.swept.contains("Character:1:location"))
        #expect(oracle.cell("Character:1", "name") == .string("Pickle"))
    }

    @Test("collection un-hydrates what it sweeps")
    func unhydrates() throws {
        var oracle = try Self.loaded()
        oracle.relaunched(found: 0, generation: 2, after: .quit)
        _ = oracle.check(operation: "Screen", variables: Self.one, expiration: nil, now: 0, hasImage: true)
        #expect(oracle.isHydrated("Character:1"))
        oracle.drainCommitted(synced: true)
        _ = oracle.collect()
        #expect(!oracle.isHydrated("Character:1") && oracle.record("Character:1") == nil)
        #expect(oracle.coverage.collectionsSweepingHydrated == 1)
    }

    @Test("a kept connection keeps its edge copies and page info, so the next page still meets its cursor")
    func connectionKeepsWhatItOwns() throws {
        let count = """
        query Count($id: ID!) { character(id: $id) { id notes(first: 2) @connection(key: "Notes_notes") { totalCount } } }
        """
        var oracle = Oracle(world: try F.world(documents: F.documents + [count]))
        oracle.firstLaunch(generation: 1)
        let arguments: [String: JSONValue] = ["first": .int(2)]
        try oracle.commit(F.notesPage("1", arguments: arguments, notes: ["1", "2"], total: 5, endCursor: "c2", startCursor: "c1"), "Notes", arguments.merging(Self.one) { a, _ in a })
        oracle.drainCommitted(synced: true)
        oracle.retain(token: 1, operation: "Count", variables: Self.one)
        let result = oracle.collect()
        let connection = "client:Character:1:__Notes_notes_connection"
        #expect(oracle.record(connection + ":edges:0") != nil && oracle.record(connection + ":edges:1") != nil)
        #expect(oracle.record(connection + ":pageInfo") != nil)
        #expect(result.swept.contains("Note:1") && result.swept.contains("Character:1:notes(first:2)"))
        let next: [String: JSONValue] = ["first": .int(2), "after": .string("c2")]
        try oracle.commit(F.notesPage("1", arguments: next, notes: ["3"], endCursor: "c3", startCursor: "c3"), "Notes", next.merging(Self.one) { a, _ in a })
        #expect(oracle.coverage.connectionAppends == 1)
        guard case .links(let edges)? = oracle.cell(connection, "edges") else { Issue.record("no edges"); return }
        #expect(edges.count == 3)
    }
}
