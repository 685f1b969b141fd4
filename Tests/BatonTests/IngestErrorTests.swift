import Testing
import Baton

private typealias B = Build

/// `character { id name image location { id name } episodes { id name } }`
private let plan = B.query([
    B.object("character", "Character", [
        B.leaf("id", .id), B.leaf("name"), B.leaf("image"),
        B.object("location", "Location", [B.leaf("id", .id), B.leaf("name")]),
        B.object("episodes", "Episode", list: 1, [B.leaf("id", .id), B.leaf("name")]),
    ]),
])

@Suite("Ingest: field errors")
struct IngestFieldErrorTests {
    @Test func errorLandsOnTheLeafItNames() throws {
        let changes = try ingest(plan, #"""
            {"data":{"character":{"id":"1","name":"Rick","image":null}},
             "errors":[{"message":"image service unavailable","path":["character","image"],"locations":[{"line":1,"column":1}]}]}
            """#)
        let cell = try #require(changes.cell("Character:1", "image"))
        #expect(cell.value == .null)
        #expect(cell.errors == [FieldError(
            message: "image service unavailable", path: "character.image", otherMembers: #"{"locations":[{"column":1,"line":1}]}"#)])
        #expect(changes.cell("Character:1", "name")?.errors.isEmpty == true)
        #expect(changes.unplacedErrors.isEmpty)
    }

    @Test func errorLandsOnANestedField() throws {
        let changes = try ingest(plan, #"""
            {"data":{"character":{"id":"1","location":{"id":"20","name":null}}},
             "errors":[{"message":"redacted","path":["character","location","name"],"extensions":{"code":"FORBIDDEN","at":{"b":1,"a":2}}}]}
            """#)
        let cell = try #require(changes.cell("Location:20", "name"))
        #expect(cell.errors.first?.path == "character.location.name")
        #expect(cell.errors.first?.extensions == #"{"at":{"a":2,"b":1},"code":"FORBIDDEN"}"#)
    }

    @Test func errorThroughAListIndexLandsOnThatElement() throws {
        let changes = try ingest(plan, #"""
            {"data":{"character":{"id":"1","episodes":[{"id":"e1","name":"Pilot"},{"id":"e2","name":null}]}},
             "errors":[{"message":"no name","path":["character","episodes",1,"name"]}]}
            """#)
        #expect(changes.cell("Episode:e2", "name")?.errors.first?.path == "character.episodes.1.name")
        #expect(changes.cell("Episode:e1", "name")?.errors.isEmpty == true)
    }

    @Test func trailingIndicesLandOnTheListField() throws {
        let changes = try ingest(plan, #"""
            {"errors":[{"message":"forbidden","path":["character","episodes",1]}],
             "data":{"character":{"id":"1","episodes":[{"id":"e1","name":"Pilot"},null]}}}
            """#)
        let cell = try #require(changes.cell("Character:1", "episodes"))
        #expect(cell.value == .links([RecordKey("Episode:e1"), nil]))
        #expect(cell.errors.first?.message == "forbidden")
        #expect(cell.errors.first?.path == "character.episodes.1")
    }

    @Test func errorOnAnAbsentFieldMakesANullCell() throws {
        let changes = try ingest(plan, #"""
            {"data":{"character":{"id":"1"}},"errors":[{"message":"gone","path":["character","name"]}]}
            """#)
        #expect(changes.cell("Character:1", "name") == Cell(.null, errors: [FieldError(message: "gone", path: "character.name")]))
    }

    @Test func errorsThatNameNothingAreUnplaced() throws {
        let changes = try ingest(plan, #"""
            {"data":{"character":{"id":"1","location":null}},
             "errors":[{"message":"no path"},
                       {"message":"unknown field","path":["character","nickname"]},
                       {"message":"bad index","path":["character","episodes",0,"name"]},
                       {"message":"root","path":[]},
                       {"message":"odd path","path":["character",1.5]},
                       {"message":"into a leaf","path":["character","id","x"]},
                       "not an object"]}
            """#)
        #expect(changes.unplacedErrors.map(\.message) == [
            "no path", "unknown field", "bad index", "root", "odd path", "into a leaf", #""not an object""#,
        ])
        #expect(changes.unplacedErrors[1].path == "character.nickname")
        #expect(changes.unplacedErrors[0].path == "")
        #expect(changes.records.allSatisfy { $0.cells.values.allSatisfy { $0.errors.isEmpty } })
    }

    /// A spec server that nulls a nullable field because a non-null one below it failed keeps the
    /// failed field's path in the error: the error explains the null, and stays beside it.
    static let throughNulls = #"""
        {"data":{"character":{"id":"1","location":null,"episodes":[{"id":"10","name":"Pilot"},null]}},
         "errors":[{"message":"location's name failed","path":["character","location","name"]},
                   {"message":"episode's id failed","path":["character","episodes",1,"id"]},
                   {"message":"deeper still","path":["character","location","residents",0,"name"]}]}
        """#

    @Test func errorsThroughANullLandOnTheFieldHoldingIt() throws {
        let changes = try ingest(plan, Self.throughNulls)
        #expect(changes.cell("Character:1", "location") == Cell(.null, errors: [
            FieldError(message: "location's name failed", path: "character.location.name"),
            FieldError(message: "deeper still", path: "character.location.residents.0.name"),
        ]))
        // About the null element 1 it explains, though its path ends in a key.
        #expect(changes.cell("Character:1", "episodes")?.errors == [
            FieldError(message: "episode's id failed", path: "character.episodes.1.id", elementIndices: [1])])
        #expect(changes.cell("Character:1", "location")?.errors.map(\.elementIndices) == [[], []])
        #expect(changes.cell("Episode:10", "id")?.errors.isEmpty == true)
        #expect(changes.unplacedErrors.isEmpty)
    }

    #if BATON_MUTANTS
    @Test func errorElementForgottenMutantKeepsOnlyTrailingIndices() throws {
        let changes = try Ingest.normalize(
            plan: plan, variables: Variables([:]), response: Array(Self.throughNulls.utf8), mutant: .errorElementForgotten)
        #expect(changes.cell("Character:1", "episodes")?.errors.map(\.elementIndices) == [[]])
    }

    @Test func errorsUnderNullUnplacedMutantLosesThem() throws {
        let changes = try Ingest.normalize(
            plan: plan, variables: Variables([:]), response: Array(Self.throughNulls.utf8), mutant: .errorsUnderNullUnplaced)
        #expect(changes.unplacedErrors.count == 3)
        #expect(changes.cell("Character:1", "location")?.errors.isEmpty == true)
    }
    #endif

    @Test func dataNullWithErrorsMakesNoRecords() throws {
        let changes = try ingest(plan, #"{"data":null,"errors":[{"message":"boom","path":["character"]}]}"#)
        #expect(changes.records.isEmpty)
        #expect(changes.unplacedErrors == [FieldError(message: "boom", path: "character")])
        #expect(changes.operation == OperationIdentity("Test{}"))
    }

    @Test func errorsWithoutDataMakeNoRecords() throws {
        let changes = try ingest(plan, #"{"errors":[{"message":"unauthenticated","extensions":{"code":401}}]}"#)
        #expect(changes.records.isEmpty)
        #expect(changes.unplacedErrors == [FieldError(message: "unauthenticated", path: "", extensions: #"{"code":401}"#)])
    }

    @Test func nullPartOfAListStillTakesErrorsOnOtherElements() throws {
        // The shape of GitHub's search_forbidden.json: a null element and an error on its index.
        let search = B.query([
            B.object("assignments", "Connection", [
                B.object("nodes", "Assignable", list: 1, abstract: true, [
                    B.typename(), B.on(["Issue", "PullRequest"], [B.leaf("title"), B.leaf("number", .int)]),
                ]),
            ]),
        ])
        let changes = try ingest(search, #"""
            {"data":{"assignments":{"nodes":[{"__typename":"PullRequest","title":"Pin","number":5272},null,
                                             {"title":"yolo","__typename":"Issue","number":1}]}},
             "errors":[{"type":"FORBIDDEN","path":["assignments","nodes",1],"message":"Resource not accessible"}]}
            """#)
        let nodes = try #require(changes.cell("client:root:assignments", "nodes"))
        #expect(nodes.value == .links([
            RecordKey("client:root:assignments:nodes:0"), nil, RecordKey("client:root:assignments:nodes:2"),
        ]))
        #expect(nodes.errors.map(\.path) == ["assignments.nodes.1"])
        #expect(changes.record("client:root:assignments:nodes:2")?.typename == "Issue")
        #expect(changes.value("client:root:assignments:nodes:0", "number") == .int(5272))
    }

    @Test func everyErrorOnOneFieldIsKeptInTheResponsesOrder() throws {
        // The GitHub CLI's search response: items 1 and 3 of one list forbidden (format 3 kept
        // only the second), and one field asked for under two aliases that both failed.
        let search = B.query([
            B.object("assignments", "Connection", [
                B.object("nodes", "Assignable", list: 1, abstract: true, [B.typename(), B.on(["Issue"], [B.leaf("title")])]),
            ]),
            B.object("viewer", "User", [B.leaf("id"), B.leaf("a", name: "login"), B.leaf("b", name: "login")]),
        ])
        let changes = try ingest(search, #"""
            {"data":{"assignments":{"nodes":[{"__typename":"Issue","title":"A"},null,{"__typename":"Issue","title":"B"},null]},
                     "viewer":{"id":"u1","a":null,"b":null}},
             "errors":[{"message":"forbidden 3","path":["assignments","nodes",3],"extensions":{"type":"FORBIDDEN"}},
                       {"message":"no login","path":["viewer","b"]},
                       {"message":"forbidden 1","path":["assignments","nodes",1]},
                       {"message":"no login","path":["viewer","a"]}]}
            """#)
        let nodes = try #require(changes.cell("client:root:assignments", "nodes"))
        #expect(nodes.errors == [
            FieldError(message: "forbidden 3", path: "assignments.nodes.3", extensions: #"{"type":"FORBIDDEN"}"#),
            FieldError(message: "forbidden 1", path: "assignments.nodes.1"),
        ])
        #expect(changes.cell("User:u1", "login")?.errors.map(\.path) == ["viewer.b", "viewer.a"])
    }
}

@Suite("Ingest: refused responses")
struct IngestRefusalTests {
    @Test("malformed JSON throws", arguments: [
        #"{"data":{"character":{"id":"1",}}}"#,
        #"{"data":{"character":{"id":"1"}}"#,
        #"{"data":{"character":{"id":"1"}}} trailing"#,
        #"{"data":{"character":{"id":"1","name":"a\qb"}}}"#,
        #"{"data":{"character":{"id":"1","extra":[1,2}}}"#,
        #"{"data":{"character":{"id":"1"}},"errors":[{"message":"x"]}"#,
        "{\"data\":{\"character\":{\"id\":\"1\",\"name\":\"line\nbreak\"}}}",
        "",
    ])
    func malformedJSON(json: String) {
        let error = ingestError(plan, json)
        guard case .malformedJSON? = error?.kind else {
            Issue.record("expected malformed JSON, got \(String(describing: error))")
            return
        }
    }

    @Test func malformedJSONNamesWhereItWas() {
        let error = ingestError(plan, #"{"data":{"character":{"id":"1","episodes":[{"id":"e","name":nul}]}}}"#)
        #expect(error?.dottedPath == "character.episodes.0.name")
        #expect(error?.description.contains("line 1") == true, "\(String(describing: error))")
    }

    @Test("a response that is not an object throws", arguments: ["[]", "null", "\"data\"", "42"])
    func notAnObject(json: String) {
        #expect(ingestError(plan, json)?.kind == .notAnObject)
    }

    @Test func noDataAndNoErrorsThrows() {
        #expect(ingestError(plan, "{}")?.kind == .noData)
        #expect(ingestError(plan, #"{"errors":[],"extensions":{}}"#)?.kind == .noData)
    }

    @Test func dataOfTheWrongTypeThrows() {
        guard case .wrongType? = ingestError(plan, #"{"data":[1]}"#)?.kind else {
            Issue.record("accepted a list for data")
            return
        }
    }

    @Test("a scalar of the wrong type throws, naming the path", arguments: [
        (B.leaf("n", .int), #""1""#), (B.leaf("n", .int), "1.5"), (B.leaf("n", .int), "true"),
        (B.leaf("n", .int), "1.5e0"), (B.leaf("n", .int), "99999999999999999999"),
        (B.leaf("n", .int), "2147483648"), (B.leaf("n", .int), "-2147483649"), (B.leaf("n", .int), "3e9"),
        (B.leaf("n", .id), "1e2"), (B.leaf("n", .id), "1.0"),
        (B.leaf("n", .float), #""1.5""#), (B.leaf("n", .string), "5"), (B.leaf("n", .string), "{}"),
        (B.leaf("n", .enumeration), "1"), (B.leaf("n", .boolean), "1"), (B.leaf("n", .boolean), #""true""#),
        (B.leaf("n", .id), "true"), (B.leaf("n", .id), "1.5"), (B.leaf("n", .id), "[]"),
        (B.leaf("n", .string, list: 1), #""a""#), (B.leaf("n", .string, list: 1), "[[]]"),
        (B.leaf("n", .int, list: 2), "[1]"),
    ] as [(Selection, String)])
    func wrongScalar(field: Selection, json: String) {
        let plan = B.query([B.object("o", "O", [field])])
        let error = ingestError(plan, #"{"data":{"o":{"n":"# + json + "}}}")
        guard case .wrongType? = error?.kind else {
            Issue.record("\(json) accepted or wrong error: \(String(describing: error))")
            return
        }
        #expect(error?.dottedPath.hasPrefix("o.n") == true)
    }

    @Test("a composite of the wrong shape throws", arguments: [
        (0, "[]"), (0, #""x""#), (0, "1"), (1, "{}"), (1, #"["x"]"#), (1, "[[]]"), (2, "[{}]"),
    ])
    func wrongComposite(listDepth: Int, json: String) {
        let plan = B.query([B.object("o", "O", list: listDepth, [B.leaf("name")])])
        let error = ingestError(plan, #"{"data":{"o":"# + json + "}}")
        guard case .wrongType? = error?.kind else {
            Issue.record("\(json) accepted or wrong error: \(String(describing: error))")
            return
        }
        #expect(error?.dottedPath.hasPrefix("o") == true)
    }

    @Test func wrongTypeInsideAListNamesTheIndex() {
        let plan = B.query([B.object("items", "Item", list: 1, [B.leaf("n", .int)])])
        let error = ingestError(plan, #"{"data":{"items":[{"n":1},{"n":2},{"n":"three"}]}}"#)
        #expect(error?.kind == .wrongType(expected: "an Int (a whole number in 32 bits)", found: "a string"))
        #expect(error?.dottedPath == "items.2.n")
    }
}
