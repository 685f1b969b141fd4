import Baton
import Testing

/// A `@connection` read through `nodes`, as GitHub's schema invites (`commits(first:, after:) {
/// nodes { … } pageInfo { endCursor hasNextPage } }`). Before, such a plan was built and every
/// joining page replaced the connection's nodes; then it was refused; now its nodes join.
@MainActor
@Suite("Connections through nodes")
struct ConnectionNodesTests {
    let nodesOnly = try! StoreFixture.plan("""
    query N($first: Int, $after: String, $last: Int, $before: String) {
      character(id: "1") {
        id
        notes(first: $first, after: $after, last: $last, before: $before) @connection(key: "N_notes") {
          nodes { id text }
          pageInfo { endCursor startCursor hasNextPage hasPreviousPage }
        }
      }
    }
    """)

    let both = try! StoreFixture.plan("""
    query B($first: Int, $after: String) {
      character(id: "1") {
        id
        notes(first: $first, after: $after) @connection(key: "B_notes") {
          edges { cursor node { id } }
          nodes { id text }
          pageInfo { endCursor hasNextPage }
        }
      }
    }
    """)

    private func page(_ ids: [Int?], start: String?, end: String?, edges: Bool = false) -> String {
        let nodes = ids.map { id in id.map { #"{"id":"n\#($0)","text":"note \#($0)"}"# } ?? "null" }.joined(separator: ",")
        let edgeList = ids.compactMap { $0 }.map { #"{"cursor":"c\#($0)","node":{"id":"n\#($0)"}}"# }.joined(separator: ",")
        func cursor(_ c: String?) -> String { c.map { "\"\($0)\"" } ?? "null" }
        let edgesMember = edges ? #""edges":[\#(edgeList)],"# : ""
        return #"{"data":{"character":{"id":"1","notes":{\#(edgesMember)"nodes":[\#(nodes)],"pageInfo":{"endCursor":\#(cursor(end)),"startCursor":\#(cursor(start)),"hasNextPage":true,"hasPreviousPage":true}}}}}"#
    }

    private func list(_ store: Store, _ plan: Plan, _ member: String) throws -> [String?] {
        let read = store.read(plan, variables: try plan.variables(["first": .int(2)]))
        guard case .object(let data) = read.data, case .object(let character)? = data["character"],
              case .object(let connection)? = character["notes"], case .array(let items)? = connection[member] else {
            Issue.record("no \(member) read back: \(read.data)")
            return []
        }
        return items.map { item in
            guard case .object(let object) = item else { return nil }
            if case .object(let node)? = object["node"], case .string(let id)? = node["id"] { return id }
            if case .string(let id)? = object["id"] { return id }
            return nil
        }
    }

    /// A joining page after `c4` whose `nodes` failed: null, and the error that says so.
    static let failedNodesPage = #"""
        {"data":{"character":{"id":"1","notes":{"nodes":null,"pageInfo":{"endCursor":"c6","startCursor":"c5","hasNextPage":true,"hasPreviousPage":true}}}},
         "errors":[{"message":"nodes failed","path":["character","notes","nodes"]}]}
        """#

    @Test("a joining page whose nodes failed keeps the nodes held, and its error goes with them")
    func failedNodesKeepTheHeldOnes() throws {
        let store = Store()
        try StoreFixture.commit(store, nodesOnly, ["first": .int(2)], page([3, 4], start: "c3", end: "c4"))
        try StoreFixture.commit(store, nodesOnly, ["first": .int(2), "after": .string("c4")], Self.failedNodesPage)
        #expect(try list(store, nodesOnly, "nodes") == ["n3", "n4"])
        let read = store.read(nodesOnly, variables: try nodesOnly.variables(["first": .int(2)]))
        #expect(read.errors.map(\.error.message) == ["nodes failed"])
        #expect(read.errors.map(\.path) == [[.string("character"), .string("notes"), .string("nodes")]])
    }

    #if BATON_MUTANTS
    @Test("under failedNodesWipeJoined the failed page empties the connection's nodes")
    func failedNodesWipeJoinedMutant() throws {
        let store = Store(configuration: .init(mutant: .failedNodesWipeJoined))
        try StoreFixture.commit(store, nodesOnly, ["first": .int(2)], page([3, 4], start: "c3", end: "c4"))
        try StoreFixture.commit(store, nodesOnly, ["first": .int(2), "after": .string("c4")], Self.failedNodesPage)
        let read = store.read(nodesOnly, variables: try nodesOnly.variables(["first": .int(2)]))
        guard case .object(let data) = read.data, case .object(let character)? = data["character"],
              case .object(let connection)? = character["notes"] else {
            Issue.record("no connection read back")
            return
        }
        #expect(connection["nodes"] == .null)
    }
    #endif

    @Test("nodes join like edges: append after the end cursor, a repeated node and a null dropped, prepend, a stale cursor ignored, refresh")
    func joins() throws {
        let store = Store()
        try StoreFixture.commit(store, nodesOnly, ["first": .int(2)], page([3, 4], start: "c3", end: "c4"))
        #expect(try list(store, nodesOnly, "nodes") == ["n3", "n4"])

        try StoreFixture.commit(store, nodesOnly, ["first": .int(2), "after": .string("c4")], page([4, nil, 5], start: "c4", end: "c5"))
        #expect(try list(store, nodesOnly, "nodes") == ["n3", "n4", "n5"])
        #expect(store.check(nodesOnly, variables: try nodesOnly.variables(["first": .int(2), "after": .string("c4")])).isAvailable)

        try StoreFixture.commit(store, nodesOnly, ["last": .int(2), "before": .string("c3")], page([1, 2], start: "c1", end: "c2"))
        #expect(try list(store, nodesOnly, "nodes") == ["n1", "n2", "n3", "n4", "n5"])

        try StoreFixture.commit(store, nodesOnly, ["first": .int(2), "after": .string("stale")], page([8, 9], start: "c8", end: "c9"))
        #expect(try list(store, nodesOnly, "nodes") == ["n1", "n2", "n3", "n4", "n5"])

        try StoreFixture.commit(store, nodesOnly, ["first": .int(2)], page([7], start: "c7", end: "c7"))
        #expect(try list(store, nodesOnly, "nodes") == ["n7"])
    }

    @Test("a commit answers the pages that joined nothing, and only those")
    func pagesNotJoined() throws {
        let store = Store()
        func commit(_ variables: [String: JSONValue], _ json: String) throws -> [ConnectionPage] {
            store.commit(try StoreFixture.changeSet(nodesOnly, variables, json))
        }
        #expect(try commit(["first": .int(2), "after": .string("c2")], page([3], start: "c3", end: "c3")).map(\.mode) == [.append(after: "c2")])
        #expect(try commit(["first": .int(2)], page([1, 2], start: "c1", end: "c2")).isEmpty)
        #expect(try commit(["first": .int(2), "after": .string("c2")], page([3], start: "c3", end: "c3")).isEmpty)
        #expect(try commit(["last": .int(2), "before": .string("c9")], page([0], start: "c0", end: "c0")).map(\.mode) == [.prepend(before: "c9")])
        #expect(try list(store, nodesOnly, "nodes") == ["n1", "n2", "n3"])
    }

    @Test("a deleted node keeps its place and reads as null there")
    func deletedNode() throws {
        let store = Store()
        try StoreFixture.commit(store, nodesOnly, ["first": .int(2)], page([1, 2], start: "c1", end: "c2"))
        try StoreFixture.commit(store, nodesOnly, ["first": .int(2), "after": .string("c2")], page([3], start: "c3", end: "c3"))
        let delete = try StoreFixture.plan(#"mutation { deleteCharacter(id: "n2") { deletedId @deleteRecord(typename: "Note") } }"#)
        try StoreFixture.commit(store, delete, [:], #"{"data":{"deleteCharacter":{"deletedId":"n2"}}}"#)
        #expect(try list(store, nodesOnly, "nodes") == ["n1", nil, "n3"])
    }

    @Test("edges and nodes selected together both join")
    func edgesAndNodes() throws {
        let store = Store()
        try StoreFixture.commit(store, both, ["first": .int(2)], page([1, 2], start: "c1", end: "c2", edges: true))
        try StoreFixture.commit(store, both, ["first": .int(2), "after": .string("c2")], page([2, 3], start: "c2", end: "c3", edges: true))
        #expect(try list(store, both, "edges") == ["n1", "n2", "n3"])
        #expect(try list(store, both, "nodes") == ["n1", "n2", "n3"])
    }
}
