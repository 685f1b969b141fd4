import Baton
import Testing

private typealias F = GraphQLFixtures

@Suite("GraphQL plans: operations, fields, variables and arguments")
struct GraphQLPlanTests {
    @Test("fields resolve against the schema, each scalar kind mapped")
    func fieldsAndKinds() throws {
        let plan = try F.plan("""
            query Hero {
              hero {
                id name age height alive metadata status nicknames
                appearsIn { title }
                bestFriend { __typename name }
              }
              version
            }
            """)
        #expect(plan.kind == .query)
        #expect(plan.name == "Hero")
        #expect(plan.rootTypename == "Query")
        #expect(plan.rootKey == .queryRoot)
        #expect(F.lines(plan) == [
            "hero: object Character",
            "  id: id ID",
            "  name: string String",
            "  age: int Int",
            "  height: float Float",
            "  alive: boolean Boolean",
            "  metadata: custom JSON",
            "  status: enum Status",
            "  nicknames: string String[1]",
            "  appearsIn: object Episode[2]",
            "    title: string String",
            "  bestFriend: object Character",
            "    __typename: string String",
            "    name: string String",
            "version: string String",
        ])
    }

    @Test("__typename is a String field on objects, interfaces, unions and the root")
    func typename() throws {
        let plan = try F.plan("{ __typename node(id: 1) { __typename } search(text: \"\") { __typename } }")
        #expect(F.lines(plan) == [
            "__typename: string String",
            "node(id:1): abstract Node",
            "  __typename: string String",
            "search(text:\"\"): abstract SearchResult[1]",
            "  __typename: string String",
        ])
        guard case .field(let field)? = plan.selections.selections.first else {
            Issue.record("no field")
            return
        }
        #expect(field.isTypename)
        #expect(field.type == FieldType(namedType: "String", kind: .string, listDepth: 0, nonNullLevels: 1))
        #expect(field.selections == nil)
    }

    @Test("aliases set the response key; the name and storage key stay the field's")
    func aliases() throws {
        let plan = try F.plan("{ a: hero { n1: name n2: name name } b: hero { id } }")
        #expect(F.lines(plan) == [
            "a: hero: object Character",
            "  n1: name: string String",
            "  n2: name: string String",
            "  name: string String",
            "b: hero: object Character",
            "  id: id ID",
        ])
        guard case .field(let field)? = plan.selections.selections.first else {
            Issue.record("no field")
            return
        }
        #expect(field.responseKey == "a")
        #expect(field.name == "hero")
        #expect(field.staticStorageKey == "hero")
    }

    @Test("mutations and subscriptions start from their roots")
    func otherRoots() throws {
        let mutation = try F.plan("mutation Delete { deleteCharacter(id: 1) { count } }")
        #expect(mutation.kind == .mutation)
        #expect(mutation.rootTypename == "Mutation")
        #expect(mutation.rootKey == .mutationRoot)
        let subscription = try F.plan("subscription { heroChanged { id } }")
        #expect(subscription.kind == .subscription)
        #expect(subscription.name == nil)
        #expect(subscription.rootTypename == "Subscription")
        #expect(subscription.rootKey == .subscriptionRoot)
    }

    @Test("root types named in a schema block are used")
    func renamedRoots() throws {
        let schema = try Schema.parse("schema { query: Root mutation: Change } type Root { a: Int } type Change { b: Int }")
        let query = try Plan.build(document: "{ a }", schema: schema)
        #expect(query.rootTypename == "Root")
        #expect(query.rootKey == .queryRoot)
        let mutation = try Plan.build(document: "mutation { b }", schema: schema)
        #expect(mutation.rootTypename == "Change")
        let error = F.error { _ = try Plan.build(document: "subscription S { b }", schema: schema) }
        #expect(error?.description == "1:1: the schema has no subscription type")
    }

    @Test("the operation is picked by name, or must be the only one")
    func operationSelection() throws {
        let source = "query A { version }\nquery B { hero { id } }"
        let document = try Document.parse(source)
        let b = try Plan.build(document: document, schema: F.schema, operationName: "B")
        #expect(b.name == "B")
        #expect(F.lines(b) == ["hero: object Character", "  id: id ID"])
        #expect(try F.plan(source, operationName: "A").name == "A")
        #expect(F.planError(source) == "1:1: the document has several operations; name the one to plan: A, B")
        #expect(F.planError(source, operationName: "C") == "1:1: the document has no operation named \"C\" (it defines: A, B)")
        #expect(F.planError("{ version } query A { version }") == "1:1: an anonymous operation must be the only operation of its document")
        #expect(F.planError("query A { version }\nquery A { hero { id } }", operationName: "A") == "2:1: operation \"A\" is defined more than once")
        #expect(F.planError("fragment F on Query { version }") == "1:1: the document has no operation")
        #expect(try F.plan("{ version }", operationName: nil).name == nil)
    }

    @Test("variable definitions keep the type as written and defaults as JSON")
    func variableDefinitions() throws {
        let plan = try F.plan("""
            query Q(
              $id: ID!, $ids: [ ID! ]! = ["1"], $status: Status = ALIVE,
              $filter: CharacterFilter = {name: "R", tags: ["a"], status: DEAD},
              $first: Int = 10, $ratio: Float = 1.5, $flag: Boolean = false, $none: String = null, $meta: JSON
            ) {
              characters(ids: $ids, status: $status, filter: $filter, page: $first, ratio: $ratio, flags: [$flag], meta: $meta) { id }
              character(id: $id) { friends(after: $none) { pageInfo { endCursor } } }
            }
            """)
        let definitions = plan.variableDefinitions
        #expect(definitions.map(\.name) == ["id", "ids", "status", "filter", "first", "ratio", "flag", "none", "meta"])
        #expect(definitions.map(\.type.description) == ["ID!", "[ID!]!", "Status", "CharacterFilter", "Int", "Float", "Boolean", "String", "JSON"])
        #expect(definitions.map(\.defaultValue) == [
            nil, .array([.string("1")]), .string("ALIVE"),
            .object(["name": .string("R"), "tags": .array([.string("a")]), "status": .string("DEAD")]),
            .int(10), .double(1.5), .bool(false), .null, nil,
        ])
        let variables = try plan.variables(["id": .string("7"), "first": .int(2), "undeclared": .int(1)])
        #expect(variables.values["id"] == .string("7"))
        #expect(variables.values["first"] == .int(2))
        #expect(variables.values["ratio"] == .double(1.5))
        #expect(variables.values["undeclared"] == nil)
        #expect(variables.values["meta"] == nil)
    }

    @Test("variables must be declared with input types, once")
    func variableErrors() {
        #expect(F.planError("query Q($c: Character) { version }") == "1:9: variable \"$c\" cannot have the type \"Character\": it is not an input type")
        #expect(F.planError("query Q($c: Nope) { version }") == "1:9: unknown type \"Nope\" for variable \"$c\"")
        #expect(F.planError("query Q($a: Int, $a: Int) { version }") == "1:18: variable \"$a\" is declared more than once")
        #expect(F.planError("query Q { character(id: $id) { id } }") == "1:25: variable \"$id\" is not declared by operation \"Q\"")
        #expect(F.planError("{ characters(filter: {tags: [$t]}) { id } }") == "1:30: variable \"$t\" is not declared by the anonymous operation")
        #expect(F.planError("query Q { version @include(if: $show) }") == "1:32: variable \"$show\" is not declared by operation \"Q\"")
        #expect(F.planError("query Q { hero { ...F } }\nfragment F on Character { friends(first: $n) { pageInfo { endCursor } } }")
            == "2:42: variable \"$n\" is not declared by operation \"Q\"")
        #expect(F.planError("query Q { hero @defer(if: $d) { id } }") == "1:27: variable \"$d\" is not declared by operation \"Q\"")
        #expect(F.planError("query Q { hero { ... @defer(label: [{a: $l}]) { id } } }") == "1:41: variable \"$l\" is not declared by operation \"Q\"")
        #expect(F.planError("query Q @live(when: $w) { version }") == "1:21: variable \"$w\" is not declared by operation \"Q\"")
    }

    @Test("arguments keep literals whole and variables where they are, sorted by name")
    func argumentValues() throws {
        let plan = try F.plan("""
            query Q($id: ID!, $n: String, $s: Status) {
              characters(ids: ["1", 2], page: 3, ratio: 2.5, flags: [true, false, null], status: DEAD,
                         meta: {b: [1, {c: null}], a: "x"}, filter: {name: $n, status: $s, tags: ["t", $n]}) { id }
              character(id: $id) { id }
            }
            """)
        guard case .field(let characters) = plan.selections.selections[0],
              case .field(let character) = plan.selections.selections[1]
        else {
            Issue.record("unexpected plan")
            return
        }
        #expect(characters.arguments.map(\.name) == ["filter", "flags", "ids", "meta", "page", "ratio", "status"])
        #expect(characters.arguments.map(\.value) == [
            .object([
                ArgumentField(name: "name", value: .variable("n")),
                ArgumentField(name: "status", value: .variable("s")),
                ArgumentField(name: "tags", value: .list([.literal(.string("t")), .variable("n")])),
            ]),
            .literal(.array([.bool(true), .bool(false), .null])),
            .literal(.array([.string("1"), .int(2)])),
            .literal(.object(["a": .string("x"), "b": .array([.int(1), .object(["c": .null])])])),
            .literal(.int(3)),
            .literal(.double(2.5)),
            .literal(.string("DEAD")),
        ])
        #expect(characters.staticStorageKey == nil)
        #expect(characters.storageKey(try plan.variables(["id": .string("1"), "n": .string("Rick")])) ==
            #"characters(filter:{"name":"Rick","tags":["t","Rick"]},flags:[true,false,null],ids:["1",2],meta:{"a":"x","b":[1,{"c":null}]},page:3,ratio:2.5,status:"DEAD")"#)
        #expect(character.arguments.map(\.value) == [.variable("id")])
        #expect(character.storageKey(try plan.variables(["id": .string("1000")])) == #"character(id:"1000")"#)
        #expect(character.argument("id", try plan.variables(["id": .string("9")])) == .string("9"))
    }

    @Test("fields, arguments and selections are checked against the schema", arguments: [
        ("query Q {\n  hero {\n    nme\n  }\n}", "3:5: unknown field \"nme\" on type \"Character\""),
        ("{ search(text: \"x\") { id } }", "1:23: unknown field \"id\" on type \"SearchResult\""),
        ("{ missing }", "1:3: unknown field \"missing\" on type \"Query\""),
        ("{ version { a } }", "1:3: field \"version\" of type \"String\" cannot have a selection of subfields"),
        ("{ hero }", "1:3: field \"hero\" of type \"Character\" needs a selection of subfields"),
        ("{ search(text: \"x\") }", "1:3: field \"search\" of type \"[SearchResult]\" needs a selection of subfields"),
        ("{ hero(id: 1) { id } }", "1:8: unknown argument \"id\" on field \"Query.hero\""),
        ("{ character(id: 1, id: 2) { id } }", "1:20: argument \"id\" is given more than once"),
        ("{ __typename(a: 1) }", "1:14: unknown argument \"a\" on field \"Query.__typename\""),
        ("{ __typename { a } }", "1:3: field \"__typename\" of type \"String!\" cannot have a selection of subfields"),
        ("{ hero { __schema { types } } }", "1:10: unknown field \"__schema\" on type \"Character\" (an introspection field: the store keeps an app's data, not its schema)"),
        ("{ hero { __id id } }", "1:10: unknown field \"__id\" on type \"Character\" (Relay's compiler adds __id, a record's own key on the client; Baton does not answer it: take it out)"),
    ])
    func fieldErrors(source: String, expected: String) {
        #expect(F.planError(source) == expected)
    }

    @Test("directives the schema declares and the plan does not implement have no effect")
    func declaredDirectives() throws {
        let plan = try F.plan("query Q @live { hero @defer(label: \"x\") { name @client ...N @nonreactive } } fragment N on Character @argumentDefinitions(a: {type: \"Int\"}) { id }")
        #expect(F.lines(plan) == ["hero: object Character", "  name: string String", "  ...", "    id: id ID"])
    }

    @Test("plans are built the same way every time")
    func deterministic() throws {
        let source = "{ search(text: \"\") { ... on Named { name } ... on Node { id } } characters(meta: {z: 1, a: 2, m: [3]}) { id } }"
        let first = F.lines(try F.plan(source))
        for _ in 0..<20 {
            #expect(F.lines(try F.plan(source)) == first)
        }
        #expect(first[1] == "  ... on Character|Droid")
        #expect(first[3] == "  ...")
        #expect(first[5] == #"characters(meta:{"a":2,"m":[3],"z":1}): object Character[1]"#)
    }
}
