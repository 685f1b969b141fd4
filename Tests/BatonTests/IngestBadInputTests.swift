import Baton
import Testing

/// A schema with non-null fields at every level, lists of non-null items, and every scalar kind.
private let sdl = """
    type Query { character(id: ID!): Character, hero: Hero!, count: Int, ratio: Float, ids: [ID!], search: [Result] }
    union Result = Character | Episode
    type Character {
      id: ID!
      name: String!
      nickname: String
      age: Int
      weight: Float
      alive: Boolean
      status: Status
      tags: [String!]
      matrix: [[Int!]]
      meta: JSON
      location: Location
      episodes: [Episode!]
      friends: [Character]
    }
    type Hero { id: ID!, name: String!, sidekick: Hero }
    type Location { id: ID, name: String!, dimension: String }
    type Episode { id: ID!, name: String, code: String! }
    enum Status { ALIVE DEAD }
    scalar JSON
    """

private let schema: Schema = {
    do { return try Schema.parse(sdl) } catch { fatalError("bad input schema: \(error)") }
}()

/// Everything `Character` has, one level down for its objects.
private let screen: Plan = {
    do {
        return try Plan.build(document: """
            query Screen($id: ID!) {
              character(id: $id) {
                id name nickname age weight alive status tags matrix meta
                location { id name dimension }
                episodes { id name code }
                friends { id name }
              }
            }
            """, schema: schema)
    } catch {
        fatalError("screen: \(error)")
    }
}()

private let one: [String: JSONValue] = ["id": .string("1")]

/// Normalizes `json` for the screen, with `$id` = "1".
private func normalize(_ json: String, _ plan: Plan = screen, _ variables: [String: JSONValue] = one) throws -> ChangeSet {
    try Ingest.normalize(plan: plan, variables: try plan.variables(variables), response: Array(json.utf8))
}

/// Normalizes raw bytes for the screen.
private func normalize(bytes: [UInt8]) throws -> ChangeSet {
    try Ingest.normalize(plan: screen, variables: try screen.variables(one), response: bytes)
}

/// The error ingest throws for `json`, or `nil` (recorded as an issue) when it accepts it.
private func refusal(_ json: String, _ plan: Plan = screen, _ variables: [String: JSONValue] = one) -> IngestError? {
    refusal(bytes: Array(json.utf8), plan, variables)
}

private func refusal(bytes: [UInt8], _ plan: Plan = screen, _ variables: [String: JSONValue] = one) -> IngestError? {
    do {
        _ = try Ingest.normalize(plan: plan, variables: try plan.variables(variables), response: bytes)
        Issue.record("accepted \(String(decoding: bytes, as: UTF8.self))")
        return nil
    } catch let error as IngestError {
        return error
    } catch {
        Issue.record("unexpected error \(error)")
        return nil
    }
}

/// `{"data":{"character":{…}}}` around `members` (a fragment of JSON object members).
private func character(_ members: String) -> String {
    #"{"data":{"character":{"# + members + "}}}"
}

