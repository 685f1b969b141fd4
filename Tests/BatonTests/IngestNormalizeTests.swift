import Testing
import Baton

private typealias B = Build

/// `character(id: "1") { id name status origin { id name } location { name } }`
private let characterPlan = B.query([
    B.object("character", "Character", arguments: [B.argument("id", .string("1"))], [
        B.leaf("id", .id), B.leaf("name"), B.leaf("status"),
        B.object("origin", "Location", [B.leaf("id", .id), B.leaf("name")]),
        B.object("location", "Location", [B.leaf("name")]),
    ]),
])

private let characterSlot = #"character(id:"1")"#

@Suite("Ingest: identity and keys")
struct IngestIdentityTests {
    @Test func entitiesAreKeyedByTypeAndID() throws {
        let changes = try ingest(characterPlan, #"""
            {"data":{"character":{"id":"1","name":"Rick","status":"Alive",
              "origin":{"id":"20","name":"Earth"},"location":{"name":"Citadel"}}}}
            """#)
        #expect(changes.keys == ["client:root", "Character:1", "Location:20", "Character:1:location"])
        #expect(changes.value("client:root", characterSlot) == .link(RecordKey("Character:1")))
        #expect(changes.value("Character:1", "id") == .string("1"))
        #expect(changes.value("Character:1", "name") == .string("Rick"))
        #expect(changes.value("Character:1", "origin") == .link(RecordKey("Location:20")))
        #expect(changes.value("Character:1", "location") == .link(RecordKey("Character:1:location")))
        #expect(changes.value("Character:1:location", "name") == .string("Citadel"))
        #expect(changes.record("Location:20")?.typename == "Location")
        #expect(changes.record("client:root")?.typename == "Query")
    }

    /// Without escaping, `Character` `1:location` and the object at `Character:1`'s `location`
    /// were one record, and the impostor's name landed in the location's cell.
    @Test func idWithAColonIsNotAPath() throws {
        let plan = B.query([
            B.object("a", "Character", [B.leaf("id", .id), B.object("location", "Location", [B.leaf("name")])]),
            B.object("b", "Character", [B.leaf("id", .id), B.leaf("name")]),
        ])
        let changes = try ingest(plan, #"""
            {"data":{"a":{"id":"1","location":{"name":"Earth"}},"b":{"id":"1:location","name":"Impostor"}}}
            """#)
        #expect(changes.keys == ["client:root", "Character:1", "Character:1:location", #"Character:1\:location"#])
        #expect(changes.value("Character:1:location", "name") == .string("Earth"))
        #expect(changes.value(#"Character:1\:location"#, "name") == .string("Impostor"))
        #expect(changes.value(#"Character:1\:location"#, "id") == .string("1:location"))
        #expect(changes.record("Character:1:location")?.typename == "Location")
    }

    /// Schemas generated from tables (Hasura's, for one) name types after them: a `client` table
    /// gives the type `client`, and its row `root` was keyed `client:root`, the query root, so
    /// the row and the root were one record (the type flipping between `Query` and `client`).
    @Test("a client whose id is root is not the query root", arguments: [#""root""#, #""r\u006fot""#])
    func clientRootIsNotTheQueryRoot(id: String) throws {
        let plan = B.query([
            B.object("owner", "client", [B.leaf("id", .id), B.leaf("name")]),
            B.leaf("motto"),
        ])
        let changes = try ingest(plan, #"{"data":{"owner":{"id":"# + id + #","name":"Ada"},"motto":"hi"}}"#)
        #expect(changes.keys == ["client:root", #"client:\root"#])
        #expect(changes.record("client:root")?.typename == "Query")
        #expect(changes.value("client:root", "motto") == .string("hi"))
        #expect(changes.value("client:root", "owner") == .link(RecordKey(#"client:\root"#)))
        #expect(changes.record(#"client:\root"#)?.typename == "client")
        #expect(changes.value(#"client:\root"#, "name") == .string("Ada"))
        #expect(changes.value("client:root", "name") == nil)
        #expect(RecordKey.entity(typename: "client", id: "root") != .queryRoot)
        #expect(RecordKey.entity(typename: "client", id: #"\root"#).rawValue == #"client:\\root"#)
        #expect(RecordKey.entity(typename: "Client", id: "root").rawValue == "Client:root")
    }

    /// Most objects of a large response are entities met before, written the same way; ingest
    /// moves past such an object by comparing its text with the text that last wrote the record
    /// (`Normalizer.repeatedLeafEntity`). An object that differs at all (a value, a space, its
    /// members' order, an escape in its id) is read whole, and its values win.
    @Test("an entity met again is skipped only when its text is the text that last wrote it")
    func repeatedEntityTextDecidesTheSkip() throws {
        let plan = B.query([
            B.object("people", "Person", list: 1, [B.leaf("id", .id), B.leaf("name"), B.leaf("mood")]),
            B.object("more", "Person", list: 1, [B.leaf("id", .id), B.leaf("name"), B.leaf("mood")]),
        ])
        let changes = try ingest(plan, #"""
            {"data":{"people":[{"id":"1","name":"Ada","mood":"calm"},{"id":"2","name":"Bo","mood":"calm"},
            {"id":"1","name":"Ada","mood":"calm"},{"id":"1","name":"Ada","mood":"glad"},{"id":"2","name":"Bo","mood":"calm"}],
            "more":[{"id":"1","name":"Ada","mood":"glad"},{"id":"2", "name":"Bo","mood":"sad"},
            {"id":"2","name":"Bo","mood":"calm"},{"name":"Bo","id":"2","mood":"odd"},{"id":"\u0031","name":"Ada","mood":"last"}]}}
            """#)
        #expect(changes.keys == ["client:root", "Person:1", "Person:2"])
        #expect(changes.value("Person:1", "mood") == .string("last"))
        #expect(changes.value("Person:2", "mood") == .string("odd"))
        #expect(changes.value("client:root", "people") == .links(["Person:1", "Person:2", "Person:1", "Person:1", "Person:2"].map { RecordKey($0) }))
        #expect(changes.value("client:root", "more") == .links(["Person:1", "Person:2", "Person:2", "Person:2", "Person:1"].map { RecordKey($0) }))
        let sameAgain = try ingest(plan, #"""
            {"data":{"people":[{"id":"1","name":"Ada","mood":"calm"}],"more":[{"id":"1","name":"Ada","mood":"calm"},{"id":"1","name":"Ada","mood":"calmer"}]}}
            """#)
        #expect(sameAgain.value("Person:1", "mood") == .string("calmer"))
    }

    /// Apollo's clients put `__typename` first in every selection: the same check applies to an
    /// object that opens with its type name, selected (here aliased) or not.
    @Test("an entity met again that opens with its type name is skipped only when its text is the same", arguments: [false, true])
    func repeatedTypenamedEntity(selectsTypename: Bool) throws {
        let fields = [B.leaf("id", .id), B.leaf("name")]
        let plan = B.query([
            B.object("people", "Person", list: 1, selectsTypename ? [B.typename("kind")] + fields : fields),
        ])
        let name = selectsTypename ? "kind" : "__typename"
        let first = #"{"\#(name)":"Person","id":"1","name":"Ada"}"#
        let changes = try ingest(plan, #"{"data":{"people":["# + [
            first, first, #"{"\#(name)":"Person","id":"1","name":"Ann"}"#, first, #"{"\#(name)":"Person","id":"1","name":"Amy"}"#,
        ].joined(separator: ",") + "]}}")
        #expect(changes.keys == ["client:root", "Person:1"])
        #expect(changes.value("Person:1", "name") == .string("Amy"))
        #expect(changes.value("client:root", "people") == .links(Array(repeating: RecordKey("Person:1"), count: 5)))
        if selectsTypename {
            #expect(ingestError(plan, #"{"data":{"people":["# + first + #",{"kind":"Robot","id":"1","name":"Ada"}]}}"#) != nil)
        }
    }

    /// A record's cells sit in a block sized for the first selection that wrote it; a larger
    /// selection later moves them to a larger block, and an error placed after finds its cell.
    @Test("a record written first by a small selection and then a larger one keeps every cell")
    func recordGrowsPastItsFirstBlock() throws {
        let plan = B.query([
            B.object("small", "Person", [B.leaf("id", .id)]),
            B.object("large", "Person", [
                B.leaf("id", .id), B.leaf("name"), B.leaf("mood"), B.leaf("city"), B.leaf("zip"), B.leaf("nick"), B.leaf("team"),
            ]),
        ])
        let changes = try ingest(plan, #"""
            {"data":{"small":{"id":"1"},"large":{"id":"1","name":"Ada","mood":"calm","city":"Oslo","zip":"0150","nick":"A","team":null}},
             "errors":[{"message":"no team","path":["large","team"]}]}
            """#)
        let person = try #require(changes.record("Person:1"))
        #expect(person.cells.count == 7)
        for (field, value) in [("id", "1"), ("name", "Ada"), ("mood", "calm"), ("city", "Oslo"), ("zip", "0150"), ("nick", "A")] {
            #expect(changes.value("Person:1", field) == .string(value), "\(field)")
        }
        #expect(changes.value("Person:1", "team") == .null)
        #expect(person.cells[SlotID.named("team")]?.errors.map(\.message) == ["no team"])
        #expect(person.cells[SlotID.named("name")]?.errors.isEmpty == true)
    }

    @Test("no entity's key is another record's path, and no two ids of a type share a key")
    func entityKeysNeverMeetPaths() {
        let pieces = ["1", ":", "\\", "meta", "a:b", "", "é", "(x:1)"]
        var distinct = Set<String>()
        for first in pieces { for second in pieces { distinct.insert(first + second) } }
        let ids = distinct.sorted()
        let storageKeys = ["meta", "meta(x:1)", "a", "b", "1", "notes(first:2)"]
        var entities: [String: String] = [:]
        var paths = Set<String>()
        for id in ids {
            let key = RecordKey.entity(typename: "T", id: id)
            if let other = entities[key.rawValue] { Issue.record("ids \(other) and \(id) share \(key)") }
            entities[key.rawValue] = id
            for storageKey in storageKeys {
                paths.insert(RecordKey.path(parent: key, storageKey: storageKey).rawValue)
                paths.insert(RecordKey.path(parent: key, storageKey: storageKey, index: 0).rawValue)
            }
        }
        let shared = Set(entities.keys).intersection(paths)
        #expect(shared.isEmpty, "entity keys that are also paths: \(shared.sorted().prefix(5))")
    }

    @Test("a path key is its parent, storage key and index joined by colons")
    func pathKeyJoinsItsParts() {
        let parents = ["client:root", "Character:1", #"T:a\:b"#, "é🦄:x", ""]
        let storageKeys = ["location", #"search(text:"a:b",first:10)"#, "", "世界"]
        let indices: [Int?] = [nil, 0, 9, 10, 99, 100, 12_345, -1, Int.max]
        for parent in parents {
            for storageKey in storageKeys {
                for index in indices {
                    let joined = parent + ":" + storageKey + (index.map { ":" + String($0) } ?? "")
                    let key = RecordKey.path(parent: RecordKey(parent), storageKey: storageKey, index: index)
                    #expect(key.rawValue == joined)
                    #expect(Array(key.rawValue.utf8) == Array(joined.utf8))
                }
            }
        }
    }

    @Test("an id's colons and backslashes are escaped in its key, and nothing else is", arguments: [
        ("1", "T:1"), ("1:2", #"T:1\:2"#), (#"a\b"#, #"T:a\\b"#), (#":\:"#, #"T:\:\\\:"#), ("é🦄/x", "T:é🦄/x"),
    ])
    func entityKeyEscapes(id: String, key: String) {
        #expect(RecordKey.entity(typename: "T", id: id).rawValue == key)
    }

    @Test func integerIDIsRenderedInDecimal() throws {
        let changes = try ingest(characterPlan, #"{"data":{"character":{"id":7,"name":"Abradolf"}}}"#)
        #expect(changes.keys == ["client:root", "Character:7"])
        #expect(changes.value("Character:7", "id") == .string("7"))
    }

    @Test func nullIDFallsBackToThePathKey() throws {
        let changes = try ingest(characterPlan, #"{"data":{"character":{"id":null,"name":"Nobody"}}}"#)
        #expect(changes.value("client:root", characterSlot) == .link(RecordKey(#"client:root:character(id:"1")"#)))
        #expect(changes.value(#"client:root:character(id:"1")"#, "id") == .null)
    }

    @Test func idAfterNestedObjectsStillKeysThem() throws {
        // `origin` and `location` come before `id`: their keys hang from the entity, not the path.
        let changes = try ingest(characterPlan, #"""
            {"data":{"character":{"location":{"name":"Citadel"},"name":"Rick",
              "origin":{"name":"Earth","id":"20"},"id":"1"}}}
            """#)
        #expect(changes.keys == ["client:root", "Character:1", "Character:1:location", "Location:20"])
        #expect(changes.value("Character:1", "location") == .link(RecordKey("Character:1:location")))
        #expect(changes.value("Character:1", "name") == .string("Rick"))
        #expect(changes.value("Location:20", "name") == .string("Earth"))
    }

    @Test func deferralNestsWhenEveryIDComesLast() throws {
        let plan = B.query([
            B.object("a", "A", [
                B.object("b", "B", [
                    B.object("c", "C", [B.leaf("name")]),
                    B.object("d", "D", list: 1, [B.leaf("id", .id), B.leaf("name")]),
                    B.leaf("id", .id),
                ]),
                B.leaf("name"),
                B.leaf("id", .id),
            ]),
        ])
        let changes = try ingest(plan, #"""
            {"data":{"a":{"b":{"c":{"name":"c"},"d":[{"name":"d1","id":"1"},null],"id":"b1"},"name":"a","id":"a1"}}}
            """#)
        #expect(changes.keys == ["client:root", "A:a1", "B:b1", "B:b1:c", "D:1"])
        #expect(changes.value("A:a1", "name") == .string("a"))
        #expect(changes.value("A:a1", "b") == .link(RecordKey("B:b1")))
        #expect(changes.value("B:b1", "d") == .links([RecordKey("D:1"), nil]))
        #expect(changes.value("D:1", "name") == .string("d1"))
    }

    @Test func missingRequiredIDThrows() {
        let error = ingestError(characterPlan, #"{"data":{"character":{"name":"Rick","origin":{"name":"Earth"}}}}"#)
        #expect(error?.kind == .missingID)
        #expect(error?.dottedPath == "character")
        let nested = ingestError(characterPlan, #"{"data":{"character":{"id":"1","origin":{"name":"Earth"}}}}"#)
        #expect(nested?.kind == .missingID)
        #expect(nested?.dottedPath == "character.origin")
        #expect(nested?.description.contains("missing required id at path character.origin") == true)
    }

    @Test func aliasedIDStillKeys() throws {
        let plan = B.query([B.object("me", "User", [B.leaf("ident", .id, name: "id"), B.leaf("name")])])
        let changes = try ingest(plan, #"{"data":{"me":{"name":"Summer","ident":"u1"}}}"#)
        #expect(changes.keys == ["client:root", "User:u1"])
        #expect(changes.value("User:u1", "id") == .string("u1"))
    }

    @Test func objectsWithoutIDGetPathKeysWithListIndices() throws {
        let plan = B.query([
            B.object("viewer", "Viewer", [
                B.leaf("name"),
                B.object("items", "Item", list: 1, [B.leaf("label")]),
                B.object("grid", "Cell", list: 2, [B.leaf("label")]),
            ]),
        ])
        let changes = try ingest(plan, #"""
            {"data":{"viewer":{"name":"v","items":[{"label":"a"},{"label":"b"}],
              "grid":[[{"label":"x"}],null,[{"label":"y"},null,{"label":"z"}]]}}}
            """#)
        #expect(changes.keys == [
            "client:root", "client:root:viewer", "client:root:viewer:items:0", "client:root:viewer:items:1",
            "client:root:viewer:grid:0:0", "client:root:viewer:grid:2:0", "client:root:viewer:grid:2:2",
        ])
        #expect(changes.value("client:root:viewer", "items") == .links([
            RecordKey("client:root:viewer:items:0"), RecordKey("client:root:viewer:items:1"),
        ]))
        #expect(changes.value("client:root:viewer", "grid") == .list([
            .links([RecordKey("client:root:viewer:grid:0:0")]),
            .null,
            .links([RecordKey("client:root:viewer:grid:2:0"), nil, RecordKey("client:root:viewer:grid:2:2")]),
        ]))
    }

    @Test func storageKeysUseVariables() throws {
        let plan = B.query(
            [B.object("character", "Character", arguments: [B.variable("id", "id")], [B.leaf("id", .id)])],
            variables: [VariableDefinition(name: "id", type: .nonNull(.named("ID")), defaultValue: nil)])
        let changes = try ingest(plan, #"{"data":{"character":{"id":"9"}}}"#, ["id": .string("9")])
        #expect(changes.value("client:root", #"character(id:"9")"#) == .link(RecordKey("Character:9")))
        #expect(changes.operation == OperationIdentity(#"Test{"id":"9"}"#))
    }

    @Test func mutationsStartFromTheMutationRoot() throws {
        let plan = B.mutation([B.object("rename", "Payload", [B.object("character", "Character", [B.leaf("id", .id)])])])
        let changes = try ingest(plan, #"{"data":{"rename":{"character":{"id":"1"}}}}"#)
        #expect(changes.keys == ["client:root:mutation", "client:root:mutation:rename", "Character:1"])
        #expect(changes.record("client:root:mutation")?.typename == "Mutation")
    }
}

@Suite("Ingest: values")
struct IngestValueTests {
    @Test func missingFieldIsAbsentNotNull() throws {
        let changes = try ingest(characterPlan, #"{"data":{"character":{"id":"1","name":null}}}"#)
        let record = try #require(changes.record("Character:1"))
        #expect(record.cells[SlotID.named("name")] == Cell(.null))
        #expect(record.cells[SlotID.named("status")] == nil)
        #expect(record.cells[SlotID.named("origin")] == nil)
        #expect(record.storageKeys == ["id", "name"])
    }

    @Test func nullElementOfLinksKeepsItsIndex() throws {
        let plan = B.query([B.object("characters", "Character", list: 1, [B.leaf("id", .id)])])
        let changes = try ingest(plan, #"{"data":{"characters":[{"id":"1"},null,{"id":"3"},null]}}"#)
        #expect(changes.value("client:root", "characters") == .links([
            RecordKey("Character:1"), nil, RecordKey("Character:3"), nil,
        ]))
        #expect(changes.keys == ["client:root", "Character:1", "Character:3"])
    }

    @Test func nullCompositeAndNullListAreNull() throws {
        let plan = B.query([
            B.object("character", "Character", [B.leaf("id", .id)]),
            B.object("characters", "Character", list: 1, [B.leaf("id", .id)]),
        ])
        let changes = try ingest(plan, #"{"data":{"character":null,"characters":null}}"#)
        #expect(changes.value("client:root", "character") == .null)
        #expect(changes.value("client:root", "characters") == .null)
        #expect(changes.keys == ["client:root"])
    }

    @Test func scalarsOfEveryKind() throws {
        let plan = B.query([
            B.leaf("i", .int), B.leaf("f", .float), B.leaf("fi", .float), B.leaf("s", .string),
            B.leaf("b", .boolean), B.leaf("e", .enumeration), B.leaf("idString", .id), B.leaf("idInt", .id),
            B.leaf("big", .int), B.leaf("small", .int), B.leaf("whole", .int), B.leaf("idBig", .id),
            B.leaf("unknownEnum", .enumeration),
        ])
        let changes = try ingest(plan, #"""
            {"data":{"i":-3,"f":2.5,"fi":2,"s":"x","b":false,"e":"ALIVE","idString":"a1","idInt":42,
              "big":2147483647,"small":-2147483648,"whole":1.50e1,"idBig":123456789012345678901234567890,
              "unknownEnum":"ADDED_LATER"}}
            """#)
        #expect(changes.value("client:root", "i") == .int(-3))
        #expect(changes.value("client:root", "f") == .double(2.5))
        #expect(changes.value("client:root", "fi") == .double(2))
        #expect(changes.value("client:root", "s") == .string("x"))
        #expect(changes.value("client:root", "b") == .bool(false))
        #expect(changes.value("client:root", "e") == .string("ALIVE"))
        #expect(changes.value("client:root", "idString") == .string("a1"))
        #expect(changes.value("client:root", "idInt") == .string("42"))
        #expect(changes.value("client:root", "big") == .int(2_147_483_647))
        #expect(changes.value("client:root", "small") == .int(-2_147_483_648))
        // JSON numbers carry no type: 1.50e1 is the whole number 15.
        #expect(changes.value("client:root", "whole") == .int(15))
        // An integer ID too large for Int keeps its digits as written.
        #expect(changes.value("client:root", "idBig") == .string("123456789012345678901234567890"))
        // A schema grows: an enum value it does not list yet is kept as it came.
        #expect(changes.value("client:root", "unknownEnum") == .string("ADDED_LATER"))
    }

    @Test func leafListsKeepNullsAndNesting() throws {
        let plan = B.query([B.leaf("tags", .string, list: 1), B.leaf("matrix", .int, list: 2), B.leaf("none", .int, list: 1)])
        let changes = try ingest(plan, #"{"data":{"tags":["a",null,"b"],"matrix":[[1,2],null,[]],"none":null}}"#)
        #expect(changes.value("client:root", "tags") == .list([.string("a"), .null, .string("b")]))
        #expect(changes.value("client:root", "matrix") == .list([.list([.int(1), .int(2)]), .null, .list([])]))
        #expect(changes.value("client:root", "none") == .null)
    }

    @Test func customScalarsTakeAnyJSON() throws {
        let plan = B.query([
            B.leaf("obj", .customScalar), B.leaf("arr", .customScalar), B.leaf("str", .customScalar),
            B.leaf("num", .customScalar), B.leaf("dbl", .customScalar), B.leaf("flag", .customScalar),
            B.leaf("many", .customScalar, list: 1),
        ])
        let changes = try ingest(plan, #"""
            {"data":{"obj":{"z":1,"a":{"y":[true,null],"b":"c"}},"arr":[1,"two",{"k":"v"},[3]],
              "str":"s","num":5,"dbl":0.5,"flag":true,"many":[{"b":2,"a":1},null]}}
            """#)
        #expect(changes.value("client:root", "obj") == .object(#"{"a":{"b":"c","y":[true,null]},"z":1}"#))
        #expect(changes.value("client:root", "arr") == .list([.int(1), .string("two"), .object(#"{"k":"v"}"#), .list([.int(3)])]))
        #expect(changes.value("client:root", "str") == .string("s"))
        #expect(changes.value("client:root", "num") == .int(5))
        #expect(changes.value("client:root", "dbl") == .double(0.5))
        #expect(changes.value("client:root", "flag") == .bool(true))
        #expect(changes.value("client:root", "many") == .list([.object(#"{"a":1,"b":2}"#), .null]))
    }

    @Test func typenameIsNotASlot() throws {
        let plan = B.query([B.object("character", "Character", [B.typename(), B.leaf("id", .id)])])
        let changes = try ingest(plan, #"{"data":{"character":{"__typename":"Character","id":"1"}}}"#)
        #expect(changes.record("Character:1")?.storageKeys == ["id"])
    }

    @Test func unselectedMembersAreSkipped() throws {
        let changes = try ingest(characterPlan, #"""
            {"data":{"character":{"id":"1","extra":{"deep":[1,{"x":"y"}]},"name":"Rick","more":"\u00e9"}},
             "extensions":{"cost":3}}
            """#)
        #expect(changes.record("Character:1")?.storageKeys == ["id", "name"])
    }

    @Test func escapedMemberNamesMatch() throws {
        let changes = try ingest(characterPlan, #"{"data":{"character":{"\u0069d":"1","n\u0061me":"Rick"}}}"#)
        #expect(changes.value("Character:1", "name") == .string("Rick"))
    }

    @Test func worksOverAnyCollectionOfBytes() throws {
        let json = #"{"data":{"character":{"id":"1","name":"Rick"}}}"#
        let plan = characterPlan
        let viaView = try Ingest.normalize(plan: plan, variables: try plan.variables(), response: json.utf8)
        let viaSlice = try Ingest.normalize(plan: plan, variables: try plan.variables(), response: Array(json.utf8)[...])
        #expect(viaView.keys == ["client:root", "Character:1"])
        #expect(viaSlice.keys == viaView.keys)
    }
}

@Suite("Ingest: merging")
struct IngestMergeTests {
    @Test func sameEntityByTwoPathsIsOneRecord() throws {
        let plan = B.query([
            B.object("a", "Character", name: "character", arguments: [B.argument("id", .string("1"))], [
                B.leaf("id", .id), B.leaf("name"),
            ]),
            B.object("b", "Character", name: "character", arguments: [B.argument("id", .int(1))], [
                B.leaf("id", .id), B.leaf("status"),
                B.object("friends", "Character", list: 1, [B.leaf("id", .id), B.leaf("name")]),
            ]),
        ])
        let changes = try ingest(plan, #"""
            {"data":{"a":{"id":"1","name":"Rick"},
                     "b":{"id":"1","status":"Alive","friends":[{"id":"2","name":"Morty"},{"id":"1","name":"Rick C-137"}]}}}
            """#)
        #expect(changes.keys == ["client:root", "Character:1", "Character:2"])
        let rick = try #require(changes.record("Character:1"))
        #expect(rick.storageKeys == ["friends", "id", "name", "status"])
        #expect(rick.cells[SlotID.named("name")]?.value == .string("Rick C-137"), "the later write wins")
        #expect(changes.records.filter { $0.key.rawValue == "Character:1" }.count == 1)
    }

    @Test func fieldsSharingAResponseKeyMergeTheirSelections() throws {
        let plan = B.query([
            B.object("character", "Character", [B.leaf("id", .id), B.object("origin", "Location", [B.leaf("name")])]),
            B.on(nil, [
                B.object("character", "Character", [B.object("origin", "Location", [B.leaf("dimension")])]),
            ]),
            B.on(["Query"], [B.object("character", "Character", [B.leaf("status")])]),
        ])
        let changes = try ingest(plan, #"{"data":{"character":{"id":"1","status":"Alive","origin":{"name":"Earth","dimension":"C-137"}}}}"#)
        #expect(changes.keys == ["client:root", "Character:1", "Character:1:origin"])
        #expect(changes.record("Character:1")?.storageKeys == ["id", "origin", "status"])
        #expect(changes.record("Character:1:origin")?.storageKeys == ["dimension", "name"])
    }

    @Test func normalizingTwiceGivesTheSameOrder() throws {
        let json = #"{"data":{"a":{"id":"1","name":"x"},"list":[{"id":"3"},{"id":"2"},{"id":"1"}]}}"#
        let plan = B.query([
            B.object("a", "T", [B.leaf("id", .id), B.leaf("name")]),
            B.object("list", "T", list: 1, [B.leaf("id", .id)]),
        ])
        let first = try ingest(plan, json)
        let second = try ingest(plan, json)
        #expect(first.keys == ["client:root", "T:1", "T:3", "T:2"])
        #expect(first.keys == second.keys)
        #expect(first.records.map(\.cells) == second.records.map(\.cells))
    }
}

@Suite("Ingest: type names")
struct IngestTypenameTests {
    /// `search { __typename ... on Character { id name } ... on Location { id dimension } }`
    private let searchPlan = B.query([
        B.object("search", "SearchResult", list: 1, abstract: true, [
            B.typename(),
            B.on(["Character"], [B.leaf("id", .id), B.leaf("name")]),
            B.on(["Location"], [B.leaf("id", .id), B.leaf("dimension")]),
        ]),
    ])

    @Test func typenameComesFromTheSchemaWhenAbsent() throws {
        let changes = try ingest(characterPlan, #"{"data":{"character":{"id":"1","origin":{"id":"2"}}}}"#)
        #expect(changes.record("Character:1")?.typename == "Character")
        #expect(changes.record("Location:2")?.typename == "Location")
    }

    @Test func abstractTypesTakeTheResponseTypename() throws {
        let changes = try ingest(searchPlan, #"""
            {"data":{"search":[{"__typename":"Character","id":"1","name":"Rick"},
                               {"id":"3","dimension":"C-137","__typename":"Location"}]}}
            """#)
        #expect(changes.keys == ["client:root", "Character:1", "Location:3"])
        #expect(changes.record("Character:1")?.storageKeys == ["id", "name"])
        #expect(changes.record("Location:3")?.storageKeys == ["dimension", "id"])
        #expect(changes.record("Location:3")?.typename == "Location")
    }

    @Test func aliasedTypenameIdentifiesAbstractTypes() throws {
        let plan = B.query([B.object("node", "Node", abstract: true, [B.typename("kind"), B.leaf("id", .id)])])
        let changes = try ingest(plan, #"{"data":{"node":{"id":"1","kind":"Episode"}}}"#)
        #expect(changes.keys == ["client:root", "Episode:1"])
    }

    @Test func abstractWithoutTypenameThrows() {
        let error = ingestError(searchPlan, #"{"data":{"search":[{"__typename":"Character","id":"1"},{"id":"2"}]}}"#)
        #expect(error?.kind == .missingTypename(abstractType: "SearchResult"))
        #expect(error?.dottedPath == "search.1")
    }

    @Test func typenameContradictingAnObjectTypeThrows() {
        let plan = B.query([B.object("character", "Character", [B.typename(), B.leaf("id", .id)])])
        let error = ingestError(plan, #"{"data":{"character":{"__typename":"Location","id":"1"}}}"#)
        #expect(error?.kind == .typenameMismatch(expected: "Character", found: "Location"))
    }
}

@Suite("Ingest: variables and concurrency")
struct IngestVariableTests {
    private let plan = B.query(
        [
            B.object("character", "Character", [
                B.leaf("id", .id),
                .condition(variable: "withName", include: true, SelectionSet([B.leaf("name")])),
            ]),
        ],
        variables: [VariableDefinition(name: "withName", type: .nonNull(.named("Boolean")), defaultValue: .bool(false))])

    private let json = #"{"data":{"character":{"id":"1","name":"Rick"}}}"#

    @Test func includedFieldsAreWritten() throws {
        let changes = try ingest(plan, json, ["withName": .bool(true)])
        #expect(changes.record("Character:1")?.storageKeys == ["id", "name"])
        #expect(changes.operation == OperationIdentity(#"Test{"withName":true}"#))
    }

    @Test func excludedFieldsAreSkippedEvenWhenSent() throws {
        let changes = try ingest(plan, json)
        #expect(changes.record("Character:1")?.storageKeys == ["id"])
    }

    @Test func normalizesOffTheMainActorInParallel() async throws {
        let plan = self.plan
        let bytes = Array(json.utf8)
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<8 {
                group.addTask {
                    let variables = try plan.variables(["withName": .bool(i % 2 == 0)])
                    return try Ingest.normalize(plan: plan, variables: variables, response: bytes).records[1].cells.count
                }
            }
            var counts: [Int] = []
            for try await count in group { counts.append(count) }
            return counts.sorted()
        }
        #expect(counts == [1, 1, 1, 1, 2, 2, 2, 2])
    }
}
