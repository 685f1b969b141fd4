import Baton
import Testing

private let coercionSDL = """
    type Query {
      character(id: ID!): Character
      characters(ids: [ID!], filter: Filter, page: Int, ratio: Float, status: Status, matrix: [[Int!]], meta: JSON): [Character]
      greet(name: String! = "you"): String
    }
    type Character { id: ID!, name: String }
    enum Status { ALIVE DEAD UNKNOWN }
    scalar JSON
    input Filter { name: String, status: Status, tags: [String!], nested: Filter, required: Boolean!, withDefault: Int! = 3 }
    """

private let coercionSchema: Schema = {
    do { return try Schema.parse(coercionSDL) } catch { fatalError("coercion schema: \(error)") }
}()

/// Declares a variable of every kind and uses each.
private let every: Plan = {
    do {
        return try Plan.build(document: """
            query Every(
              $id: ID!, $ids: [ID!], $filter: Filter, $page: Int, $ratio: Float, $status: Status,
              $matrix: [[Int!]], $meta: JSON, $name: String = "x", $flag: Boolean = true
            ) {
              character(id: $id) { id name @include(if: $flag) }
              characters(ids: $ids, filter: $filter, page: $page, ratio: $ratio, status: $status, matrix: $matrix, meta: $meta) { id }
              greet(name: $name)
            }
            """, schema: coercionSchema)
    } catch {
        fatalError("every: \(error)")
    }
}()

/// The variable error for `provided` (with `$id` given unless `provided` says otherwise), or nil.
private func variableError(_ provided: [String: JSONValue], plan: Plan = every) -> String? {
    var values = provided
    if plan === every, values["id"] == nil, provided["noID"] == nil { values["id"] = .string("1") }
    values["noID"] = nil
    do {
        _ = try plan.variables(values)
        return nil
    } catch {
        return error.description
    }
}

