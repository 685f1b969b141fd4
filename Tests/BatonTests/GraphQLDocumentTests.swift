import Baton
import Testing

private typealias F = GraphQLFixtures

@Suite("GraphQL executable documents")
struct GraphQLDocumentTests {
    private func onlyOperation(_ source: String) throws -> Document.Operation {
        let document = try Document.parse(source)
        return try #require(document.operations.first)
    }

    private func fields(_ nodes: [Document.SelectionNode]) -> [Document.FieldNode] {
        nodes.compactMap { if case .field(let field) = $0 { field } else { nil } }
    }

    @Test("operations of every kind, named and anonymous, and the shorthand")
    func operationKinds() throws {
        let document = try Document.parse("""
            query Q { a }
            mutation M { b }
            subscription S { c }
            query { d }
            """)
        #expect(document.operations.map(\.kind) == [.query, .mutation, .subscription, .query])
        #expect(document.operations.map(\.name) == ["Q", "M", "S", nil])
        let shorthand = try onlyOperation("{ a }")
        #expect(shorthand.kind == .query)
        #expect(shorthand.name == nil)
        #expect(shorthand.location == GraphQLLocation(line: 1, column: 1))
    }

    @Test("variable declarations keep their types, defaults and directives")
    func variableDeclarations() throws {
        let operation = try onlyOperation("""
            query Q($id: ID!, $ids: [ID!]! = ["1", "2"], $n: Int = 3 @deprecated, $f: Filter = {name: "x", tags: [A, B]}, $m: [[Int]]) { a }
            """)
        #expect(operation.variables.map(\.name) == ["id", "ids", "n", "f", "m"])
        #expect(operation.variables.map(\.type.description) == ["ID!", "[ID!]!", "Int", "Filter", "[[Int]]"])
        #expect(operation.variables.map(\.type.listDepth) == [0, 1, 0, 0, 2])
        #expect(operation.variables.map(\.type.isNonNull) == [true, true, false, false, false])
        #expect(operation.variables[0].defaultValue == nil)
        #expect(operation.variables[1].defaultValue == .list([.string("1"), .string("2")]))
        #expect(operation.variables[2].defaultValue == .int(3))
        #expect(operation.variables[2].directives.map(\.name) == ["deprecated"])
        #expect(operation.variables[3].defaultValue?.constantJSON == .object([
            "name": .string("x"), "tags": .array([.string("A"), .string("B")]),
        ]))
        #expect(operation.variables[1].location == GraphQLLocation(line: 1, column: 19))
    }

    @Test("every literal kind parses as an argument", arguments: [
        ("1", GraphQLValue.int(1)),
        ("-2.5", .float(-2.5)),
        ("\"s\"", .string("s")),
        ("\"\"\"block\"\"\"", .string("block")),
        ("true", .boolean(true)),
        ("false", .boolean(false)),
        ("null", .null),
        ("RED", .enumeration("RED")),
        ("[1, \"two\", [THREE]]", .list([.int(1), .string("two"), .list([.enumeration("THREE")])])),
        ("[]", .list([])),
        ("{}", .object([])),
    ])
    func literals(literal: String, expected: GraphQLValue) throws {
        #expect(try F.value(literal) == expected)
    }

    @Test("objects keep their fields in order, and variables nest anywhere")
    func objectsAndVariables() throws {
        let value = try F.value("{b: 1, a: [$x, {c: $y}], d: $z}")
        guard case .object(let fields) = value else {
            Issue.record("not an object: \(value)")
            return
        }
        #expect(fields.map(\.name) == ["b", "a", "d"])
        #expect(fields[1].value == .list([
            .variable("x", location: GraphQLLocation(line: 1, column: 19)),
            .object([GraphQLObjectField(
                name: "c", value: .variable("y", location: GraphQLLocation(line: 1, column: 27)),
                location: GraphQLLocation(line: 1, column: 24))]),
        ]))
        #expect(value.isConstant == false)
        #expect(value.constantJSON == nil)
        #expect(try F.value("{a: [1, {b: RED}]}").isConstant)
    }

    @Test("fields keep aliases, arguments, directives and sub-selections")
    func fieldsAndAliases() throws {
        let operation = try onlyOperation("""
            {
              hero: character(id: "1000", size: 2) @include(if: $x) @custom {
                name
                friendName: name
              }
            }
            """)
        let hero = try #require(fields(operation.selections).first)
        #expect(hero.alias == "hero")
        #expect(hero.name == "character")
        #expect(hero.responseKey == "hero")
        #expect(hero.arguments.map(\.name) == ["id", "size"])
        #expect(hero.arguments.map(\.value) == [.string("1000"), .int(2)])
        #expect(hero.directives.map(\.name) == ["include", "custom"])
        #expect(hero.directives[0].argument("if")?.value == .variable("x", location: GraphQLLocation(line: 2, column: 53)))
        #expect(hero.location == GraphQLLocation(line: 2, column: 3))
        let children = fields(hero.selections ?? [])
        #expect(children.map(\.responseKey) == ["name", "friendName"])
        #expect(children.map(\.alias) == [nil, "friendName"])
        #expect(children.allSatisfy { $0.selections == nil })
    }

    @Test("fragments, spreads and inline fragments with and without conditions")
    func fragments() throws {
        let document = try Document.parse("""
            query Q {
              node {
                ...NodeFields @skip(if: false)
                ... on Character @include(if: true) { name }
                ... @defer { id }
              }
            }
            fragment NodeFields on Node @dir { id }
            """)
        let operation = try #require(document.operations.first)
        let node = try #require(fields(operation.selections).first)
        let selections = node.selections ?? []
        #expect(selections.count == 3)
        guard case .fragmentSpread(let spread) = selections[0],
              case .inlineFragment(let typed) = selections[1],
              case .inlineFragment(let untyped) = selections[2]
        else {
            Issue.record("unexpected selections: \(selections)")
            return
        }
        #expect(spread.name == "NodeFields")
        #expect(spread.directives.map(\.name) == ["skip"])
        #expect(spread.location == GraphQLLocation(line: 3, column: 5))
        #expect(typed.typeCondition == "Character")
        #expect(typed.typeConditionLocation == GraphQLLocation(line: 4, column: 12))
        #expect(typed.directives.map(\.name) == ["include"])
        #expect(untyped.typeCondition == nil)
        #expect(untyped.directives.map(\.name) == ["defer"])
        let fragment = try #require(document.fragments.first)
        #expect(fragment.name == "NodeFields")
        #expect(fragment.typeCondition == "Node")
        #expect(fragment.directives.map(\.name) == ["dir"])
        #expect(fragment.location == GraphQLLocation(line: 8, column: 1))
    }

    @Test("malformed documents report the exact line and column", arguments: [
        ("{ }", "1:3: expected Name, found \"}\""),
        ("", "1:1: expected an operation or a fragment, found <EOF>"),
        ("   \n  # only a comment\n", "3:1: expected an operation or a fragment, found <EOF>"),
        ("query Q {\n  a(x: 1\n}", "3:1: expected Name, found \"}\""),
        ("query Q {\n  a(x: )\n}", "2:8: expected a value, found \")\""),
        ("query Q {\n  a()\n}", "2:5: expected Name, found \")\""),
        ("query Q($x Int) { a }", "1:12: expected \":\", found Name \"Int\""),
        ("query Q($x: Int = $y) { a }", "1:19: unexpected variable in a constant value"),
        ("query Q() { a }", "1:9: expected \"$\", found \")\""),
        ("query Q($x: [Int) { a }", "1:17: expected \"]\", found \")\""),
        ("query Q { a { b }", "1:18: expected Name, found <EOF>"),
        ("fragment on on T { a }", "1:10: expected a fragment name, found Name \"on\""),
        ("fragment F T { a }", "1:12: expected \"on\", found Name \"T\""),
        ("fragment F on T", "1:16: expected \"{\", found <EOF>"),
        ("{ ... on { a } }", "1:10: expected Name, found \"{\""),
        ("type Query { a: Int }", "1:1: expected an operation or a fragment, found Name \"type\""),
        ("\"description\" query { a }", "1:1: expected an operation or a fragment, found String \"description\""),
        ("query Q { a(x: {y: 1, y: 2}) }", "1:23: duplicate input object field \"y\""),
        ("{ a @ }", "1:7: expected Name, found \"}\""),
        ("{ a } extra", "1:7: expected an operation or a fragment, found Name \"extra\""),
        ("query Q { a: }", "1:14: expected Name, found \"}\""),
    ])
    func malformed(source: String, expected: String) {
        #expect(F.documentError(source) == expected)
    }

    @Test("errors carry message, line and column separately")
    func errorFields() throws {
        let error = try #require(F.error { _ = try Document.parse("query {\n  a(x: 1,\n   y: @)\n}") })
        #expect(error.message == "expected a value, found \"@\"")
        #expect(error.line == 3)
        #expect(error.column == 7)
        #expect(error.description == "3:7: expected a value, found \"@\"")
    }

    @Test("nesting past the limit is an error, not a crash")
    func deepNesting() {
        let depth = 5_000
        let selections = String(repeating: "{ a ", count: depth) + String(repeating: "}", count: depth)
        #expect(F.documentError(selections)?.hasSuffix("nesting is deeper than 128 levels") == true)
        let list = "{ f(a: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + ") }"
        #expect(F.documentError(list)?.hasSuffix("nesting is deeper than 128 levels") == true)
        let object = "{ f(a: " + String(repeating: "{a: ", count: depth) + String(repeating: "}", count: depth) + ") }"
        #expect(F.documentError(object)?.hasSuffix("nesting is deeper than 128 levels") == true)
        let type = "query Q($x: " + String(repeating: "[", count: depth) + "Int" + String(repeating: "]", count: depth) + ") { a }"
        #expect(F.documentError(type)?.hasSuffix("nesting is deeper than 128 levels") == true)
        let fine = String(repeating: "{ a ", count: 100) + String(repeating: "}", count: 100)
        #expect(F.documentError(fine) == nil)
    }
}
