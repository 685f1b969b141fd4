import Baton
import Testing

private typealias F = GraphQLFixtures

@Suite("GraphQL plans: @include, @skip, @connection, @deleteRecord")
struct GraphQLPlanDirectiveTests {
    static let conditions = """
        query Q($show: Boolean!, $hide: Boolean = false) {
          version @include(if: true)
          a: version @include(if: false)
          b: version @skip(if: true)
          c: version @skip(if: false)
          d: version @include(if: $show)
          e: version @skip(if: $hide)
          f: version @include(if: $show) @skip(if: $hide)
          g: version @skip(if: $hide) @include(if: true)
          h: version @include(if: $show) @skip(if: true)
          hero @include(if: $show) {
            ...Names @skip(if: $hide)
            ... on Character @include(if: false) { id }
            ... @include(if: true) { age }
          }
        }
        fragment Names on Character { name }
        """

    @Test("literal conditions are decided now; variable ones become conditions, nested in order")
    func conditions() throws {
        #expect(F.lines(try F.plan(Self.conditions)) == [
            "version: string String",
            "c: version: string String",
            "@include($show)",
            "  d: version: string String",
            "@skip($hide)",
            "  e: version: string String",
            "@include($show)",
            "  @skip($hide)",
            "    f: version: string String",
            "@skip($hide)",
            "  g: version: string String",
            "@include($show)",
            "  hero: object Character",
            "    @skip($hide)",
            "      ...",
            "        name: string String",
            "    ...",
            "      age: int Int",
        ])
    }

    @Test("conditions select fields under the variables, defaults included", arguments: [
        (["show": .bool(false)], ["version", "c", "e", "g"]),
        (["show": .bool(true)], ["version", "c", "d", "e", "f", "g", "hero"]),
        (["show": .bool(true), "hide": .bool(true)], ["version", "c", "d", "hero"]),
        (["show": .bool(false), "hide": .bool(true)], ["version", "c"]),
    ] as [([String: JSONValue], [String])])
    func conditionSemantics(variables: [String: JSONValue], expected: [String]) throws {
        let plan = try F.plan(Self.conditions)
        let fields = plan.selections.fields(for: "Query", variables: try plan.variables(variables))
        #expect(fields.map(\.responseKey) == expected)
    }

    @Test("a condition wraps a single field in a one-element set")
    func conditionShape() throws {
        let plan = try F.plan("query Q($v: Boolean!) { version @skip(if: $v) }")
        guard case .condition(let variable, let include, let set)? = plan.selections.selections.first else {
            Issue.record("no condition")
            return
        }
        #expect(variable == "v")
        #expect(include == false)
        #expect(set.selections.count == 1)
        guard case .field(let field)? = set.selections.first else {
            Issue.record("no field")
            return
        }
        #expect(field.name == "version")
    }

    @Test("malformed conditions are errors", arguments: [
        ("{ version @include }", "1:11: @include needs the argument \"if\""),
        ("{ version @include(if: \"yes\") }", "1:20: argument \"if\" of @include: expected Boolean!, got \"yes\""),
        ("{ version @include(if: null) }", "1:20: argument \"if\" of @include: expected Boolean!, got null"),
        ("query Q($s: String) { version @skip(if: $s) }", "1:41: variable \"$s\" of type \"String\" cannot be used where \"Boolean!\" is expected (argument \"if\" of @skip)"),
        ("query Q($s: [Boolean]) { version @skip(if: $s) }", "1:44: variable \"$s\" of type \"[Boolean]\" cannot be used where \"Boolean!\" is expected (argument \"if\" of @skip)"),
        ("query Q($s: Boolean) { version @skip(if: $s) }", "1:42: variable \"$s\" of type \"Boolean\" cannot be used where \"Boolean!\" is expected (argument \"if\" of @skip)"),
        ("query Q($s: Boolean = null) { version @skip(if: $s) }", "1:49: variable \"$s\" of type \"Boolean\" cannot be used where \"Boolean!\" is expected (argument \"if\" of @skip)"),
        ("{ version @include(if: true) @include(if: false) }", "1:30: @include is given more than once"),
        ("{ version @skip(if: true, unless: false) }", "1:27: unknown argument \"unless\" on @skip"),
        ("{ version @skip(if: true, if: false) }", "1:27: argument \"if\" is given more than once"),
    ])
    func conditionErrors(source: String, expected: String) {
        #expect(F.planError(source) == expected)
    }

    static let connections = """
        query Q($cursor: String) {
          hero {
            friends(first: 10, after: $cursor, orderby: ["name"]) @connection(key: "Friends") {
              edges { cursor node { id } } pageInfo { endCursor }
            }
            filtered: friends(first: 10, orderby: ["name"], filter: {name: "R"})
              @connection(key: "Filtered", filters: ["filter"]) { edges { node { id } } pageInfo { hasNextPage } }
            empty: friends(first: 1) @connection(key: "Empty", filters: []) { ... on FriendsConnection { edges { node { id } } } }
            plain: friends(first: 1) { pageInfo { endCursor } }
          }
        }
        """

    @Test("@connection keeps its key and filters (nil when omitted)")
    func connection() throws {
        let plan = try F.plan(Self.connections)
        guard case .field(let hero)? = plan.selections.selections.first, let set = hero.selections else {
            Issue.record("unexpected plan")
            return
        }
        let fields = set.fields(for: "Character", variables: try plan.variables())
        #expect(fields.map(\.connection) == [
            ConnectionDirective(key: "Friends", filters: nil),
            ConnectionDirective(key: "Filtered", filters: ["filter"]),
            ConnectionDirective(key: "Empty", filters: []),
            nil,
        ])
        let variables = try plan.variables(["cursor": .string("c1")])
        #expect(fields.map { $0.connectionStorageKey(variables) } == [
            #"__Friends_connection(orderby:["name"])"#,
            #"__Filtered_connection(filter:{"name":"R"})"#,
            "__Empty_connection",
            nil,
        ])
        #expect(fields[0].storageKey(variables) == #"friends(after:"c1",first:10,orderby:["name"])"#)
    }

    @Test("@connection is checked", arguments: [
        ("{ hero { name @connection(key: \"N\") } }", "1:15: @connection needs a field of object, interface or union type; \"Character.name\" is \"String\""),
        ("{ hero { friends @connection { pageInfo { endCursor } } } }", "1:18: @connection needs the argument \"key\""),
        ("{ hero { friends @connection(key: 1) { pageInfo { endCursor } } } }", "1:30: argument \"key\" of @connection: expected String!, got 1"),
        ("{ hero { friends @connection(key: \"\") { pageInfo { endCursor } } } }", "1:30: the key of @connection must be a non-empty string"),
        ("{ hero { friends @connection(key: \"F\", filters: [\"nope\"]) { pageInfo { endCursor } } } }", "1:40: @connection filter \"nope\" is not an argument of \"Character.friends\""),
        ("{ hero { friends @connection(key: \"F\", filters: [1]) { pageInfo { endCursor } } } }", "1:40: argument \"filters.0\" of @connection: expected String!, got 1"),
        ("{ hero { friends @connection(key: \"F\", handler: \"x\") { pageInfo { endCursor } } } }", "1:40: unknown argument \"handler\" on @connection"),
        ("{ hero { friends @connection(key: \"F\") @connection(key: \"G\") { pageInfo { endCursor } } } }", "1:40: @connection is given more than once"),
        ("{ hero { ...F @connection(key: \"x\") } }\nfragment F on Character { id }", "1:15: @connection is not allowed on a fragment spread; it goes on a field"),
        ("{ hero { ... @deleteRecord { id } } }", "1:14: @deleteRecord is not allowed on an inline fragment; it goes on a field"),
    ])
    func connectionErrors(source: String, expected: String) {
        #expect(F.planError(source) == expected)
    }

    /// Each of these built a plan before, and the store then lost pages without a word: a page
    /// `after` a cursor the connection does not hold is not merged.
    @Test("@connection must select what merges its pages", arguments: [
        ("{ hero { friends(first: 2) @connection(key: \"F\") { pageInfo { endCursor } } } }",
         "1:28: @connection on \"Character.friends\" needs edges { node } or nodes (without arguments): pages merge through them"),
        ("{ hero { friends(first: 2) @connection(key: \"F\") { edges { cursor } } } }",
         "1:28: @connection on \"Character.friends\" needs edges { node } or nodes (without arguments): pages merge through them"),
        ("query Q($c: String) { hero { friends(first: 2, after: $c) @connection(key: \"F\") { edges { node { id } } } } }",
         "1:59: @connection on \"Character.friends\" pages with \"after\", so it needs pageInfo { endCursor }: a page joins the connection only at the endCursor it holds"),
        ("query Q($c: String) { hero { friends(first: 2, after: $c) @connection(key: \"F\") { edges { node { id } } pageInfo { hasNextPage } } } }",
         "1:59: @connection on \"Character.friends\" pages with \"after\", so it needs pageInfo { endCursor }: a page joins the connection only at the endCursor it holds"),
        ("query Q($c: String) { hero { friends(first: 2, before: $c) @connection(key: \"F\") { edges { node { id } } pageInfo { endCursor } } } }",
         "1:60: @connection on \"Character.friends\" pages with \"before\", so it needs pageInfo { startCursor }: a page joins the connection only at the startCursor it holds"),
    ])
    func connectionSelectionErrors(source: String, expected: String) {
        #expect(F.planError(source) == expected)
    }

    @Test("@connection's required selections may come through fragments and conditions, and nodes serve as edges")
    func connectionSelectionsThroughFragments() throws {
        let source = """
            query Q($c: String, $more: Boolean!) {
              hero {
                friends(first: 2, after: $c) @connection(key: "F") {
                  ...Edges
                  pageInfo @include(if: $more) { ... on PageInfo { endCursor } }
                }
              }
            }
            fragment Edges on FriendsConnection { edges { node { id } } }
            """
        _ = try F.plan(source)
        _ = try F.plan(#"query Q($c: String) { hero { friends(first: 2, after: $c) @connection(key: "F") { nodes { id } pageInfo { endCursor } } } }"#)
        _ = try F.plan(#"{ hero { friends(first: 2) @connection(key: "F") { edges { cursor } nodes { id } } } }"#)
    }

    @Test("@deleteRecord reads its optional typename")
    func deleteRecord() throws {
        let plan = try F.plan("""
            mutation M($id: ID!) {
              deleteCharacter(id: $id) {
                deletedId @deleteRecord
                typed: deletedId @deleteRecord(typename: "Character")
                deletedIds @deleteRecord(typename: "Droid")
                deletedName @deleteRecord
                count
              }
            }
            """)
        guard case .field(let payload)? = plan.selections.selections.first, let set = payload.selections else {
            Issue.record("unexpected plan")
            return
        }
        let fields = set.fields(for: "DeletePayload", variables: try plan.variables(["id": .string("1")]))
        #expect(fields.map(\.deleteRecord) == [
            DeleteRecordDirective(typename: nil),
            DeleteRecordDirective(typename: "Character"),
            DeleteRecordDirective(typename: "Droid"),
            DeleteRecordDirective(typename: nil),
            nil,
        ])
        #expect(fields[2].type == FieldType(namedType: "ID", kind: .id, listDepth: 1, nonNullLevels: 0b10))
    }

    @Test("@deleteRecord is checked", arguments: [
        ("mutation { deleteCharacter(id: 1) { count @deleteRecord } }", "1:43: @deleteRecord needs a field of type ID or String; \"DeletePayload.count\" is \"Int\""),
        ("mutation { deleteCharacter(id: 1) { character @deleteRecord { id } } }", "1:47: @deleteRecord needs a field of type ID or String; \"DeletePayload.character\" is \"Character\""),
        ("mutation { deleteCharacter(id: 1) { deletedId @deleteRecord(typename: \"Node\") } }", "1:61: the typename of @deleteRecord must name an object type; \"Node\" does not"),
        ("mutation { deleteCharacter(id: 1) { deletedId @deleteRecord(typename: \"Nope\") } }", "1:61: the typename of @deleteRecord must name an object type; \"Nope\" does not"),
        ("mutation { deleteCharacter(id: 1) { deletedId @deleteRecord(typename: Character) } }", "1:61: argument \"typename\" of @deleteRecord: expected String, got Character"),
        ("mutation { deleteCharacter(id: 1) { deletedId @deleteRecord(type: \"Character\") } }", "1:61: unknown argument \"type\" on @deleteRecord"),
    ])
    func deleteRecordErrors(source: String, expected: String) {
        #expect(F.planError(source) == expected)
    }
}
