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

    @Test("a null or absent variable argument is left out", arguments: [
        ([String: JSONValue](), "friends(first:3)"),
        (["o": .null], "friends(first:3)"),
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

    @Test("object keys are sorted and null members dropped at every depth")
    func objectKeys() throws {
        let (field, _) = try rootField(#"{ characters(filter: {tags: ["x"], name: "A", status: ALIVE, nested: {tags: null, name: "B"}}) { id } }"#)
        #expect(field.staticStorageKey == #"characters(filter:{"name":"A","nested":{"name":"B"},"status":"ALIVE","tags":["x"]})"#)
    }

    @Test("an enum literal renders as a string")
    func enumLiteral() throws {
        let (field, _) = try rootField("{ characters(status: ALIVE) { id } }")
        #expect(field.staticStorageKey == #"characters(status:"ALIVE")"#)
    }

    @Test("no arguments, or only null ones, drop the parentheses")
    func noArguments() throws {
        #expect(try rootField("{ hero { id } }").0.staticStorageKey == "hero")
        #expect(try rootField("{ characters(page: null) { id } }").0.staticStorageKey == "characters")
    }

    @Test("numbers and strings render as JSON", arguments: [
        (#"{ characters(ratio: -0.5, page: -2) { id } }"#, "characters(page:-2,ratio:-0.5)"),
        (#"{ characters(ratio: 1e3) { id } }"#, "characters(ratio:1000.0)"),
        (#"{ characters(filter: {name: "a\"b\n"}) { id } }"#, #"characters(filter:{"name":"a\"b\n"})"#),
        (#"{ characters(meta: {b: [1, [2]], a: {}}) { id } }"#, #"characters(meta:{"a":{},"b":[1,[2]]})"#),
    ])
    func jsonRendering(document: String, expected: String) throws {
        #expect(try rootField(document).0.staticStorageKey == expected)
    }

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
        #expect(fields[0].connectionStorageKey(given) == #"__All_connection(filter:{"name":"R"},orderby:["name"])"#)
        #expect(fields[1].connectionStorageKey(given) == #"__Some_connection(filter:{"name":"R"})"#)
        #expect(fields[1].storageKey(given) == #"friends(after:"c",filter:{"name":"R"},first:10,orderby:["name"])"#)
    }
}
