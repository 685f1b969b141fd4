import Baton
import Testing

@MainActor
@Suite("Connections")
struct ConnectionTests {
    let notes = try! StoreFixture.plan("""
    query N($first: Int, $after: String, $last: Int, $before: String) {
      character(id: "1") {
        id
        notes(first: $first, after: $after, last: $last, before: $before) @connection(key: "N_notes") {
          totalCount
          edges { cursor node { id text } }
          pageInfo { endCursor startCursor hasNextPage hasPreviousPage }
        }
      }
    }
    """)

    private func page(_ ids: [Int?], start: String?, end: String?, next: Bool, previous: Bool) -> String {
        let edges = ids.map { id -> String in
            guard let id else { return "null" }
            return #"{"cursor":"c\#(id)","node":{"id":"n\#(id)","text":"note \#(id)"}}"#
        }.joined(separator: ",")
        func cursor(_ c: String?) -> String { c.map { "\"\($0)\"" } ?? "null" }
        return #"{"data":{"character":{"id":"1","notes":{"totalCount":9,"edges":[\#(edges)],"pageInfo":{"endCursor":\#(cursor(end)),"startCursor":\#(cursor(start)),"hasNextPage":\#(next),"hasPreviousPage":\#(previous)}}}}}"#
    }

    private func nodeIDs(_ store: Store) throws -> [String] {
        let read = store.read(notes, variables: try notes.variables(["first": .int(2)]))
        guard case .object(let data) = read.data, case .object(let character)? = data["character"],
              case .object(let connection)? = character["notes"], case .array(let edges)? = connection["edges"] else {
            Issue.record("no connection read back: \(read.data)")
            return []
        }
        return edges.compactMap { edge in
            guard case .object(let e) = edge, case .object(let node)? = e["node"], case .string(let id)? = node["id"] else { return nil }
            return id
        }
    }

    private func pageInfo(_ store: Store, _ field: String) throws -> JSONValue? {
        let read = store.read(notes, variables: try notes.variables(["first": .int(2)]))
        guard case .object(let data) = read.data, case .object(let character)? = data["character"],
              case .object(let connection)? = character["notes"], case .object(let info)? = connection["pageInfo"] else { return nil }
        return info[field]
    }

    @Test("first page, append after the end cursor, a duplicate node skipped, prepend, refresh, stale cursor")
    func pagination() throws {
        let store = Store()
        try StoreFixture.commit(store, notes, ["first": .int(2)], page([3, 4, nil], start: "c3", end: "c4", next: true, previous: true))
        #expect(try nodeIDs(store) == ["n3", "n4"])
        #expect(store.check(notes, variables: try notes.variables(["first": .int(2)])).isAvailable)

        try StoreFixture.commit(store, notes, ["first": .int(2), "after": .string("c4")], page([4, 5], start: "c4", end: "c5", next: false, previous: true))
        #expect(try nodeIDs(store) == ["n3", "n4", "n5"])
        #expect(try pageInfo(store, "endCursor") == .string("c5"))
        #expect(try pageInfo(store, "hasNextPage") == .bool(false))
        #expect(try pageInfo(store, "startCursor") == .string("c3"))

        try StoreFixture.commit(store, notes, ["last": .int(2), "before": .string("c3")], page([1, 2], start: "c1", end: "c2", next: true, previous: false))
        #expect(try nodeIDs(store) == ["n1", "n2", "n3", "n4", "n5"])
        #expect(try pageInfo(store, "startCursor") == .string("c1"))
        #expect(try pageInfo(store, "endCursor") == .string("c5"))

        let before = store.recordSource()
        try StoreFixture.commit(store, notes, ["first": .int(2), "after": .string("c-stale")], page([8, 9], start: "c8", end: "c9", next: false, previous: true))
        #expect(try nodeIDs(store) == ["n1", "n2", "n3", "n4", "n5"])
        #expect(try pageInfo(store, "endCursor") == .string("c5"))
        _ = before

        try StoreFixture.commit(store, notes, ["first": .int(2)], page([7], start: "c7", end: "c7", next: true, previous: true))
        #expect(try nodeIDs(store) == ["n7"])
        #expect(try pageInfo(store, "endCursor") == .string("c7"))
    }

