import Baton
import Testing

private typealias B = Build

/// `character { id name meta }`, `meta` a JSON custom scalar.
private let plan = B.query([
    B.object("character", "Character", [B.leaf("id", .id), B.leaf("name"), B.leaf("meta", .customScalar)]),
])

/// `é` precomposed, then `e` and a combining acute accent: equal to Swift's `==`, two names to JSON.
private let composed = #"caf\u00e9"#
private let decomposed = #"cafe\u0301"#

/// JSON compares member names by their bytes (RFC 8259 §8.3), so names that differ only in their
/// Unicode normalization are two members. Ingest keeps both, in an error's `extensions` and in a
/// custom scalar's object, in canonical order (by UTF-8 bytes: the decomposed `e` first).
@MainActor
@Suite("Ingest: member names compared by their bytes")
struct IngestEquivalentNamesTests {
    let response = """
        {"data":{"character":{"id":"1","name":null,"meta":{"\(composed)":1,"\(decomposed)":2,"n":{"\(decomposed)":3,"\(composed)":4}}}},
         "errors":[{"message":"hidden","path":["character","name"],"extensions":{"\(composed)":"a","code":"X","\(decomposed)":"b"}}]}
        """

    @Test("names equal to Swift and different in bytes are two members, in extensions and in a custom scalar")
    func equivalentNamesAreTwoMembers() throws {
        let changes = try ingest(plan, response)
        let name = try #require(changes.cell("Character:1", "name"))
        #expect(name.errors.first?.extensions == "{\"cafe\u{301}\":\"b\",\"caf\u{E9}\":\"a\",\"code\":\"X\"}")
        #expect(changes.value("Character:1", "meta") == .object(
            "{\"cafe\u{301}\":2,\"caf\u{E9}\":1,\"n\":{\"cafe\u{301}\":3,\"caf\u{E9}\":4}}"))
    }

    @Test("a name given twice with the same bytes is still refused, in extensions as in data")
    func exactDuplicatesAreRefused() {
        let inExtensions = ingestError(plan, #"{"data":null,"errors":[{"message":"m","extensions":{"code":"A","code":"B"}}]}"#)
        #expect(inExtensions.map { "\($0)" }?.contains(#"member "code" is given more than once"#) == true)
        let inScalar = ingestError(plan, #"{"data":{"character":{"id":"1","meta":{"a":1,"a":2}}}}"#)
        #expect(inScalar.map { "\($0)" }?.contains(#"member "a" is given more than once"#) == true)
        let inError = ingestError(plan, #"{"data":null,"errors":[{"message":"m","message":"n"}]}"#)
        #expect(inError.map { "\($0)" }?.contains(#"member "message" is given more than once"#) == true)
    }

    @Test("read-back keeps equivalent names as two members, in a custom scalar and in extensions")
    func readBackKeepsBoth() throws {
        let store = Store(configuration: .init(collectsAutomatically: false))
        store.commit(try ingest(plan, response))
        let read = store.read(plan, variables: Variables([:]))
        let nested: JSONObject = ["cafe\u{301}": .int(3), "caf\u{E9}": .int(4)]
        let meta: JSONObject = ["cafe\u{301}": .int(2), "caf\u{E9}": .int(1), "n": .object(nested)]
        let character: JSONObject = ["id": .string("1"), "name": .null, "meta": .object(meta)]
        #expect(read.data == .object(["character": .object(character)]))
        let extensions: JSONObject = ["cafe\u{301}": .string("b"), "caf\u{E9}": .string("a"), "code": .string("X")]
        #expect(read.errors.first?.json == .object([
            "message": .string("hidden"), "path": .array([.string("character"), .string("name")]),
            "extensions": .object(extensions),
        ]))
        // Byte order: the decomposed name (`e` + U+0301) before the precomposed one.
        guard case .object(let top) = read.data, case .object(let readCharacter)? = top["character"],
              case .object(let readMeta)? = readCharacter["meta"]
        else {
            Issue.record("no meta object read back")
            return
        }
        #expect(readMeta.keys == ["cafe\u{301}", "caf\u{E9}", "n"])
        #expect(CanonicalJSON.render(.object(readMeta)) == "{\"cafe\u{301}\":2,\"caf\u{E9}\":1,\"n\":{\"cafe\u{301}\":3,\"caf\u{E9}\":4}}")
        // Equal to Swift's `==` as strings, the two names are not one member here.
        #expect(readMeta["caf\u{E9}"] == .int(1))
        #expect(readMeta["cafe\u{301}"] == .int(2))
        #expect(store.record(RecordKey("Character:1"))?.cell(SlotID.named("meta"))?.value
            == .object("{\"cafe\u{301}\":2,\"caf\u{E9}\":1,\"n\":{\"cafe\u{301}\":3,\"caf\u{E9}\":4}}"))
    }

    @Test("an error's odd members are read without refusing the response")
    func oddErrorMembers() throws {
        let changes = try ingest(plan, """
            {"data":null,"errors":[
              {"message":{"\(decomposed)":1,"\(composed)":2},"path":["character",{"\(composed)":1,"\(decomposed)":2}]},
              {"message":"m","path":"character.name","extensions":null},
              ["\(composed)"]]}
            """)
        #expect(changes.unplacedErrors == [
            FieldError(message: "{\"cafe\u{301}\":1,\"caf\u{E9}\":2}", path: ""),
            FieldError(message: "m", path: ""),
            FieldError(message: "[\"caf\u{E9}\"]", path: ""),
        ])
    }
}
