import Baton
import BatonSim
import Testing

@Suite("Oracle: connections (Relay's semantics)")
struct OracleConnectionTests {
    typealias F = OracleFixture
    static let connection = "client:Character:1:__Notes_notes_connection"

    static func page(_ arguments: [String: JSONValue], _ notes: [String?], end: String?, start: String?, hasNext: Bool = true, hasPrevious: Bool = false) -> Execution {
        F.notesPage("1", arguments: arguments, notes: notes, endCursor: end, startCursor: start, hasNext: hasNext, hasPrevious: hasPrevious)
    }

    static func variables(_ arguments: [String: JSONValue]) -> [String: JSONValue] {
        arguments.merging(["id": .string("1")]) { a, _ in a }
    }

    /// The nodes of the connection's edges, in order (nil for an edge memory lacks).
    static func nodes(_ oracle: Oracle) -> [String?] {
        guard case .links(let edges)? = oracle.cell(connection, "edges") else { return [] }
        return edges.map { edge in edge.flatMap { oracle.cell($0.string, "node")?.linkTarget?.string } }
    }

    static func edges(_ oracle: Oracle) -> [String] {
        guard case .links(let edges)? = oracle.cell(connection, "edges") else { return [] }
        return edges.map { $0?.string.replacingOccurrences(of: connection + ":", with: "") ?? "null" }
    }

    static func info(_ oracle: Oracle, _ slot: String) -> OracleValue? {
        oracle.cell(connection + ":pageInfo", slot)
    }

    static func commit(_ oracle: inout Oracle, _ arguments: [String: JSONValue], _ notes: [String?], end: String?, start: String?, hasNext: Bool = true, hasPrevious: Bool = false) throws {
        try oracle.commit(Self.page(arguments, notes, end: end, start: start, hasNext: hasNext, hasPrevious: hasPrevious), "Notes", Self.variables(arguments))
    }

    @Test("first page, append with a repeated node, stale cursor, prepend, empty last page, append again, refresh")
    func sequence() throws {
        var oracle = try F.oracle()
        try Self.commit(&oracle, ["first": .int(2)], ["1", "2"], end: "c2", start: "c1")
        #expect(oracle.cell("Character:1", "__Notes_notes_connection") == .link(OracleText(Self.connection)))
        #expect(Self.edges(oracle) == ["edges:0", "edges:1"])
        #expect(Self.nodes(oracle) == ["Note:1", "Note:2"])
        #expect(Self.info(oracle, "endCursor") == .string("c2"))
        // The server's page is an ordinary record by path, with its own edges.
        #expect(oracle.cell("Character:1", "notes(first:2)") == .link("Character:1:notes(first:2)"))
        #expect(oracle.cell("Character:1:notes(first:2)", "edges") == .links(["Character:1:notes(first:2):edges:0", "Character:1:notes(first:2):edges:1"]))
        #expect(oracle.coverage.connectionFirstPages == 1)

        try Self.commit(&oracle, ["first": .int(3), "after": .string("c2")], ["3", "2", "4"], end: "c4", start: "c3", hasNext: true)
        #expect(Self.edges(oracle) == ["edges:0", "edges:1", "edges:2", "edges:4"])
        #expect(Self.nodes(oracle) == ["Note:1", "Note:2", "Note:3", "Note:4"])
        #expect(oracle.record(Self.connection + ":edges:3") != nil)  // the dropped copy was made, then left out
        #expect(Self.info(oracle, "endCursor") == .string("c4") && Self.info(oracle, "startCursor") == .string("c1"))
        #expect(oracle.coverage.connectionAppends == 1 && oracle.coverage.deduplicatedEdges == 1)

        try Self.commit(&oracle, ["first": .int(1), "after": .string("c2")], ["9"], end: "c9", start: "c9")
        #expect(Self.nodes(oracle) == ["Note:1", "Note:2", "Note:3", "Note:4"])
        #expect(oracle.coverage.connectionIgnoredPages == 1)

        try Self.commit(&oracle, ["last": .int(1), "before": .string("c1")], ["0"], end: "c0", start: "c0", hasNext: false, hasPrevious: false)
        #expect(Self.edges(oracle) == ["edges:5", "edges:0", "edges:1", "edges:2", "edges:4"])
        #expect(Self.info(oracle, "startCursor") == .string("c0") && Self.info(oracle, "endCursor") == .string("c4"))
        #expect(Self.info(oracle, "hasPreviousPage") == .bool(false) && Self.info(oracle, "hasNextPage") == .bool(true))
        #expect(oracle.coverage.connectionPrepends == 1)

        try Self.commit(&oracle, ["first": .int(2), "after": .string("c4")], [], end: nil, start: nil, hasNext: false)
        #expect(Self.info(oracle, "endCursor") == .string("c4"))  // a null cursor never overwrites the stored one
        #expect(Self.info(oracle, "hasNextPage") == .bool(false))
        try Self.commit(&oracle, ["first": .int(2), "after": .string("c4")], ["5"], end: "c5", start: "c5")
        #expect(Self.nodes(oracle).last == "Note:5")

        try Self.commit(&oracle, ["first": .int(1)], ["7", nil], end: "c7", start: "c7", hasNext: true)
        #expect(Self.edges(oracle) == ["edges:0"])  // a refresh numbers from 0; the null edge is dropped
        #expect(Self.nodes(oracle) == ["Note:7"])
        #expect(Self.info(oracle, "startCursor") == .string("c7") && Self.info(oracle, "hasNextPage") == .bool(true))
        #expect(oracle.coverage.connectionRefreshes == 1)
    }