@Suite("Bad input: a member given twice")
struct DuplicateMemberTests {
    @Test("a member given twice is refused at its path, whichever member and however it is spelled", arguments: [
        (#""id":"1","id":"2","name":"Rick""#, "character.id"),
        (#""id":"1","name":"Rick","name":"Morty""#, "character.name"),
        (#""name":"Rick","id":"1","nickname":null,"nickname":"R""#, "character.nickname"),
        (#""id":"1","name":"Rick","\u0069d":"2""#, "character.id"),
        (#""id":"1","name":"Rick","location":{"id":"3","name":"Earth","name":"Mars"}"#, "character.location.name"),
        (#""id":"1","name":"Rick","episodes":[{"id":"e1","code":"S1"},{"id":"e2","code":"S1","id":"e3"}]"#, "character.episodes.1.id"),
        (#""id":"1","name":"Rick","unselected":1,"unselected":2"#, "character.unselected"),
        (#""id":"1","name":"Rick","extra":1,"other":[],"extra":{}"#, "character.extra"),
        (#""id":"1","name":"Rick","x":1,"\u0078":2"#, "character.x"),
        (#""location":{"name":"a","dimension":"b","dimension":"c"},"id":"1","name":"Rick""#, "character.location.dimension"),
    ])
    func refused(members: String, path: String) {
        let error = refusal(character(members))
        guard case .duplicateMember? = error?.kind else {
            Issue.record("wrong error: \(String(describing: error))")
            return
        }
        #expect(error?.dottedPath == path)
    }

    @Test("data, errors or any top-level member given twice is refused")
    func topLevel() {
        for json in [
            #"{"data":{"character":null},"data":{"character":{"id":"2","name":"x"}}}"#,
            #"{"data":null,"errors":[{"message":"a"}],"errors":[]}"#,
            #"{"extensions":{},"data":null,"extensions":{}}"#,
        ] {
            guard case .duplicateMember? = refusal(json)?.kind else {
                Issue.record("accepted or wrong error: \(json)")
                continue
            }
        }
    }

    @Test("two top-level names that spell one character two ways are two names (bytes count, as in every other object)")
    func topLevelSpellings() throws {
        // "café" precomposed and with a combining accent: Swift's == calls them equal.
        let json = #"{"data":{"character":null},"caf\u00e9":1,"cafe\u0301":2}"#
        let changes = try normalize(bytes: Array(json.utf8))
        #expect(changes.records.map(\.key.rawValue) == ["client:root"])
    }

    @Test("the same name in different objects, or in a custom scalar's object twice, is not a duplicate of the other")
    func sameNameElsewhere() throws {
        let changes = try normalize(character(#""id":"1","name":"Rick","location":{"id":"1","name":"Rick"},"meta":{"id":1,"nested":{"id":2}}"#))
        #expect(changes.records.map(\.key.rawValue) == ["client:root", "Character:1", "Location:1"])
    }

    @Test("a custom scalar's object with a member given twice is refused (its meaning is open, RFC 8259 §4)")
    func insideCustomScalar() {
        let error = refusal(character(#""id":"1","name":"Rick","meta":{"a":1,"a":2}"#))
        guard case .malformedJSON(let json)? = error?.kind else {
            Issue.record("wrong error: \(String(describing: error))")
            return
        }
        #expect(json.reason == .duplicateKey("a"))
        #expect(error?.dottedPath == "character.meta")
    }

    @Test("an error object with a member given twice is refused")
    func insideErrors() {
        guard case .malformedJSON? = refusal(#"{"data":null,"errors":[{"message":"a","message":"b"}]}"#)?.kind else {
            Issue.record("accepted a repeated message")
            return
        }
    }

    @Test("past 64 selected fields, a member given twice is still found")
    func wideObject() throws {
        let names = (0..<70).map { "f\($0)" }
        let wide = try Schema.parse("type Query { o: O } type O { " + names.map { "\($0): Int" }.joined(separator: " ") + " }")
        let plan = try Plan.build(document: "{ o { " + names.joined(separator: " ") + " } }", schema: wide)
        let members = names.map { "\"\($0)\":1" }.joined(separator: ",")
        #expect(try normalize(#"{"data":{"o":{"# + members + "}}}", plan, [:]).records.count == 2)
        for repeated in ["f0", "f63", "f64", "f69"] {
            let error = refusal(#"{"data":{"o":{"# + members + ",\"\(repeated)\":2}}}", plan, [:])
            #expect(error?.kind == .duplicateMember(repeated))
            #expect(error?.dottedPath == "o." + repeated)
        }
    }
}

@Suite("Bad input: UTF-8")
struct UTF8Tests {
    /// The screen's response with `bytes` spliced in as a string's body, where `place` says.
    static func response(_ place: String, _ body: [UInt8]) -> [UInt8] {
        let quoted: [UInt8] = [0x22] + body + [0x22]
        let before: String
        let after: String
        switch place {
        case "key":
            before = #"{"data":{"character":{"id":"1","name":"Rick","#
            after = #":1}}}"#
        case "selected":
            before = #"{"data":{"character":{"id":"1","name":"#
            after = "}}}"
        case "unselected":
            before = #"{"data":{"character":{"id":"1","name":"Rick","bio":"#
            after = "}}}"
        case "deep unselected":
            before = #"{"data":{"character":{"id":"1","name":"Rick","more":{"list":[1,{"x":"#
            after = "}]}}}}"
        case "custom scalar":
            before = #"{"data":{"character":{"id":"1","name":"Rick","meta":{"k":"#
            after = "}}}}"
        case "extensions":
            before = #"{"extensions":{"trace":"#
            after = #"},"data":{"character":null}}"#
        case "error message":
            before = #"{"data":{"character":null},"errors":[{"message":"#
            after = "}]}"
        default:
            before = #"{"data":{"character":{"id":"1","name":"Rick","location":{"id":"5","name":"x","dim\u0065nsion":"#
            after = "}}}}"
        }
        return Array(before.utf8) + quoted + Array(after.utf8)
    }

    static let places = [
        "key", "selected", "unselected", "deep unselected", "custom scalar", "extensions", "error message", "nested",
    ]

    static let invalid: [[UInt8]] = [
        [0xFF], [0x80], [0x41, 0xC3], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80],
        [0xED, 0xBF, 0xBF], [0xF0, 0x80, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
        [0xE2, 0x82], [0xE2, 0x28, 0xA1], [0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0xFE, 0x68],
    ]

    static let loneSurrogates = [#"\ud800"#, #"\udc00"#, #"\uD83D\u0041"#, #"a\uDBFFb"#, #"\uDFFF\uD800"#]

    @Test("invalid UTF-8 is refused anywhere in the response", arguments: places)
    func invalidBytes(place: String) {
        for body in Self.invalid {
            let error = refusal(bytes: Self.response(place, body))
            guard case .malformedJSON(let json)? = error?.kind else {
                Issue.record("\(place) \(body): wrong error \(String(describing: error))")
                continue
            }
            #expect(json.reason == .invalidUTF8, "\(place) \(body)")
        }
    }

    @Test("a lone surrogate in a \\u escape is refused anywhere in the response", arguments: places)
    func loneSurrogate(place: String) {
        for escape in Self.loneSurrogates {
            let error = refusal(bytes: Self.response(place, Array(escape.utf8)))
            guard case .malformedJSON(let json)? = error?.kind else {
                Issue.record("\(place) \(escape): wrong error \(String(describing: error))")
                continue
            }
            #expect(json.reason == .invalidUnicodeEscape, "\(place) \(escape)")
        }
    }

    @Test("valid UTF-8 of every length, and surrogate pairs, pass everywhere", arguments: places)
    func validText(place: String) throws {
        for text in ["é", "日本語", "😀", "a😀b", "\u{10FFFF}", "\u{FFFD}", "plain ascii text, long enough"] {
            _ = try normalize(bytes: Self.response(place, Array(text.utf8)))
        }
        _ = try normalize(bytes: Self.response(place, Array(#"\uD83D\uDE00"#.utf8)))
    }

    /// Strings that ingest passes over first and reads when it comes back: members before an
    /// object's id, and members before the `__typename` of an object of a union.
    static let revisited: [(Plan?, String, String)] = [
        (nil, #"{"data":{"character":{"location":{"id":"5","name":"#, #"},"id":"1","name":"R"}}}"#),
        (nil, #"{"data":{"character":{"location":{"id":"5","name":"x","extra":"#, #"},"id":"1","name":"R"}}}"#),
        (nil, #"{"data":{"character":{"friends":[{"id":"2","name":"x"},{"name":"#, #","id":"3"}],"id":"1","name":"R"}}}"#),
        (search, #"{"data":{"search":[{"name":"#, #","__typename":"Episode","id":"e","code":"c"}]}}"#),
        (search, #"{"data":{"search":[{"bio":"#, #","__typename":"Episode","id":"e","code":"c"}]}}"#),
    ]

    static let search: Plan = {
        do {
            return try Plan.build(document: "{ search { __typename ... on Episode { id name code } } }", schema: schema)
        } catch {
            fatalError("search: \(error)")
        }
    }()

    @Test("strings passed over before an object's id or __typename are checked when ingest comes back to them")
    func revisitedStrings() throws {
        for (plan, before, after) in Self.revisited {
            let plan = plan ?? screen
            let variables = plan === screen ? one : [:]
            for body in Self.invalid {
                let bytes = Array(before.utf8) + [0x22] + body + [0x22] + Array(after.utf8)
                let error = refusal(bytes: bytes, plan, variables)
                guard case .malformedJSON(let json)? = error?.kind else {
                    Issue.record("\(before) \(body): wrong error \(String(describing: error))")
                    continue
                }
                #expect(json.reason == .invalidUTF8)
            }
            let good = Array(before.utf8) + Array("\"é😀\"".utf8) + Array(after.utf8)
            _ = try Ingest.normalize(plan: plan, variables: try plan.variables(variables), response: good)
        }
    }

    @Test("the error says where: the byte and the path")
    func where_() throws {
        let bytes = Self.response("selected", [0x52, 0xFF])
        let error = try #require(refusal(bytes: bytes))
        #expect(error.dottedPath == "character.name")
        #expect(error.offset == bytes.firstIndex(of: 0xFF))
    }
}

@Suite("Bad input: null in a non-null position")
@MainActor
struct NonNullTests {
    /// The record source a store holds after committing `json` for the screen.
    func records(_ json: String) throws -> String {
        let store = Store(configuration: .init(collectsAutomatically: false))
        store.commit(try normalize(json))
        return store.recordSource()
    }

    @Test("refused, naming the path and the type, when no error names it", arguments: [
        (character(#""id":"1","name":null"#), "character.name", "String!"),
        (character(#""id":null,"name":"Rick""#), "character.id", "ID!"),
        (character(#""id":"1","name":"Rick","tags":["a",null]"#), "character.tags.1", "String!"),
        (character(#""id":"1","name":"Rick","matrix":[[1],[2,null]]"#), "character.matrix.1.1", "Int!"),
        (character(#""id":"1","name":"Rick","episodes":[{"id":"e1","code":"a"},{"id":"e2","code":"b"},null]"#), "character.episodes.2", "Episode!"),
        (character(#""id":"1","name":"Rick","episodes":[{"id":"e1","code":"a"},{"id":"e2","code":null}]"#), "character.episodes.1.code", "String!"),
        (character(#""id":"1","name":"Rick","location":{"name":null}"#), "character.location.name", "String!"),
        (character(#""id":"1","name":"Rick","friends":[{"id":"2","name":"Morty"},{"name":null,"id":"3"}]"#), "character.friends.1.name", "String!"),
    ])
    func refused(json: String, path: String, type: String) {
        let error = refusal(json)
        #expect(error?.kind == .nullInNonNullPosition(type: type))
        #expect(error?.dottedPath == path)
    }

    @Test("an error that names another place does not excuse it")
    func errorElsewhere() {
        let json = #"{"data":{"character":{"id":"1","name":null}},"errors":[{"message":"x","path":["character","nickname"]}]}"#
        #expect(refusal(json)?.dottedPath == "character.name")
    }

    @Test("with an error naming it (or a place under it), read as if the server had propagated it", arguments: [
        // The null, then the response a server following the spec sends.
        (character(#""id":"1","name":null,"age":3"#), #"["character","name"]"#,
         #"{"data":{"character":null}}"#),
        (character(#""id":"1","name":"Rick","tags":["a",null]"#), #"["character","tags",1]"#,
         character(#""id":"1","name":"Rick","tags":null"#)),
        (character(#""id":"1","name":"Rick","matrix":[[1],[2,null],[3]]"#), #"["character","matrix",1,1]"#,
         character(#""id":"1","name":"Rick","matrix":[[1],null,[3]]"#)),
        (character(#""id":"1","name":"Rick","location":{"id":"5","name":null,"dimension":"C-137"},"age":70"#), #"["character","location","name"]"#,
         character(#""id":"1","name":"Rick","location":null,"age":70"#)),
        (character(#""id":"1","name":"Rick","episodes":[{"id":"e1","code":"a"},{"id":"e2","code":null}],"age":70"#), #"["character","episodes",1,"code"]"#,
         character(#""id":"1","name":"Rick","episodes":null,"age":70"#)),
        (character(#""id":"1","name":"Rick","friends":[{"id":"2","name":"Morty"},{"id":"3","name":null}]"#), #"["character","friends",1,"name"]"#,
         character(#""id":"1","name":"Rick","friends":[{"id":"2","name":"Morty"},null]"#)),
        // The null before the object's id: its key is not known yet when the null is met.
        (character(#""friends":[{"name":null,"id":"3"},{"id":"2","name":"Morty"}],"name":"Rick","id":"1""#), #"["character","friends",0,"name"]"#,
         character(#""friends":[null,{"id":"2","name":"Morty"}],"name":"Rick","id":"1""#)),
        // An error on a field under the null (a server that stopped propagating half way).
        (character(#""id":"1","name":"Rick","episodes":[null]"#), #"["character","episodes",0,"code"]"#,
         character(#""id":"1","name":"Rick","episodes":null"#)),
    ] as [(String, String, String)])
    func propagated(json: String, path: String, conforming: String) throws {
        let errors = #","errors":[{"message":"failed","path":"# + path + "}]}"
        let withError = String(json.dropLast()) + errors
        let conformingWithError = String(conforming.dropLast()) + errors
        #expect(try records(withError) == records(conformingWithError))
    }

    @Test("several nulls, each named, are all propagated in one go; one not named refuses the response")
    func several() throws {
        let json = character(#"""
            "id":"1","name":"Rick","tags":[null],"location":{"name":null,"id":"9"},
            "friends":[{"id":"2","name":null},{"id":"3","name":"Summer"},{"name":null,"id":"4"}]
            """#)
        let named = #","errors":[{"message":"a","path":["character","tags",0]},{"message":"b","path":["character","location","name"]},"#
            + #"{"message":"c","path":["character","friends",0,"name"]},{"message":"d","path":["character","friends",2,"name"]}]}"#
        let conforming = character(#""id":"1","name":"Rick","tags":null,"location":null,"friends":[null,{"id":"3","name":"Summer"},null]"#)
        #expect(try records(String(json.dropLast()) + named) == records(String(conforming.dropLast()) + named))
        let missingOne = #","errors":[{"message":"a","path":["character","tags",0]},{"message":"b","path":["character","location","name"]},"#
            + #"{"message":"d","path":["character","friends",2,"name"]}]}"#
        #expect(refusal(String(json.dropLast()) + missingOne)?.dottedPath == "character.friends.0.name")
    }

    @Test("what a propagated null replaces keeps the rules too, whatever the order of its members")
    func replacedValuesChecked() throws {
        let error = #","errors":[{"message":"a","path":["character","location","name"]}]}"#
        // A value of the wrong kind, before and after the null.
        for members in [#"{"name":null,"id":7.5}"#, #"{"id":7.5,"name":null}"#] {
            let json = character(#""id":"1","name":"Rick","location":"# + members)
            #expect(refusal(String(json.dropLast()) + error)?.dottedPath == "character.location.id", "\(members)")
        }
        // A selected id left out, before and after the null.
        for members in [#"{"name":null}"#, #"{"name":null,"dimension":"C-137"}"#] {
            let json = character(#""id":"1","name":"Rick","location":"# + members)
            #expect(refusal(String(json.dropLast()) + error)?.dottedPath == "character.location", "\(members)")
        }
        let fine = character(#""id":"1","name":"Rick","location":{"name":null,"id":"9"}"#)
        let read = try normalize(bytes: Array((String(fine.dropLast()) + error).utf8))
        #expect(read.records.contains { $0.key.rawValue == "Location:9" } == false)
    }

    @Test("a null with no nullable position above it makes data null")
    func reachesData() throws {
        let plan = try Plan.build(document: "{ hero { id name sidekick { id name } } }", schema: schema)
        let json = #"{"data":{"hero":{"id":"1","name":null}},"errors":[{"message":"x","path":["hero","name"]}]}"#
        let changes = try normalize(json, plan, [:])
        #expect(changes.records.isEmpty)
        #expect(changes.unplacedErrors.map(\.path) == ["hero.name"])
        // A nullable sidekick stops it there.
        let nested = #"{"data":{"hero":{"id":"1","name":"A","sidekick":{"id":"2","name":null}}},"errors":[{"message":"x","path":["hero","sidekick","name"]}]}"#
        let kept = try normalize(nested, plan, [:])
        #expect(kept.records.map(\.key.rawValue) == ["client:root", "Hero:1"])
        #expect(kept.value("Hero:1", "sidekick") == .null)
        #expect(refusal(#"{"data":{"hero":{"id":"1","name":null}}}"#, plan, [:])?.dottedPath == "hero.name")
    }

    @Test("nulls where the type allows them pass as they did")
    func nullable() throws {
        let changes = try normalize(character(#"""
            "id":"1","name":"Rick","nickname":null,"age":null,"tags":null,"matrix":[null,[1]],
            "location":null,"episodes":null,"friends":[null,{"id":"2","name":"M"}],"meta":null
            """#))
        #expect(changes.value("Character:1", "friends") == .links([nil, RecordKey("Character:2")]))
        #expect(changes.value("Character:1", "matrix") == .list([.null, .list([.int(1)])]))
        let pathKeyed = try normalize(character(#""id":"1","name":"Rick","location":{"id":null,"name":"Nowhere"}"#))
        #expect(pathKeyed.value("Character:1:location", "name") == .string("Nowhere"))
    }
}

@Suite("Bad input: numbers and kinds")
struct NumberAndKindTests {
    @Test("Int is a whole number in 32 bits, however JSON writes it", arguments: [
        ("2147483647", 2_147_483_647), ("-2147483648", -2_147_483_648), ("0", 0), ("-0", 0), ("1.0", 1),
        ("1e2", 100), ("1.50e1", 15), ("-2.0E+1", -20), ("214748364.7e1", 2_147_483_647),
    ])
    func intAccepted(text: String, value: Int) throws {
        #expect(try normalize(character(#""id":"1","name":"R","age":"# + text)).value("Character:1", "age") == .int(value))
    }

    @Test("an Int outside 32 bits, or with a fraction, is refused naming the number and the path", arguments: [
        "2147483648", "-2147483649", "4294967296", "9223372036854775807", "9223372036854775808", "1e10", "1.5",
        "0.1", "1e-1", "-2147483648.5",
    ])
    func intRefused(text: String) {
        let error = refusal(character(#""id":"1","name":"R","age":"# + text))
        #expect(error?.kind == .wrongType(expected: "an Int (a whole number in 32 bits)", found: text))
        #expect(error?.dottedPath == "character.age")
    }

    @Test("inside lists too, with the index in the path")
    func intInAList() {
        let error = refusal(character(#""id":"1","name":"R","matrix":[[1,2],[3,3000000000]]"#))
        #expect(error?.dottedPath == "character.matrix.1.1")
    }

    @Test("Float takes integers, and integers too large for Int")
    func float() throws {
        let changes = try normalize(character(#""id":"1","name":"R","weight":2"#))
        #expect(changes.value("Character:1", "weight") == .double(2))
        #expect(try normalize(character(#""id":"1","name":"R","weight":12345678901234567890123"#)).value("Character:1", "weight")
            == .double(1.2345678901234567890123e22))
    }

    @Test("a value of another kind than the field's is refused, naming what was expected and found", arguments: [
        (#""age":"3""#, "character.age", "an Int (a whole number in 32 bits)", "a string"),
        (#""age":true"#, "character.age", "an Int (a whole number in 32 bits)", "a boolean"),
        (#""age":{}"#, "character.age", "an Int (a whole number in 32 bits)", "an object"),
        (#""weight":"1.5""#, "character.weight", "a Float (a number)", "a string"),
        (#""nickname":5"#, "character.nickname", "a String", "a number"),
        (#""nickname":false"#, "character.nickname", "a String", "a boolean"),
        (#""nickname":["a"]"#, "character.nickname", "a String", "a list"),
        (#""alive":"true""#, "character.alive", "a Boolean", "a string"),
        (#""alive":1"#, "character.alive", "a Boolean", "a number"),
        (#""status":1"#, "character.status", "an enum value (a string)", "a number"),
        (#""status":{"v":"ALIVE"}"#, "character.status", "an enum value (a string)", "an object"),
        (#""tags":"a""#, "character.tags", "a list", "a string"),
        (#""tags":[1]"#, "character.tags.0", "a String", "a number"),
        (#""location":"Earth""#, "character.location", "an object", "a string"),
        (#""location":[]"#, "character.location", "an object", "a list"),
        (#""episodes":{"id":"e"}"#, "character.episodes", "a list", "an object"),
        (#""friends":[true]"#, "character.friends.0", "an object", "a boolean"),
    ])
    func wrongKind(member: String, path: String, expected: String, found: String) {
        let error = refusal(character(#""id":"1","name":"R","# + member))
        #expect(error?.kind == .wrongType(expected: expected, found: found))
        #expect(error?.dottedPath == path)
    }

    @Test("an id of an unexpected type is refused", arguments: [
        (#"true"#, "a boolean"), (#"1.5"#, "1.5"), (#"1e3"#, "1e3"), (#"{}"#, "an object"), (#"[]"#, "a list"),
    ])
    func idKind(json: String, found: String) {
        let error = refusal(character(#""name":"R","id":"# + json))
        #expect(error?.kind == .wrongType(expected: "an ID (a string or an integer)", found: found))
        #expect(error?.dottedPath == "character.id")
    }

    @Test("an integer id is its digits as written, even past Int")
    func integerIDs() throws {
        #expect(try normalize(character(#""name":"R","id":42"#)).keys.contains("Character:42"))
        #expect(try normalize(character(#""name":"R","id":98765432109876543210"#)).keys.contains("Character:98765432109876543210"))
    }
}

/// Responses ingest refuses, one of each kind.
private let refusedResponses: [String] = [
    character(#""id":"1","id":"2","name":"Morty""#),
    character(#""id":"1","name":"Morty","name":"Summer""#),
    character(#""id":"1","name":null"#),
    character(#""id":"1","name":"Morty","age":2147483648"#),
    character(#""id":"1","name":"Morty","age":0.5"#),
    character(#""id":"1","name":"Morty","alive":"yes""#),
    character(#""id":true,"name":"Morty""#),
    character(#""id":"1","name":"Morty","bio":"\udc00""#),
    character(#""id":"1","name":"Morty","episodes":[{"id":"e9","code":"x"},null]"#),
    #"{"data":{"character":{"id":"1","name":"Morty"}},"data":null}"#,
]

@Suite("Bad input: a refused response leaves the store as it was")
@MainActor
struct RefusedResponseTests {
    @Test("nothing is committed: ingest throws before there is a change set", arguments: refusedResponses)
    func unchanged(json: String) throws {
        let store = Store(configuration: .init(collectsAutomatically: false))
        store.commit(try normalize(character(#""id":"1","name":"Rick","age":70,"episodes":[{"id":"e1","code":"S01E01"}]"#)))
        let before = store.recordSource()
        do {
            store.commit(try normalize(json))
            Issue.record("accepted \(json)")
        } catch is IngestError {
        }
        #expect(store.recordSource() == before)
    }

    @Test("the same bytes with invalid UTF-8 leave it as it was too")
    func invalidBytes() throws {
        let store = Store(configuration: .init(collectsAutomatically: false))
        store.commit(try normalize(character(#""id":"1","name":"Rick""#)))
        let before = store.recordSource()
        var bytes = Array(character(#""id":"1","name":"Morty","nickname":"xx""#).utf8)
        bytes[bytes.count - 6] = 0xC0
        #expect(throws: IngestError.self) { store.commit(try normalize(bytes: bytes)) }
        #expect(store.recordSource() == before)
    }
}