@Suite("Variables: checked against their declarations (CoerceVariableValues)")
struct VariableCoercionTests {
    @Test("a value that does not fit names the variable, the place inside it and what was expected", arguments: [
        (["noID": .null], "$id: expected ID!, got nothing"),
        (["id": .null], "$id: expected ID!, got null"),
        (["id": .bool(true)], "$id: expected ID!, got true"),
        (["id": .double(1.5)], "$id: expected ID!, got 1.5"),
        (["id": .array([.string("1")])], #"$id: expected ID!, got ["1"]"#),
        (["page": .int(2_147_483_648)], "$page: expected Int, got 2147483648, outside Int's 32 bits"),
        (["page": .int(-2_147_483_649)], "$page: expected Int, got -2147483649, outside Int's 32 bits"),
        (["page": .double(1.5)], "$page: expected Int, got 1.5"),
        (["page": .string("1")], #"$page: expected Int, got "1""#),
        (["ratio": .string("1.5")], #"$ratio: expected Float, got "1.5""#),
        (["flag": .string("true")], #"$flag: expected Boolean, got "true""#),
        (["name": .int(1)], "$name: expected String, got 1"),
        (["status": .string("alive")], #"$status: expected Status, got "alive", which is not one of ALIVE, DEAD, UNKNOWN"#),
        (["status": .int(1)], "$status: expected Status, got 1"),
        (["filter": .string("x")], #"$filter: expected Filter, got "x""#),
        (["filter": .object([:])], "$filter.required: expected Boolean!, got nothing"),
        (["filter": .object(["required": .bool(true), "nam": .string("x")])], #"$filter.nam: Filter has no field "nam""#),
        (["filter": .object(["required": .bool(true), "status": .string("NOPE")])],
         #"$filter.status: expected Status, got "NOPE", which is not one of ALIVE, DEAD, UNKNOWN"#),
        (["filter": .object(["required": .bool(true), "nested": .object(["required": .string("yes")])])],
         #"$filter.nested.required: expected Boolean!, got "yes""#),
        (["filter": .object(["required": .bool(true), "tags": .array([.string("a"), .null])])], "$filter.tags.1: expected String!, got null"),
        (["filter": .object(["required": .bool(true), "withDefault": .null])], "$filter.withDefault: expected Int!, got null"),
        (["ids": .array([.string("1"), .null])], "$ids.1: expected ID!, got null"),
        (["ids": .array([.bool(true)])], "$ids.0: expected ID!, got true"),
        (["ids": .object([:])], "$ids: expected ID!, got {}"),
        (["matrix": .array([.array([.int(1)]), .array([.int(2), .null])])], "$matrix.1.1: expected Int!, got null"),
        (["matrix": .array([.string("x")])], #"$matrix.0: expected Int!, got "x""#),
    ] as [([String: JSONValue], String)])
    func refused(provided: [String: JSONValue], expected: String) {
        #expect(variableError(provided) == expected)
    }

    @Test("values that fit pass as they are given", arguments: [
        ["id": .int(7)], ["id": .string("7")], ["id": .double(7)], ["page": .int(2_147_483_647)], ["page": .double(3)],
        ["page": .null], ["ratio": .int(2)], ["ratio": .double(2.5)], ["status": .string("DEAD")], ["status": .null],
        ["ids": .string("1")], ["ids": .int(1)], ["ids": .array([.string("1"), .int(2)])], ["ids": .array([])],
        ["matrix": .int(3)], ["matrix": .array([.int(1), .array([.int(2)])])], ["matrix": .array([.null])],
        ["meta": .object(["anything": .array([.null, .bool(true)])])], ["meta": .string("x")],
        ["filter": .object(["required": .bool(false)])],
        ["filter": .object(["required": .bool(true), "nested": .object(["required": .bool(false), "tags": .string("t")])])],
        ["name": .null], ["flag": .bool(false)], ["undeclared": .bool(true)],
    ] as [[String: JSONValue]])
    func accepted(provided: [String: JSONValue]) {
        #expect(variableError(provided) == nil)
    }

    @Test("defaults fill what is not given; an explicit null stays; undeclared variables are dropped; values are coerced to their types")
    func values() throws {
        let variables = try every.variables(["id": .int(7), "name": .null, "extra": .int(1), "ids": .string("1")])
        // An ID given as a number stays a number (as Relay keys it); a single item for a list is
        // a list of one.
        #expect(variables.values == ["id": .int(7), "name": .null, "flag": .bool(true), "ids": .array([.string("1")])])
        let numbers = try every.variables(["id": .double(7), "page": .double(3), "ratio": .int(2), "matrix": .int(3)])
        #expect(numbers.values["id"] == .int(7))
        #expect(numbers.values["page"] == .int(3))
        #expect(numbers.values["ratio"] == .double(2))
        #expect(numbers.values["matrix"] == .array([.array([.int(3)])]))
        let defaults = try every.variables(["id": .string("1")])
        #expect(defaults.values == ["id": .string("1"), "name": .string("x"), "flag": .bool(true)])
    }

    @Test("the first variable in declaration order that does not fit is the one named")
    func order() {
        #expect(variableError(["noID": .null, "page": .string("x")]) == "$id: expected ID!, got nothing")
        #expect(variableError(["page": .string("x"), "ratio": .string("y")]) == #"$page: expected Int, got "x""#)
    }

    @Test("the error keeps the variable, the path inside it and the message apart")
    func errorParts() {
        do {
            _ = try every.variables(["id": .string("1"), "filter": .object(["required": .bool(true), "tags": .array([.null])])])
            Issue.record("accepted")
        } catch {
            #expect(error.variable == "filter")
            #expect(error.path == [.key("tags"), .index(0)])
            #expect(error.message == "expected String!, got null")
            #expect(error.place == "$filter.tags.0")
        }
    }

    @Test("a plan made by hand checks the built-in scalars and nullability; other named types take anything")
    func handMadePlan() {
        let plan = Plan(
            kind: .query, name: "Hand", rootTypename: "Query",
            variableDefinitions: [
                VariableDefinition(name: "id", type: .nonNull(.named("ID")), defaultValue: nil),
                VariableDefinition(name: "n", type: .list(.named("Int")), defaultValue: nil),
                VariableDefinition(name: "e", type: .named("SomeEnum"), defaultValue: nil),
            ],
            selections: SelectionSet([]))
        #expect(variableError([:], plan: plan) == "$id: expected ID!, got nothing")
        #expect(variableError(["id": .string("1"), "n": .array([.string("x")])], plan: plan) == #"$n.0: expected Int, got "x""#)
        #expect(variableError(["id": .string("1"), "e": .object(["any": .null])], plan: plan) == nil)
    }
}

@Suite("Variables: no path stores a field without the arguments its operation requires")
@MainActor
struct VariableIngestTests {
    static let header: Plan = {
        do {
            return try Plan.build(document: "query Header($id: ID!) { character(id: $id) { id name } }", schema: coercionSchema)
        } catch {
            fatalError("header: \(error)")
        }
    }()

    static let response = Array(#"{"data":{"character":{"id":"1","name":"Rick"}}}"#.utf8)

    @Test("{} for $id: ID! is refused by Plan.variables")
    func emptyVariables() {
        #expect(throws: VariableError(variable: "id", message: "expected ID!, got nothing")) {
            _ = try Self.header.variables([:])
        }
    }

    @Test("ingest refuses variables that were not checked against the plan's declarations; the store is unchanged")
    func uncheckedVariables() throws {
        let store = Store(configuration: .init(collectsAutomatically: false))
        let before = store.recordSource()
        do throws(IngestError) {
            store.commit(try Ingest.normalize(plan: Self.header, variables: Variables(), response: Self.response))
            Issue.record("stored character without its id")
        } catch {
            #expect(error.kind == .invalidVariables(VariableError(variable: "id", message: "expected ID!, got nothing")))
        }
        #expect(store.recordSource() == before)
        #expect(!store.recordSource().contains("character"))
    }

    @Test("variables checked by one plan are checked again by a plan that declares other variables")
    func otherPlan() throws {
        let noVariables = try Plan.build(document: "{ greet }", schema: coercionSchema)
        let unrelated = try noVariables.variables()
        #expect(throws: IngestError.self) {
            _ = try Ingest.normalize(plan: Self.header, variables: unrelated, response: Self.response)
        }
        // The same declarations: the variables are good as they are.
        let twin = try Plan.build(document: "query Twin($id: ID!) { character(id: $id) { id } }", schema: coercionSchema)
        let changes = try Ingest.normalize(plan: Self.header, variables: try twin.variables(["id": .string("1")]), response: Self.response)
        #expect(changes.records.first?.cells.keys.map(\.name) == [#"character(id:"1")"#])
        // Other declarations that the values fit: checked again, and accepted with the plan's defaults.
        let withDefault = try Plan.build(
            document: "query D($id: ID!, $name: String = \"me\") { character(id: $id) { id } greet(name: $name) }",
            schema: coercionSchema)
        let again = try Ingest.normalize(plan: withDefault, variables: try twin.variables(["id": .string("1")]), response: Self.response)
        #expect(again.operation == OperationIdentity(#"D{"id":"1","name":"me"}"#))
    }
}