    @Test("a cursor page joins only a connection memory holds with its page info")
    func joinsOnlyWhenHeld() throws {
        var oracle = try F.oracle()
        try Self.commit(&oracle, ["first": .int(2), "after": .string("c2")], ["3"], end: "c3", start: "c3")
        #expect(oracle.record(Self.connection) == nil)
        #expect(oracle.coverage.connectionIgnoredPages == 1)
        // The server's page is still stored as an ordinary record.
        #expect(oracle.record(#"Character:1:notes(after:"c2",first:2)"#) != nil)
    }

    @Test("a failed edge's error goes with the joined edges, about no element: joins keep it, a refresh replaces it")
    func failedEdgeErrors() throws {
        var oracle = try F.oracle()
        func page(_ arguments: [String: JSONValue], _ edges: String, _ errors: String) throws {
            let text = #"{"data":{"character":{"id":"1","notes":{"totalCount":5,"edges":[\#(edges)],"pageInfo":{"endCursor":"c9","startCursor":"c8","hasNextPage":true,"hasPreviousPage":false}}}},"errors":[\#(errors)]}"#
            let response = try F.text(text.replacingOccurrences(of: #","errors":[]"#, with: ""), "Notes", Self.variables(arguments))
            _ = oracle.serverCommit(response, operation: "Notes", variables: Self.variables(arguments), now: 0, answering: nil)
        }
        let edge = #"{"cursor":"c1","node":{"id":"1","text":"a"}}"#
        try page(["first": .int(2)], edge + ",null", #"{"message":"lost","path":["character","notes","edges",1,"cursor"]}"#)
        let held = try #require(oracle.record(Self.connection)?.cells["edges"])
        #expect(held.errors == [OracleFieldError(message: "lost", path: "character.notes.edges.1.cursor", elementIndices: [])])
        #expect(oracle.record("Character:1:notes(first:2)")?.cells["edges"]?.errors.map(\.elementIndices) == [[1]])
        try page(["first": .int(2), "after": .string("c9")], "null", #"{"message":"again","path":["character","notes","edges",0,"cursor"]}"#)
        #expect(oracle.record(Self.connection)?.cells["edges"]?.errors.map(\.message.string) == ["lost", "again"])
        try page(["first": .int(2)], edge, "")
        #expect(oracle.record(Self.connection)?.cells["edges"]?.errors.isEmpty == true)
    }

    @Test("a null connection field sets the parent's connection slot to null")
    func nullPage() throws {
        var oracle = try F.oracle()
        let character = F.object("Character", id: "1", [
            F.field("id", F.string("1")),
            F.field("notes", .null, arguments: ["first": .int(2)], directives: [F.directive("connection", ["key": .string("Notes_notes")])]),
        ])
        try oracle.commit(Execution(responseText: [], data: F.object("Query", [F.field("character", .object(character), arguments: ["id": .string("1")])])), "Notes", Self.variables(["first": .int(2)]))
        #expect(oracle.cell("Character:1", "__Notes_notes_connection") == OracleValue.null)
        #expect(oracle.cell("Character:1", "notes(first:2)") == OracleValue.null)
    }

    @Test("a connection on the query root with filters: one client record per filter value, no double prefix")
    func rootConnection() throws {
        var oracle = try F.oracle()
        let text = #"{"data":{"feed":{"edges":[{"cursor":"a","node":{"id":"1","text":"x"}}],"pageInfo":{"endCursor":"a","hasNextPage":true}}}}"#
        let response = try F.text(text, "Feed", ["kind": .string("news"), "first": .int(1)])
        oracle.serverCommit(response, operation: "Feed", variables: ["kind": .string("news"), "first": .int(1)], now: 0, answering: nil)
        #expect(oracle.cell("client:root", #"__Feed_connection(kind:"news")"#) == .link(#"client:root:__Feed_connection(kind:"news")"#))
        #expect(oracle.cell(#"client:root:__Feed_connection(kind:"news"):edges:0"#, "cursor") == .string("a"))
        let read = oracle.expectedRead(operation: "Feed", variables: ["kind": .string("news"), "first": .int(1)])
        #expect(read.isComplete)
        #expect(read.data == .object(["feed": .object([
            "edges": .array([.object(["cursor": .string("a"), "node": .object(["id": .string("1"), "text": .string("x")])])]),
            "pageInfo": .object(["endCursor": .string("a"), "hasNextPage": .bool(true)]),
        ])]))
    }
}
