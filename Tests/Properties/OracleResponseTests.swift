import Baton
import BatonSim
import Testing

@Suite("Oracle: responses from provenance and from text")
struct OracleResponseTests {
    typealias F = OracleFixture

    @Test("a screen: entities by id, an object without id by path, __typename is the type, not a cell")
    func screen() throws {
        let response = try F.response(F.screen("1", name: "Rick", status: "Alive", location: "Earth", episodes: [("10", "Pilot"), ("11", "Lawn")]), "Screen")
        #expect(response.hasData)
        #expect(Set(response.records.keys) == ["client:root", "Character:1", "Character:1:location", "Episode:10", "Episode:11"])
        #expect(response.records["client:root"]?.cells[#"character(id:"1")"#]?.value == .link("Character:1"))
        let character = try #require(response.records["Character:1"])
        #expect(character.typename == "Character")
        #expect(character.cells["location"]?.value == .link("Character:1:location"))
        #expect(character.cells["episodes"]?.value == .links(["Episode:10", "Episode:11"]))
        #expect(response.records["Character:1:location"]?.cells["name"]?.value == .string("Earth"))
    }

    @Test("the text path gives the same response as the provenance path")
    func textAgrees() throws {
        let provenance = try F.response(F.screen("1", name: "Rick", status: "Alive", location: "Earth", episodes: [("10", "Pilot")]), "Screen")
        let text = try F.text(
            #"{"data":{"character":{"id":"1","name":"Rick","status":"Alive","location":{"name":"Earth","dimension":"C-137"},"episodes":[{"id":"10","name":"Pilot"}]}}}"#,
            "Screen", ["id": .string("1")])
        #expect(text == provenance)
    }