    static let failedNotes = #"""
        {"data":{"character":{"id":"1","notes":null}},
         "errors":[{"message":"notes failed","path":["character","notes"]},{"message":"info failed","path":["character","notes","pageInfo"]}]}
        """#

    @Test("a connection that failed reads back null with its errors; the next page that answers clears them")
    func failedConnectionReadsBackItsErrors() throws {
        let store = Store()
        let variables = try notes.variables(["first": .int(2)])
        try StoreFixture.commit(store, notes, ["first": .int(2)], Self.failedNotes)
        let failed = store.read(notes, variables: variables)
        #expect(failed.errors.map(\.error.message) == ["notes failed", "info failed"])
        #expect(failed.errors.map(\.path) == Array(repeating: [JSONValue.string("character"), .string("notes")], count: 2))
        try StoreFixture.commit(store, notes, ["first": .int(2)], page([3], start: "c3", end: "c3", next: false, previous: false))
        #expect(try nodeIDs(store) == ["n3"])
        #expect(store.read(notes, variables: variables).errors.isEmpty)
    }

    /// A page whose edge `failing` lost its non-null cursor: the edge is null, and the error says why.
    private func pageWithFailedEdge(_ ids: [Int?], failing: Int, start: String, end: String, next: Bool, previous: Bool) -> String {
        let body = page(ids, start: start, end: end, next: next, previous: previous).dropLast()
        return body + #","errors":[{"message":"cursor \#(failing) failed","path":["character","notes","edges",\#(failing),"cursor"]}]}"#
    }

    @Test("an edge that failed is left out of the joined edges, and its error reads back at them; joins keep it, a refresh clears it")
    func failedEdgesKeepTheirErrors() throws {
        let store = Store()
        let variables = try notes.variables(["first": .int(2)])
        func errors() -> [String] { store.read(notes, variables: variables).errors.map(\.error.message) }
        try StoreFixture.commit(store, notes, ["first": .int(2)], pageWithFailedEdge([1, nil], failing: 1, start: "c1", end: "c1", next: true, previous: false))
        #expect(try nodeIDs(store) == ["n1"])
        let read = store.read(notes, variables: variables)
        #expect(read.errors.map(\.path) == [[.string("character"), .string("notes"), .string("edges")]])
        try StoreFixture.commit(
            store, notes, ["first": .int(2), "after": .string("c1")],
            pageWithFailedEdge([nil, 4], failing: 0, start: "c4", end: "c4", next: false, previous: true))
        #expect(try nodeIDs(store) == ["n1", "n4"])
        #expect(errors() == ["cursor 1 failed", "cursor 0 failed"])
        try StoreFixture.commit(store, notes, ["first": .int(2), "after": .string("c4")], page([], start: nil, end: nil, next: false, previous: true))
        #expect(errors() == ["cursor 1 failed", "cursor 0 failed"])
        try StoreFixture.commit(store, notes, ["first": .int(2)], page([7], start: "c7", end: "c7", next: true, previous: false))
        #expect(try nodeIDs(store) == ["n7"])
        #expect(errors().isEmpty)
    }

    #if BATON_MUTANTS
    @Test("under joinedListErrorsDropped a failed edge leaves the connection without a trace")
    func joinedListErrorsDroppedMutant() throws {
        let store = Store(configuration: .init(mutant: .joinedListErrorsDropped))
        try StoreFixture.commit(store, notes, ["first": .int(2)], pageWithFailedEdge([1, nil], failing: 1, start: "c1", end: "c1", next: true, previous: false))
        #expect(try nodeIDs(store) == ["n1"])
        #expect(store.read(notes, variables: try notes.variables(["first": .int(2)])).errors.isEmpty)
    }
    #endif

    #if BATON_MUTANTS
    @Test("under connectionErrorsUnread the failed connection reads back as a plain null")
    func connectionErrorsUnreadMutant() throws {
        let store = Store()
        let variables = try notes.variables(["first": .int(2)])
        store.commit(try Ingest.normalize(
            plan: notes, variables: variables, response: Array(Self.failedNotes.utf8), mutant: .connectionErrorsUnread))
        #expect(store.read(notes, variables: variables).errors.isEmpty)
    }
    #endif

    @Test("an empty last page's null cursor keeps the stored one, so the next page still joins (in both directions)")
    func nullCursorKept() throws {
        try expectNullCursorKept(in: Store())
    }

    #if BATON_MUTANTS
    @Test("under the nullCursorOverwrites mutant the stored cursor is lost")
    func nullCursorMutant() throws {
        let store = Store(configuration: .init(collectsAutomatically: false, mutant: .nullCursorOverwrites))
        try StoreFixture.commit(store, notes, ["first": .int(2)], page([3, 4], start: "c3", end: "c4", next: true, previous: true))
        try StoreFixture.commit(store, notes, ["first": .int(2), "after": .string("c4")], page([], start: nil, end: nil, next: false, previous: true))
        #expect(try pageInfo(store, "endCursor") == .null)
    }
    #endif

    private func expectNullCursorKept(in store: Store) throws {
        try StoreFixture.commit(store, notes, ["first": .int(2)], page([3, 4], start: "c3", end: "c4", next: true, previous: true))
        // The server has nothing after c4 yet: an empty page with null cursors.
        try StoreFixture.commit(store, notes, ["first": .int(2), "after": .string("c4")], page([], start: nil, end: nil, next: false, previous: true))
        #expect(try pageInfo(store, "endCursor") == .string("c4"))
        #expect(try pageInfo(store, "hasNextPage") == .bool(false))
        // A note arrives; the next page after the stored cursor joins.
        try StoreFixture.commit(store, notes, ["first": .int(2), "after": .string("c4")], page([5], start: "c5", end: "c5", next: false, previous: true))
        #expect(try nodeIDs(store) == ["n3", "n4", "n5"])
        #expect(try pageInfo(store, "endCursor") == .string("c5"))
        // The same backwards: an empty page before c3 keeps the start cursor.
        try StoreFixture.commit(store, notes, ["last": .int(2), "before": .string("c3")], page([], start: nil, end: nil, next: true, previous: false))
        #expect(try pageInfo(store, "startCursor") == .string("c3"))
        #expect(try pageInfo(store, "hasPreviousPage") == .bool(false))
        try StoreFixture.commit(store, notes, ["last": .int(2), "before": .string("c3")], page([2], start: "c2", end: "c2", next: true, previous: false))
        #expect(try nodeIDs(store) == ["n2", "n3", "n4", "n5"])
        // A refresh takes the page's info as it is, nulls included.
        try StoreFixture.commit(store, notes, ["first": .int(2)], page([], start: nil, end: nil, next: false, previous: false))
        #expect(try pageInfo(store, "endCursor") == .null)
    }

    @Test("the check is missing when the connection's client record is absent although the server field is present")
    func clientRecordAbsent() throws {
        let store = Store()
        try StoreFixture.commit(store, notes, ["first": .int(2)], page([1], start: "c1", end: "c1", next: false, previous: false))
        #expect(store.check(notes, variables: try notes.variables(["first": .int(2)])).isAvailable)
        // The same server field, written by an operation without @connection: no client record.
        let plain = try StoreFixture.plan("""
        query P($first: Int) { character(id: "2") { id notes(first: $first) { totalCount edges { cursor node { id text } } pageInfo { endCursor startCursor hasNextPage hasPreviousPage } } } }
        """)
        try StoreFixture.commit(store, plain, ["first": .int(2)], page([1], start: "c1", end: "c1", next: false, previous: false).replacingOccurrences(of: #""id":"1","notes""#, with: #""id":"2","notes""#))
        #expect(store.data(of: RecordKey("Character:2"))?.cells[SlotID.named("notes(first:2)")] != nil)
        let other = try StoreFixture.plan("""
        query N2($first: Int) { character(id: "2") { id notes(first: $first) @connection(key: "N_notes") { totalCount edges { cursor node { id text } } pageInfo { endCursor startCursor hasNextPage hasPreviousPage } } } }
        """)
        #expect(store.check(other, variables: try other.variables(["first": .int(2)])) == .missing)
    }

    @Test("a connection whose filter value reads like a key's tail (`is_connection:true`) keeps its edges when collection keeps it")
    func filterValueLikeAKeyTail() throws {
        let schema = try Schema.parse("""
            type Query { search(query: String, first: Int, after: String): NoteConnection }
            type NoteConnection { totalCount: Int, edges: [NoteEdge], pageInfo: PageInfo! }
            type NoteEdge { cursor: String!, node: Note }
            type Note { id: ID!, text: String }
            type PageInfo { endCursor: String, hasNextPage: Boolean! }
            """)
        let feed = try Plan.build(document: """
            query Feed($q: String, $after: String) {
              search(query: $q, first: 2, after: $after) @connection(key: "S_search", filters: ["query"]) {
                totalCount edges { cursor node { id text } } pageInfo { endCursor hasNextPage }
              }
            }
            """, schema: schema)
        // A header that shows the count alone: it keeps the connection, not its edges, by its walk.
        let count = try Plan.build(document: """
            query Count($q: String, $all: Boolean = false) {
              search(query: $q, first: 2) @connection(key: "S_search", filters: ["query"]) { totalCount edges @include(if: $all) { node { id } } }
            }
            """, schema: schema)
        let query = JSONValue.string("is_connection:true")
        func page(_ ids: [Int], end: String) -> String {
            let edges = ids.map { #"{"cursor":"c\#($0)","node":{"id":"\#($0)","text":"note \#($0)"}}"# }.joined(separator: ",")
            return #"{"data":{"search":{"totalCount":3,"edges":[\#(edges)],"pageInfo":{"endCursor":"\#(end)","hasNextPage":true}}}}"#
        }
        let store = Store(configuration: .init(collectsAutomatically: false))
        store.commit(try Ingest.normalize(plan: feed, variables: try feed.variables(["q": query]), response: Array(page([1, 2], end: "c2").utf8)))
        let token = store.retain(count, variables: try count.variables(["q": query]))
        defer { store.release(token) }
        store.collect()
        let connection = #"client:root:__S_search_connection(query:"is_connection:true")"#
        #expect(store.record(RecordKey(connection + ":edges:0")) != nil, "collection swept the kept connection's edges")
        #expect(store.record(RecordKey(connection + ":pageInfo")) != nil)
        // The next page still meets the whole connection and joins it.
        store.commit(try Ingest.normalize(
            plan: feed, variables: try feed.variables(["q": query, "after": .string("c2")]), response: Array(page([3], end: "c3").utf8)))
        let read = store.read(feed, variables: try feed.variables(["q": query]))
        guard case .object(let data) = read.data, case .object(let search)? = data["search"], case .array(let edges)? = search["edges"] else {
            Issue.record("no connection read back: \(read.data)")
            return
        }
        #expect(edges.count == 3)
    }
}
