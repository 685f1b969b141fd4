import Baton
import Testing

private typealias F = GraphQLFixtures

@Suite("GraphQL storage keys through plans")
struct GraphQLStorageKeyTests {
    /// The first field under `hero` in `document`.
    private func heroField(_ document: String) throws -> (FieldSelection, Plan) {
        let plan = try F.plan(document)
        guard case .field(let hero)? = plan.selections.selections.first,
              let field = hero.selections?.fields(for: "Character", variables: try plan.variables()).first
        else { throw GraphQLError("no field under hero", at: .start) }
        return (field, plan)
    }

    /// The first root field of `document`.
    private func rootField(_ document: String) throws -> (FieldSelection, Plan) {
        let plan = try F.plan(document)
        guard let field = plan.selections.fields(for: "Query", variables: try plan.variables()).first else {
            throw GraphQLError("no root field", at: .start)
        }
        return (field, plan)
    }

    @Test("literal arguments render sorted, as canonical JSON")
    func literals() throws {
        let (field, plan) = try heroField(#"{ hero { friends(orderby: ["first name"], first: 3) { pageInfo { endCursor } } } }"#)
        #expect(field.staticStorageKey == #"friends(first:3,orderby:["first name"])"#)
        #expect(field.storageKey(try plan.variables()) == #"friends(first:3,orderby:["first name"])"#)
    }

    @Test("an absent variable argument is left out; a null one is kept, another value than absent", arguments: [
        ([String: JSONValue](), "friends(first:3)"),
        (["o": .null], "friends(first:3,orderby:null)"),
        (["o": .array([.string("a"), .null])], #"friends(first:3,orderby:["a",null])"#),
    ])
    func variableArguments(variables: [String: JSONValue], expected: String) throws {
        let (field, plan) = try heroField("query Q($o: [String]) { hero { friends(first: 3, orderby: $o) { pageInfo { endCursor } } } }")
        #expect(field.staticStorageKey == nil)
        #expect(field.storageKey(try plan.variables(variables)) == expected)
    }

    @Test("absent variables inside an input object are left out of it")
    func nestedVariables() throws {
        let (field, plan) = try rootField("query Q($n: String, $s: Status) { characters(filter: {name: $n, status: $s}) { id } }")
        #expect(field.storageKey(try plan.variables(["n": .string("Rick")])) == #"characters(filter:{"name":"Rick"})"#)
        #expect(field.storageKey(try plan.variables(["s": .string("DEAD")])) == #"characters(filter:{"status":"DEAD"})"#)
        #expect(field.storageKey(try plan.variables()) == "characters(filter:{})")
    }

    @Test("object keys are sorted and null members kept at every depth")
    func objectKeys() throws {
        let (field, _) = try rootField(#"{ characters(filter: {tags: ["x"], name: "A", status: ALIVE, nested: {tags: null, name: "B"}}) { id } }"#)
        #expect(field.staticStorageKey == #"characters(filter:{"name":"A","nested":{"name":"B","tags":null},"status":"ALIVE","tags":["x"]})"#)
    }

    @Test("an enum literal renders as a string")
    func enumLiteral() throws {
        let (field, _) = try rootField("{ characters(status: ALIVE) { id } }")
        #expect(field.staticStorageKey == #"characters(status:"ALIVE")"#)
    }

    @Test("no arguments drop the parentheses; an explicit null is an argument, another slot than none")
    func noArguments() throws {
        #expect(try rootField("{ hero { id } }").0.staticStorageKey == "hero")
        #expect(try rootField("{ characters { id } }").0.staticStorageKey == "characters")
        #expect(try rootField("{ characters(page: null) { id } }").0.staticStorageKey == "characters(page:null)")
    }

    #if BATON_MUTANTS
    @Test("under nullArgumentsDropped an explicit null and no argument are one slot again")
    func nullArgumentsDroppedMutant() throws {
        let plan = try Plan.build(
            document: "{ characters(page: null, filter: {name: null, status: ALIVE}) { id } }", schema: F.schema, mutant: .nullArgumentsDropped)
        let field = try #require(plan.selections.fields(for: "Query", variables: try plan.variables()).first)
        #expect(field.staticStorageKey == #"characters(filter:{"status":"ALIVE"})"#)
    }
    #endif

    @Test("numbers and strings render as JSON", arguments: [
        (#"{ characters(ratio: -0.5, page: -2) { id } }"#, "characters(page:-2,ratio:-0.5)"),
        (#"{ characters(ratio: 1e3) { id } }"#, "characters(ratio:1000.0)"),
        (#"{ characters(filter: {name: "a\"b\n"}) { id } }"#, #"characters(filter:{"name":"a\"b\n"})"#),
        (#"{ characters(meta: {b: [1, [2]], a: {}}) { id } }"#, #"characters(meta:{"a":{},"b":[1,[2]]})"#),
    ])
    func jsonRendering(document: String, expected: String) throws {
        #expect(try rootField(document).0.staticStorageKey == expected)
    }

    @Test("one value written two ways is one storage key, as input coercion makes it", arguments: [
        ("{ characters(ratio: 2) { id } }", "{ characters(ratio: 2.0) { id } }", "characters(ratio:2.0)"),
        (#"{ characters(ids: "1") { id } }"#, #"{ characters(ids: ["1"]) { id } }"#, #"characters(ids:["1"])"#),
        (#"{ characters(filter: {tags: "x"}) { id } }"#, #"{ characters(filter: {tags: ["x"]}) { id } }"#, #"characters(filter:{"tags":["x"]})"#),
        (#"{ characters(filter: {nested: {tags: "x"}}) { id } }"#, #"{ characters(filter: {nested: {tags: ["x"]}}) { id } }"#, #"characters(filter:{"nested":{"tags":["x"]}})"#),
    ])
    func coercedLiterals(one: String, other: String, expected: String) throws {
        #expect(try rootField(one).0.staticStorageKey == expected)
        #expect(try rootField(other).0.staticStorageKey == expected)
    }

    @Test("a custom scalar's value has no type to coerce by: it is keyed as written")
    func customScalarAsWritten() throws {
        #expect(try rootField("{ characters(meta: {ratio: 2, ids: \"1\"}) { id } }").0.staticStorageKey == #"characters(meta:{"ids":"1","ratio":2})"#)
    }

    @Test("variables are coerced to their declared types: one storage key and one operation identity")
    func coercedVariables() throws {
        let document = "query Q($r: Float, $p: Int, $i: [ID!], $f: CharacterFilter) { characters(ratio: $r, page: $p, ids: $i, filter: $f) { id } }"
        let plan = try F.plan(document)
        let written: [String: JSONValue] = ["r": .int(2), "p": .double(3), "i": .string("1"), "f": .object(["tags": .string("x")])]
        let coerced: [String: JSONValue] = ["r": .double(2), "p": .int(3), "i": .array([.string("1")]), "f": .object(["tags": .array([.string("x")])])]
        let (field, _) = try rootField(document)
        let key = #"characters(filter:{"tags":["x"]},ids:["1"],page:3,ratio:2.0)"#
        #expect(field.storageKey(try plan.variables(written)) == key)
        #expect(field.storageKey(try plan.variables(coerced)) == key)
        #expect(plan.identity(try plan.variables(written)) == plan.identity(try plan.variables(coerced)))
        #expect(try plan.variables(written).values == coerced)
    }

    #if BATON_MUTANTS
    @Test("under inputsNotCoerced the two spellings are two keys (the check above can fail)")
    func mutantKeepsSpellings() throws {
        let plan = try Plan.build(
            document: "query Q($r: Float) { characters(ratio: $r) { id } a: characters(page: 1, ratio: 2) { id } }",
            schema: F.schema, mutant: .inputsNotCoerced)
        let fields = plan.selections.fields(for: "Query", variables: try plan.variables())
        #expect(fields[0].storageKey(try plan.variables(["r": .int(2)])) == "characters(ratio:2)")
        #expect(fields[1].staticStorageKey == "characters(page:1,ratio:2)")
    }
    #endif

    @Test("the connection key keeps the filters, or every non-paging argument")
    func connectionKeys() throws {
        let document = """
            query Q($after: String, $f: CharacterFilter) {
              hero {
                all: friends(first: 10, after: $after, orderby: ["name"], filter: $f) @connection(key: "All") { edges { node { id } } pageInfo { endCursor } }
                some: friends(first: 10, after: $after, orderby: ["name"], filter: $f) @connection(key: "Some", filters: ["filter"]) { edges { node { id } } pageInfo { endCursor } }
              }
            }
            """
        let plan = try F.plan(document)
        guard case .field(let hero)? = plan.selections.selections.first, let set = hero.selections else {
            Issue.record("unexpected plan")
            return
        }
        let fields = set.fields(for: "Character", variables: try plan.variables())
        let absent = try plan.variables(["after": .string("c")])
        #expect(fields[0].connectionStorageKey(absent) == #"__All_connection(orderby:["name"])"#)
        #expect(fields[1].connectionStorageKey(absent) == "__Some_connection")
        let given = try plan.variables(["after": .string("c"), "f": .object(["name": .string("R"), "status": .null])])
        #expect(fields[0].connectionStorageKey(given) == #"__All_connection(filter:{"name":"R","status":null},orderby:["name"])"#)
        #expect(fields[1].connectionStorageKey(given) == #"__Some_connection(filter:{"name":"R","status":null})"#)
        #expect(fields[1].storageKey(given) == #"friends(after:"c",filter:{"name":"R","status":null},first:10,orderby:["name"])"#)
    }
}