    @Test("an object whose id is null is keyed by path; an id-less type is keyed by path; ints in ID fields are text")
    func idRules() throws {
        let location = F.object("Location", [F.field("id", .null), F.field("name", F.string("Nowhere"))])
        let response = try F.response(Execution(responseText: [], data: F.object("Query", [
            F.field("location", .object(location), arguments: ["name": .string("x")]),
        ])), "Header")
        #expect(response.records[#"client:root:location(name:"x")"#]?.cells["name"]?.value == .string("Nowhere"))
        let text = try F.text(#"{"data":{"character":{"id":7,"name":"Int id","status":null}}}"#, "Header", ["id": .string("7")])
        #expect(text.records["Character:7"]?.cells["id"]?.value == .string("7"))
        #expect(text.records["Character:7"]?.cells["status"]?.value == OracleValue.null)
    }

    @Test("provenance whose server id disagrees with the id field it reports is refused")
    func inconsistentProvenance() throws {
        let character = F.object("Character", id: "2", [F.field("id", F.string("1")), F.field("name", F.string("Rick"))])
        let execution = Execution(responseText: [], data: F.object("Query", [F.field("character", .object(character), arguments: ["id": .string("1")])]))
        #expect(throws: OracleResponseError.self) { try F.response(execution, "Header") }
    }

    @Test("a __typename that is no name, or another type's, is refused, and the refusal quotes it")
    func typenameRefusals() {
        func refusal(_ typename: String) -> String {
            do {
                _ = try F.text(#"{"data":{"character":{"__typename":"\#(typename)","id":"1","name":"R","status":null}}}"#, "Header", ["id": .string("1")])
                return "read"
            } catch {
                return "\(error)"
            }
        }
        #expect(refusal("").contains(#"__typename "" is no type's name"#))
        #expect(refusal(#"Ch\u0061racter\u0301"#).contains("__typename \"Character\\u{301}\" is no type's name"))
        #expect(refusal("Location").contains(#"__typename "Location" contradicts the schema's type Character"#))
        #expect(refusal(#"\u0043haracter"#) == "read")
    }

    /// The store once passed over a `__typename` its selection did not name while the model
    /// checked it (recorded responses of the apollo-kotlin calendar, garbled, showed it). Every
    /// member that gives `__typename` now speaks for the type, on both sides.
    @Test("every __typename member is checked: one the selection does not name, and an alias's twin")
    func everyTypenameChecked() throws {
        let world = try OracleFixture.world(documents: [
            #"query Q { character(id: "1") { id meta } }"#,
            #"query A { character(id: "1") { t: __typename id } }"#,
            #"query N { node(id: "10") { t: __typename ... on Episode { id name } } }"#,
        ])
        func read(_ text: String, _ operation: String) -> String {
            do {
                _ = try ModelResponse.normalize(text: Array(text.utf8), operation: world.operation(named: operation)!, variables: [:], schema: world.schema)
                return "read"
            } catch {
                return "\(error)"
            }
        }
        #expect(read(#"{"data":{"character":{"__typename":"Character","id":"1","meta":null}}}"#, "Q") == "read")
        #expect(read(#"{"data":{"character":{"id":"1","meta":null,"\u005f_typename":"Ghost"}}}"#, "Q")
            .contains(#"__typename "Ghost" contradicts the schema's type Character"#))
        #expect(read(#"{"data":{"character":{"id":"1","meta":null,"__typename":null}}}"#, "Q").contains("__typename is not a string"))
        #expect(read(#"{"data":{"character":{"id":"1","meta":{"__typename":"Ghost"}}}}"#, "Q") == "read")
        #expect(read(#"{"data":{"character":{"t":"Character","__typename":"Location","id":"1"}}}"#, "A")
            .contains(#"__typename "Location" contradicts the schema's type Character"#))
        #expect(read(#"{"data":{"node":{"t":"Episode","__typename":"Episode","id":"10","name":"P"}}}"#, "N") == "read")
        #expect(read(#"{"data":{"node":{"t":"Episode","__typename":"Character","id":"10","name":"P"}}}"#, "N")
            .contains(#"__typename "Character" contradicts the object's other __typename Episode"#))
    }

    @Test("Float fields store doubles, custom scalars keep any JSON (objects as canonical text)")
    func leafConversions() throws {
        let world = try OracleFixture.world(documents: ["query Q { character(id: \"1\") { id height meta } }"])
        let text = #"{"data":{"character":{"id":"1","height":2,"meta":{"b":[1,2.5],"a":"é"}}}}"#
        let response = try ModelResponse.normalize(text: Array(text.utf8), operation: world.operation(named: "Q")!, variables: [:], schema: world.schema)
        #expect(response.records["Character:1"]?.cells["height"]?.value == .double(2))
        #expect(response.records["Character:1"]?.cells["meta"]?.value == .object(#"{"a":"é","b":[1,2.5]}"#))
    }

    @Test("lists of lists of objects: one index per level in the path key")
    func nestedLists() throws {
        let tile = { (v: Int) in ProvenanceValue.object(F.object("Tile", [F.field("value", .scalar(.int(v)))])) }
        let grid = ProvenanceValue.list([.list([tile(1), .null]), .null, .list([tile(3)])])
        let response = try F.response(Execution(responseText: [], data: F.object("Query", [F.field("grid", grid)])), "Grid")
        #expect(response.records["client:root"]?.cells["grid"]?.value
            == .list([.links(["client:root:grid:0:0", nil]), .null, .links(["client:root:grid:2:0"])]))
        #expect(response.records["client:root:grid:2:0"]?.cells["value"]?.value == .int(3))
        let text = try F.text(#"{"data":{"grid":[[{"value":1},null],null,[{"value":3}]]}}"#, "Grid", [:])
        #expect(text == response)
    }

    @Test("abstract types take their type from __typename; fragments on the concrete type apply")
    func abstractTypes() throws {
        let text = try F.text(#"{"data":{"node":{"__typename":"Episode","id":"10","name":"Pilot"}}}"#, "NodeQuery", ["id": .string("10")])
        #expect(text.records["Episode:10"]?.typename == "Episode")
        #expect(text.records["Episode:10"]?.cells["name"]?.value == .string("Pilot"))
        #expect(text.records["Episode:10"]?.cells["__typename"] == nil)
        #expect(throws: OracleResponseError.self) {
            try F.text(#"{"data":{"node":{"id":"10","name":"Pilot"}}}"#, "NodeQuery", ["id": .string("10")])
        }
        #expect(throws: OracleResponseError.self) {
            try F.text(#"{"data":{"character":{"__typename":"Episode","id":"1","name":"x","status":"y"}}}"#, "Header", ["id": .string("1")])
        }
    }

    @Test("field errors sit beside the value with a dotted path; a trailing index lands on the list field")
    func errors() throws {
        let body = #"""
        {"data":{"character":{"id":"1","name":"Rick","status":null,"location":null,"episodes":[{"id":"10","name":"Pilot"},null]}},
         "errors":[{"message":"no status","path":["character","status"]},
                   {"message":"bad episode","path":["character","episodes",1]},
                   {"message":"late name","path":["character","episodes",0,"name"],"extensions":{"code":"X"}},
                   {"message":"nowhere","path":["character","nothing"]},
                   {"message":"through null","path":["character","location","name"]},
                   {"message":"nulled item","path":["character","episodes",1,"name"]},
                   {"message":"no path"}]}
        """#
        let response = try F.text(body, "Screen", ["id": .string("1")])
        let character = try #require(response.records["Character:1"])
        #expect(character.cells["status"] == OracleCell(.null, errors: [OracleFieldError(message: "no status", path: "character.status")]))
        // The second is about element 1 too: its failed name nulled it.
        #expect(character.cells["episodes"]?.errors == [
            OracleFieldError(message: "bad episode", path: "character.episodes.1"),
            OracleFieldError(message: "nulled item", path: "character.episodes.1.name", elementIndices: [1]),
        ])
        #expect(character.cells["episodes"]?.errors.map(\.elementIndices) == [[1], [1]])
        #expect(character.cells["location"]?.errors.map(\.elementIndices) == [[]])
        #expect(character.cells["episodes"]?.value == .links(["Episode:10", nil]))
        #expect(response.records["Episode:10"]?.cells["name"]
            == OracleCell(.string("Pilot"), errors: [OracleFieldError(message: "late name", path: "character.episodes.0.name", extensions: #"{"code":"X"}"#)]))
        #expect(character.cells["location"] == OracleCell(.null, errors: [OracleFieldError(message: "through null", path: "character.location.name")]))
        #expect(response.unplacedErrors.map(\.message) == ["nowhere", "no path"])
    }

    @Test("an error naming a selected field absent from data makes a null cell to carry it")
    func errorOnAbsentField() throws {
        let response = try F.text(
            #"{"data":{"character":{"id":"1","name":"Rick"}},"errors":[{"message":"gone","path":["character","status"]}]}"#,
            "Header", ["id": .string("1")])
        #expect(response.records["Character:1"]?.cells["status"] == OracleCell(.null, errors: [OracleFieldError(message: "gone", path: "character.status")]))
    }

    @Test("provenance errors land on the field that raised them")
    func provenanceErrors() throws {
        let character = F.object("Character", id: "1", [
            F.field("id", F.string("1")), F.field("name", F.string("Rick")),
            F.field("status", .null, error: ProvenanceError(message: "no status", path: [.key("character"), .key("status")])),
        ])
        let execution = Execution(
            responseText: [], data: F.object("Query", [F.field("character", .object(character), arguments: ["id": .string("1")])]),
            unplacedErrors: [ProvenanceError(message: "elsewhere", path: [])])
        let response = try F.response(execution, "Header")
        #expect(response.records["Character:1"]?.cells["status"] == OracleCell(.null, errors: [OracleFieldError(message: "no status", path: "character.status")]))
        #expect(response.unplacedErrors == [OracleFieldError(message: "elsewhere", path: "")])
    }

    @Test("an errors-only response has no data and no records")
    func errorsOnly() throws {
        let response = try F.text(#"{"data":null,"errors":[{"message":"down","path":["character"]}]}"#, "Header", ["id": .string("1")])
        #expect(!response.hasData && response.records.isEmpty && response.unplacedErrors.count == 1)
        #expect(throws: OracleResponseError.self) { try F.text(#"{"extensions":{}}"#, "Header", [:]) }
        #expect(throws: OracleResponseError.self) { try F.text(#"{"data":{"character":{"name":"no id"}}}"#, "Header", [:]) }
    }

    @Test("@deleteRecord: with a typename it deletes Type:value, without it the value is a key")
    func deletions() throws {
        let typed = try F.text(#"{"data":{"deleteCharacter":{"deletedId":"1"}}}"#, "DeleteCharacter", ["id": .string("1")])
        #expect(typed.deletions == ["Character:1"])
        #expect(typed.records["client:root:mutation"]?.cells[#"deleteCharacter(id:"1")"#]?.value == .link(#"client:root:mutation:deleteCharacter(id:"1")"#))
        let raw = try F.text(#"{"data":{"deleteAny":{"deletedId":"Episode:10"}}}"#, "DeleteAny", ["key": .string("Episode:10")])
        #expect(raw.deletions == ["Episode:10"])
    }

    @Test("a connection field makes a page: its slot, client record, mode and server page")
    func pages() throws {
        let execution = F.notesPage("1", arguments: ["first": .int(2), "after": .string("c2")], notes: ["3", "4"], endCursor: "c4", startCursor: "c3")
        let response = try F.response(execution, "Notes")
        #expect(response.pages == [OraclePage(
            parent: "Character:1", slot: "__Notes_notes_connection", connection: "client:Character:1:__Notes_notes_connection",
            typename: "NoteConnection", server: #"Character:1:notes(after:"c2",first:2)"#, mode: .append(after: "c2"),
            fieldSlot: #"notes(after:"c2",first:2)"#)])
        let text = try F.text(
            #"{"data":{"character":{"id":"1","notes":{"totalCount":null,"edges":[{"cursor":"c3","node":{"id":"3","text":"text 3"}},{"cursor":"c4","node":{"id":"4","text":"text 4"}}],"pageInfo":{"endCursor":"c4","startCursor":"c3","hasNextPage":true,"hasPreviousPage":false}}}}}"#,
            "Notes", ["id": .string("1"), "first": .int(2), "after": .string("c2")])
        #expect(text == response)
    }

    @Test("a connection field's errors go with its page, for the parent's connection slot that reads meet")
    func pageErrors() throws {
        let text = try F.text(
            #"{"data":{"character":{"id":"1","notes":null}},"errors":[{"message":"no notes","path":["character","notes"]},{"message":"no info","path":["character","notes","pageInfo"]}]}"#,
            "Notes", ["id": .string("1"), "first": .int(2)])
        let page = try #require(text.pages.first)
        #expect(page.server == nil)
        #expect(page.errors == [
            OracleFieldError(message: "no notes", path: "character.notes"), OracleFieldError(message: "no info", path: "character.notes.pageInfo"),
        ])
        #expect(text.records["Character:1"]?.cells[page.fieldSlot]?.errors == page.errors)
    }

    @Test("escaped strings, control characters and non-BMP characters reach the cells byte for byte")
    func escapedStrings() throws {
        let name = "q\"\\\n\u{01}é😀e\u{301}"
        let provenance = try F.response(F.header("1", name: name, status: "ok"), "Header")
        let text = try F.text(#"{"data":{"character":{"id":"1","name":"q\"\\\n\u0001\u00e9\ud83d\ude00e\u0301","status":"ok"}}}"#, "Header", ["id": .string("1")])
        #expect(provenance.records["Character:1"]?.cells["name"]?.value == .string(OracleText(name)))
        #expect(text == provenance)
    }
}

/// A server that leaves nulls where they fall: the model carries each up on its own.
@Suite("Oracle: nulls left where they fell")
struct OracleNullsInPlaceTests {
    typealias F = OracleFixture

    static let variables: [String: JSONValue] = ["id": .string("1"), "first": .int(2)]

    @Test("a null cursor left in its edge reads as the edge's null, a null hasNextPage as the connection's")
    func carriedUp() throws {
        let inPlace = try F.text(#"""
            {"data":{"character":{"id":"1","notes":{"totalCount":2,
              "edges":[{"cursor":"a","node":{"id":"n1","text":"x"}},{"cursor":null,"node":{"id":"n2","text":"y"}}],
              "pageInfo":{"endCursor":"b","startCursor":"a","hasNextPage":false,"hasPreviousPage":false}}}},
             "errors":[{"message":"no cursor","path":["character","notes","edges",1,"cursor"]}]}
            """#, "Notes", Self.variables)
        let propagated = try F.text(#"""
            {"data":{"character":{"id":"1","notes":{"totalCount":2,
              "edges":[{"cursor":"a","node":{"id":"n1","text":"x"}},null],
              "pageInfo":{"endCursor":"b","startCursor":"a","hasNextPage":false,"hasPreviousPage":false}}}},
             "errors":[{"message":"no cursor","path":["character","notes","edges",1,"cursor"]}]}
            """#, "Notes", Self.variables)
        #expect(inPlace == propagated)
        #expect(inPlace.records["Note:n2"] == nil)

        let pageInfo = try F.text(#"""
            {"data":{"character":{"id":"1","notes":{"totalCount":2,"edges":[],
              "pageInfo":{"endCursor":"b","startCursor":"a","hasNextPage":null,"hasPreviousPage":false}}}},
             "errors":[{"message":"unknown","path":["character","notes","pageInfo","hasNextPage"]}]}
            """#, "Notes", Self.variables)
        #expect(pageInfo.records["Character:1"]?.cells[#"notes(first:2)"#]?.value == OracleValue.null)
        #expect(pageInfo.records["Character:1"]?.cells[#"notes(first:2)"#]?.errors.map(\.message) == ["unknown"])
    }

    @Test("a misplaced null no error names is refused; only the first in each nullable place needs one")
    func namedOrRefused() throws {
        let unnamed = #"""
            {"data":{"character":{"id":"1","notes":{"edges":[{"cursor":null,"node":null}],"pageInfo":null}}},
             "errors":[{"message":"elsewhere","path":["character","name"]}]}
            """#
        #expect(throws: OracleResponseError.self) { try F.text(unnamed, "Notes", Self.variables) }
        // pageInfo's null is the first misplaced one in notes; the edge's null cursor comes after
        // it inside the same nullable place, which is gone already.
        let firstNamed = #"""
            {"data":{"character":{"id":"1","notes":{"pageInfo":null,"edges":[{"cursor":null,"node":null}]}}},
             "errors":[{"message":"no page info","path":["character","notes","pageInfo"]}]}
            """#
        let response = try F.text(firstNamed, "Notes", Self.variables)
        #expect(response.records["Character:1"]?.cells[#"notes(first:2)"#]?.value == OracleValue.null)
    }
}
