import Testing
import Baton

private typealias B = Build

/// `character(id: "1") { id notes(first: 2, after: $after, before: $before) @connection(key: "Notes") { … } }`
private let notesPlan = B.query(
    [
        B.object("character", "Character", arguments: [B.argument("id", .string("1"))], [
            B.leaf("id", .id),
            B.object(
                "notes", "NoteConnection",
                arguments: [B.argument("first", .int(2)), B.variable("after", "after"), B.variable("before", "before")],
                connection: ConnectionDirective(key: "Notes", filters: nil),
                [
                    B.object("edges", "NoteEdge", list: 1, [
                        B.leaf("cursor"), B.object("node", "Note", [B.leaf("id", .id), B.leaf("text")]),
                    ]),
                    B.object("pageInfo", "PageInfo", [B.leaf("endCursor"), B.leaf("hasNextPage", .boolean)]),
                ]),
        ]),
    ],
    name: "Notes",
    variables: [
        VariableDefinition(name: "after", type: .named("String"), defaultValue: nil),
        VariableDefinition(name: "before", type: .named("String"), defaultValue: nil),
    ])

private let page = #"""
    {"data":{"character":{"id":"1","notes":{"edges":[{"cursor":"c3","node":{"id":"n3","text":"Get Schwifty"}}],
      "pageInfo":{"endCursor":"c3","hasNextPage":true}}}}}
    """#

@Suite("Ingest: connections")
struct IngestConnectionTests {
    @Test func firstPageReplaces() throws {
        let changes = try ingest(notesPlan, page)
        let connection = try #require(changes.connectionPages.first)
        #expect(changes.connectionPages.count == 1)
        #expect(connection.parent == RecordKey("Character:1"))
        #expect(connection.connectionSlot == SlotID.named("__Notes_connection"))
        #expect(connection.connectionRecord == RecordKey("client:Character:1:__Notes_connection"))
        #expect(connection.serverRecord == RecordKey("Character:1:notes(first:2)"))
        #expect(connection.typename == "NoteConnection")
        #expect(connection.mode == .replace)
        // The page is also an ordinary server record.
        #expect(changes.value("Character:1", "notes(first:2)") == .link(RecordKey("Character:1:notes(first:2)")))
        #expect(changes.value("Character:1:notes(first:2):edges:0", "node") == .link(RecordKey("Note:n3")))
    }

    @Test func afterAppends() throws {
        let changes = try ingest(notesPlan, page, ["after": .string("c2")])
        #expect(changes.connectionPages.first?.mode == .append(after: "c2"))
        #expect(changes.connectionPages.first?.serverRecord == RecordKey(#"Character:1:notes(after:"c2",first:2)"#))
        #expect(changes.connectionPages.first?.connectionRecord == RecordKey("client:Character:1:__Notes_connection"))
    }

    @Test func beforePrepends() throws {
        let changes = try ingest(notesPlan, page, ["before": .string("c9")])
        #expect(changes.connectionPages.first?.mode == .prepend(before: "c9"))
    }

    @Test func nullCursorReplaces() throws {
        let changes = try ingest(notesPlan, page, ["after": .null])
        #expect(changes.connectionPages.first?.mode == .replace)
    }

    @Test func nullConnectionHasNoServerRecord() throws {
        let changes = try ingest(notesPlan, #"{"data":{"character":{"id":"1","notes":null}}}"#)
        #expect(changes.connectionPages.count == 1)
        #expect(changes.connectionPages.first?.serverRecord == nil)
        #expect(changes.connectionPages.first?.typename == "NoteConnection")
    }

    @Test func filtersNameTheConnection() throws {
        let plan = B.query([
            B.object(
                "search", "ResultConnection",
                arguments: [B.argument("first", .int(5)), B.argument("query", .string("rick")), B.argument("sort", .string("NAME"))],
                connection: ConnectionDirective(key: "Search", filters: ["query"]),
                [B.leaf("count", .int)]),
        ])
        let changes = try ingest(plan, #"{"data":{"search":{"count":3}}}"#)
        #expect(changes.connectionPages.first?.connectionSlot == SlotID.named(#"__Search_connection(query:"rick")"#))
        #expect(changes.connectionPages.first?.connectionRecord == RecordKey(#"client:root:__Search_connection(query:"rick")"#))
        #expect(changes.connectionPages.first?.parent == RecordKey.queryRoot)
    }

    @Test func pagesComeInResponseOrder() throws {
        let plan = B.query([
            B.object("character", "Character", [
                B.object("first", "NoteConnection", name: "notes", arguments: [B.argument("first", .int(1))],
                         connection: ConnectionDirective(key: "A", filters: nil), [B.leaf("count", .int)]),
                B.leaf("id", .id),
                B.object("second", "NoteConnection", name: "notes", arguments: [B.argument("last", .int(1))],
                         connection: ConnectionDirective(key: "B", filters: nil), [B.leaf("count", .int)]),
            ]),
        ])
        // `first` comes before the id, so it waits; `second` must still follow it.
        let changes = try ingest(plan, #"{"data":{"character":{"first":{"count":1},"id":"1","second":{"count":2}}}}"#)
        #expect(changes.connectionPages.map(\.connectionSlot.name) == ["__A_connection", "__B_connection"])
        #expect(changes.connectionPages.map(\.parent) == [RecordKey("Character:1"), RecordKey("Character:1")])
    }
}

@Suite("Ingest: deletions")
struct IngestDeletionTests {
    @Test func deleteRecordWithATypename() throws {
        let plan = B.mutation([
            B.object("removeNote", "RemoveNotePayload", [
                B.leaf("removedNoteId", .id, deleteRecord: DeleteRecordDirective(typename: "Note")),
            ]),
        ])
        let changes = try ingest(plan, #"{"data":{"removeNote":{"removedNoteId":"n2"}}}"#)
        #expect(changes.deletions == [RecordKey("Note:n2")])
        #expect(changes.value("client:root:mutation:removeNote", "removedNoteId") == .string("n2"))
    }

    @Test func deleteRecordWithoutATypenameUsesTheKey() throws {
        let plan = B.mutation([
            B.object("removeNotes", "Payload", [
                B.leaf("ids", .id, list: 1, deleteRecord: DeleteRecordDirective(typename: nil)),
            ]),
        ])
        let changes = try ingest(plan, #"{"data":{"removeNotes":{"ids":["Note:1",null,"Note:2",7]}}}"#)
        #expect(changes.deletions == [RecordKey("Note:1"), RecordKey("Note:2"), RecordKey("7")])
    }

    @Test func nullDeletesNothing() throws {
        let plan = B.mutation([
            B.object("removeNote", "Payload", [B.leaf("removedNoteId", .id, deleteRecord: DeleteRecordDirective(typename: "Note"))]),
        ])
        let changes = try ingest(plan, #"{"data":{"removeNote":{"removedNoteId":null}}}"#)
        #expect(changes.deletions.isEmpty)
    }

    @Test func deleteRecordOnTheIDItself() throws {
        let plan = B.mutation([
            B.object("removed", "Note", [B.leaf("id", .id, deleteRecord: DeleteRecordDirective(typename: "Note"))]),
        ])
        let changes = try ingest(plan, #"{"data":{"removed":{"id":"n4"}}}"#)
        #expect(changes.deletions == [RecordKey("Note:n4")])
    }
}

@Suite("Ingest: hostile input")
struct IngestFuzzTests {
    private let response = Array(#"""
        {"errors":[{"message":"e","path":["character","episodes",0,"name"],"extensions":{"x":[1,{"y":null}]}}],
         "data":{"character":{"episodes":[{"id":"e1","name":null,"air":[1,2.5]},null],"id":"1","name":"Rick\u00e9",
           "origin":{"id":7,"name":"Earth"},"tags":["a","b"],"meta":{"k":[true,false]}}},"extensions":{}}
        """#.utf8)

    private let plan = B.query([
        B.object("character", "Character", [
            B.leaf("id", .id), B.leaf("name"), B.leaf("tags", list: 1), B.leaf("meta", .customScalar),
            B.object("origin", "Location", [B.leaf("id", .id), B.leaf("name")]),
            B.object("episodes", "Episode", list: 1, [B.leaf("id", .id), B.leaf("name"), B.leaf("air", .float, list: 1)]),
        ]),
    ])

    private func attempt(_ bytes: [UInt8]) -> Bool {
        (try? Ingest.normalize(plan: plan, variables: try plan.variables(), response: bytes)) != nil
    }

    @Test func theValidResponseNormalizes() throws {
        let changes = try Ingest.normalize(plan: plan, variables: try plan.variables(), response: response)
        #expect(changes.keys == ["client:root", "Character:1", "Episode:e1", "Location:7"])
        #expect(changes.cell("Episode:e1", "name")?.errors.first?.message == "e")
    }

    @Test func everyTruncationThrows() {
        for length in 0..<response.count {
            #expect(!attempt(Array(response[..<length])), "a truncation to \(length) bytes normalized")
        }
    }

    @Test func randomMutationsNeverTrap() {
        var random = SeededGenerator(seed: 42)
        let bytes: [UInt8] = Array(#"{}[]",:0123456789-.e truefalsnul\"#.utf8) + [0x00, 0xFF, 0xC3]
        for _ in 0..<4000 {
            var mutated = response
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let at = Int.random(in: 0..<mutated.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: mutated[at] = bytes.randomElement(using: &random)!
                case 1: mutated.remove(at: at)
                default: mutated.insert(bytes.randomElement(using: &random)!, at: at)
                }
            }
            _ = attempt(mutated)
        }
    }

    @Test func randomBytesNeverTrap() {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<3000 {
            let length = Int.random(in: 0..<64, using: &random)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            if Bool.random(using: &random) { bytes = Array(#"{"data":"#.utf8) + bytes }
            _ = attempt(bytes)
        }
    }

    @Test func deepDataErrorsInsteadOfOverflowing() {
        let deep = #"{"data":{"character":{"id":"1","meta":"# + String(repeating: "[", count: 100_000)
        #expect(!attempt(Array(deep.utf8)))
        let deepSkip = #"{"data":{"character":{"id":"1","other":"# + String(repeating: #"{"a":"#, count: 100_000)
        #expect(!attempt(Array(deepSkip.utf8)))
    }
}
