import Baton
import Testing

/// Entities met again with the same text: ingest skips an object whose whole text is the text
/// that last wrote its record (same selection, nothing written to the record in between). These
/// tests hold the cases where skipping would be wrong.
private let sdl = """
    type Query { people: [Person], other: [Person], hero: Person }
    type Mutation { purge: [Gone] }
    type Person { id: ID!, name: String!, status: String, tags: [String!], friend: Person }
    type Gone { id: ID! }
    """

private let schema: Schema = {
    do { return try Schema.parse(sdl) } catch { fatalError("bad repeated-object schema: \(error)") }
}()

private func plan(_ document: String) -> Plan {
    do { return try Plan.build(document: document, schema: schema) } catch { fatalError("bad plan: \(error)") }
}

private func normalize(_ json: String, _ plan: Plan) throws -> ChangeSet {
    try Ingest.normalize(plan: plan, variables: try plan.variables([:]), response: Array(json.utf8))
}

@Suite("Ingest: an entity met again with the same text")
struct IngestRepeatedObjectTests {
    @Test("a repeat after another text wrote the record writes its own values again")
    func repeatAfterAnotherText() throws {
        let people = plan("{ people { id name status } }")
        let changes = try normalize(#"""
            {"data":{"people":[{"id":"1","name":"A","status":"s"},{"id":"1","name":"B","status":"t"},{"id":"1","name":"A","status":"s"}]}}
            """#, people)
        #expect(changes.value("Person:1", "name") == .string("A"))
        #expect(changes.value("Person:1", "status") == .string("s"))
    }

    @Test("a repeat after a text that wrote only some of its fields writes them again")
    func repeatAfterAPartialText() throws {
        let people = plan("{ people { id name status } }")
        let changes = try normalize(#"""
            {"data":{"people":[{"id":"1","name":"A","status":"s"},{"id":"1","status":"t"},{"id":"1","name":"A","status":"s"}]}}
            """#, people)
        #expect(changes.value("Person:1", "status") == .string("s"))
    }

    @Test("a repeat after another selection wrote the record writes its own values again")
    func repeatAfterAnotherSelection() throws {
        // Person 9 as a friend (the leaf shape), then as an item of the list (another shape, which
        // writes its name), then as a friend again with the first text.
        let friends = plan("{ people { id name friend { id name } } }")
        let changes = try normalize(#"""
            {"data":{"people":[{"id":"1","name":"P","friend":{"id":"9","name":"A"}},
            {"id":"9","name":"B","friend":null},
            {"id":"2","name":"Q","friend":{"id":"9","name":"A"}}]}}
            """#, friends)
        #expect(changes.value("Person:9", "name") == .string("A"))
        #expect(changes.value("Person:9", "friend") == .null)
    }

    @Test("a repeated object holding a propagated null is propagated at each place")
    func repeatedNull() throws {
        // The null stops at the object's own nullable list (the object itself completes), or at
        // the list item when the object has no nullable place above it.
        let tags = plan("{ people { id tags } }")
        let inside = try normalize(#"""
            {"data":{"people":[{"id":"1","tags":["a",null]},{"id":"1","tags":["a",null]}]},
            "errors":[{"message":"x","path":["people",0,"tags",1]},{"message":"y","path":["people",1,"tags",1]}]}
            """#, tags)
        #expect(inside.value("Person:1", "tags") == .null)
        let names = plan("{ people { id name } }")
        let item = try normalize(#"""
            {"data":{"people":[{"id":"1","name":null},{"id":"1","name":null}]},
            "errors":[{"message":"x","path":["people",0,"name"]},{"message":"y","path":["people",1,"name"]}]}
            """#, names)
        #expect(item.value("client:root", "people") == .links([nil, nil]))
        #expect(item.record("Person:1") == nil)
    }

    @Test("a repeated object with @deleteRecord names its record each time")
    func repeatedDeletion() throws {
        let purge = plan(#"mutation { purge { id @deleteRecord(typename: "Person") } }"#)
        let changes = try normalize(#"{"data":{"purge":[{"id":"1"},{"id":"1"}]}}"#, purge)
        #expect(changes.deletions == [RecordKey("Person:1"), RecordKey("Person:1")])
    }

    @Test("the same text under one list, again and again, gives the record once with its values")
    func sameTextManyTimes() throws {
        let people = plan("{ people { id name status } }")
        let item = #"{"id":"7","name":"Ann \u00e9","status":null}"#
        let json = #"{"data":{"people":["# + Array(repeating: item, count: 5).joined(separator: ",") + "]}}"
        let changes = try normalize(json, people)
        #expect(changes.keys == ["client:root", "Person:7"])
        #expect(changes.value("Person:7", "name") == .string("Ann é"))
        #expect(changes.value("Person:7", "status") == .null)
        #expect(changes.value("client:root", "people") == .links(Array(repeating: RecordKey("Person:7"), count: 5)))
    }
}
