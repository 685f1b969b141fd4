import Baton
import Testing

/// A schema with required arguments and input fields, defaults in both, an enum, nested lists and
/// directives of every kind of place.
private let validationSDL = """
    type Query {
      character(id: ID!): Character
      characters(ids: [ID!], filter: Filter, page: Int = 1, ratio: Float, status: Status, matrix: [[Int!]], meta: JSON, flag: Boolean): [Character]
      greet(name: String! = "you"): String
      search(text: String!, first: Int): [Character]
    }
    type Character { id: ID!, name: String, friends(first: Int, after: String): [Character] }
    enum Status { ALIVE DEAD UNKNOWN }
    scalar JSON
    input Filter { name: String, status: Status, tags: [String!], nested: Filter, required: Boolean!, withDefault: Int! = 3 }
    directive @tag(name: String!) repeatable on QUERY | FIELD | VARIABLE_DEFINITION | FRAGMENT_DEFINITION
    directive @once on FIELD
    """

private let validationSchema: Schema = {
    do { return try Schema.parse(validationSDL) } catch { fatalError("validation schema: \(error)") }
}()

/// The error `Plan.build` reports for `document`, or `nil` when it builds.
private func planError(_ document: String) -> String? {
    do {
        _ = try Plan.build(document: document, schema: validationSchema)
        return nil
    } catch {
        return "\(error)"
    }
}

@Suite("Documents: argument values of their input types")
struct ArgumentValueTests {
    @Test("literals must fit the argument's type; errors name the argument, the place inside it, line and column", arguments: [
        ("{ character(id: true) { id } }", #"1:13: argument "id" of field "Query.character": expected ID!, got true"#),
        ("{ character(id: 1.5) { id } }", #"1:13: argument "id" of field "Query.character": expected ID!, got 1.5"#),
        ("{ character(id: null) { id } }", #"1:13: argument "id" of field "Query.character": expected ID!, got null"#),
        ("{ character(id: [\"1\"]) { id } }", #"1:13: argument "id" of field "Query.character": expected ID!, got ["1"]"#),
        ("{ characters(page: 2147483648) { id } }", #"1:14: argument "page" of field "Query.characters": expected Int, got 2147483648, outside Int's 32 bits"#),
        ("{ characters(page: \"1\") { id } }", #"1:14: argument "page" of field "Query.characters": expected Int, got "1""#),
        ("{ characters(page: 1.0) { id } }", #"1:14: argument "page" of field "Query.characters": expected Int, got 1.0"#),
        ("{ characters(ratio: \"x\") { id } }", #"1:14: argument "ratio" of field "Query.characters": expected Float, got "x""#),
        ("{ characters(flag: 1) { id } }", #"1:14: argument "flag" of field "Query.characters": expected Boolean, got 1"#),
        ("{ search(text: 5) { id } }", #"1:10: argument "text" of field "Query.search": expected String!, got 5"#),
        ("{ search(text: ALIVE) { id } }", #"1:10: argument "text" of field "Query.search": expected String!, got ALIVE"#),
        ("{ characters(status: \"ALIVE\") { id } }", #"1:14: argument "status" of field "Query.characters": expected Status, got the string "ALIVE"; write the enum value ALIVE without quotes"#),
        ("{ characters(status: ALIVEE) { id } }", #"1:14: argument "status" of field "Query.characters": expected Status, got ALIVEE, which is not one of ALIVE, DEAD, UNKNOWN"#),
        ("{ characters(status: true) { id } }", #"1:14: argument "status" of field "Query.characters": expected Status, got true"#),
        ("{ characters(ids: [\"1\", null]) { id } }", #"1:14: argument "ids.1" of field "Query.characters": expected ID!, got null"#),
        ("{ characters(ids: [true]) { id } }", #"1:14: argument "ids.0" of field "Query.characters": expected ID!, got true"#),
        ("{ characters(matrix: [[1], [2, \"x\"]]) { id } }", #"1:14: argument "matrix.1.1" of field "Query.characters": expected Int!, got "x""#),
        ("{ characters(filter: \"x\") { id } }", #"1:14: argument "filter" of field "Query.characters": expected Filter, got "x""#),
        ("{ characters(filter: {name: \"x\"}) { id } }", #"1:14: argument "filter.required" of field "Query.characters": expected Boolean!, got nothing"#),
        ("{ characters(filter: {required: true, nam: \"x\"}) { id } }", #"1:39: argument "filter.nam" of field "Query.characters": Filter has no field "nam""#),
        ("{ characters(filter: {required: true,\n  nested: {required: 1}}) { id } }", #"2:12: argument "filter.nested.required" of field "Query.characters": expected Boolean!, got 1"#),
        ("{ characters(filter: {required: true, tags: [\"a\", null]}) { id } }", #"1:39: argument "filter.tags.1" of field "Query.characters": expected String!, got null"#),
        ("{ characters(filter: {required: true, withDefault: null}) { id } }", #"1:39: argument "filter.withDefault" of field "Query.characters": expected Int!, got null"#),
    ])
    func refused(document: String, expected: String) {
        #expect(planError(document) == expected)
    }

    @Test("values that fit pass: a single value for a list, integers for Float, any value for a custom scalar, defaults", arguments: [
        "{ characters(ids: \"1\") { id } }",
        "{ characters(ids: [\"1\", 2]) { id } }",
        "{ characters(matrix: 3) { id } }",
        "{ characters(matrix: [1, [2, 3]]) { id } }",
        "{ characters(ratio: 1, page: -2147483648, flag: null, status: null) { id } }",
        "{ characters(meta: {a: [1, \"x\", null, {b: ENUM_LIKE}]}) { id } }",
        "{ characters(filter: {required: false, nested: {required: true, tags: \"one\"}}) { id } }",
        "{ greet }",
        "{ greet(name: \"me\") }",
        "{ character(id: 7) { id } }",
    ])
    func accepted(document: String) {
        #expect(planError(document) == nil)
    }

    @Test("a required argument left out is an error at the field; one with a default is not")
    func required() {
        #expect(planError("{ character { id } }") == #"1:3: field "Query.character" needs the argument "id" (ID!)"#)
        #expect(planError("{\n  search(first: 1) { id }\n}") == #"2:3: field "Query.search" needs the argument "text" (String!)"#)
        #expect(planError("{ greet }") == nil)
    }
}

@Suite("Documents: directives")
struct DirectiveValidationTests {
    @Test("every directive is known, in its place, once unless repeatable, with its arguments", arguments: [
        ("{ character(id: 1) { id @unknown } }",
         "1:25: unknown directive @unknown (a client directive must be declared in the schema given to Baton: directive @unknown on FIELD)"),
        ("query Q @include(if: true) { greet }",
         "1:9: @include is not allowed on a query; it goes on a field, a fragment spread or an inline fragment"),
        ("{ greet @deprecated }", "1:9: @deprecated is not allowed on a field; it belongs to schema definitions, not to documents"),
        ("{ greet @once @once }", "1:15: @once is given more than once"),
        ("{ greet @tag }", "1:9: @tag needs the argument \"name\""),
        ("{ greet @tag(name: 1) }", "1:14: argument \"name\" of @tag: expected String!, got 1"),
        ("{ greet @tag(name: \"a\", x: 1) }", "1:25: unknown argument \"x\" on @tag"),
        ("{ greet @tag(name: \"a\", name: \"b\") }", "1:25: argument \"name\" is given more than once"),
        ("query Q($n: String! @once) { greet(name: $n) }", "1:21: @once is not allowed on a variable definition; it goes on a field"),
        ("query Q($n: String! @unknown) { greet(name: $n) }",
         "1:21: unknown directive @unknown (a client directive must be declared in the schema given to Baton: directive @unknown on VARIABLE_DEFINITION)"),
        ("query Q($n: Int) { greet @unknown(a: $n, b: \"x\", c: true) }",
         "1:26: unknown directive @unknown (a client directive must be declared in the schema given to Baton: directive @unknown(a: Int, b: String, c: Boolean) on FIELD)"),
        ("{ ... @defer(label: \"later\") { greet } }",
         "1:7: unknown directive @defer (a client directive must be declared in the schema given to Baton: directive @defer(label: String, if: Boolean! = true) on FRAGMENT_SPREAD | INLINE_FRAGMENT)"),
        ("{ ...F }\nfragment F on Query @once { greet }", "2:21: @once is not allowed on a fragment definition; it goes on a field"),
        ("{ ...F @tag(name: \"x\") }\nfragment F on Query { greet }",
         "1:8: @tag is not allowed on a fragment spread; it goes on a query, a field, a fragment definition or a variable definition"),
        ("{ ... @include(if: true) @skip(if: false) @include(if: false) { greet } }", "1:43: @include is given more than once"),
    ])
    func refused(document: String, expected: String) {
        #expect(planError(document) == expected)
    }

    @Test("directives in their places pass, a repeatable one more than once")
    func accepted() {
        #expect(planError("""
            query Q($n: String! @tag(name: "v")) @tag(name: "q") @tag(name: "again") {
              greet(name: $n) @tag(name: "f") @tag(name: "g") @once
              ...F @include(if: true)
              ... on Query @skip(if: false) { greet }
            }
            fragment F on Query @tag(name: "d") { greet }
            """) == nil)
    }

    /// Apollo Kotlin's documents use its codegen directives without their definitions in the
    /// server's schema (the apollo-kotlin calendar app's `$after: String @optional`): Baton knows
    /// them, as it knows `@connection`, and reads nothing from them.
    @Test("Apollo Kotlin's @optional and @nonnull need no declaration, and are checked like any directive")
    func apolloKotlinDirectives() {
        #expect(planError("""
            query Q($n: String! @optional, $m: String @optional(if: false)) {
              greet(name: $n) @nonnull
              other: greet(name: $m) @optional
            }
            """) == nil)
        #expect(planError("query Q($n: String! @optional(if: 1)) { greet(name: $n) }") == "1:31: argument \"if\" of @optional: expected Boolean, got 1")
        #expect(planError("{ ... on Query @nonnull { greet } }") == "1:16: @nonnull is not allowed on an inline fragment; it goes on a field")
    }

    @Test("the schema keeps the directives its SDL defines, with the built-in ones")
    func definitions() throws {
        let tag = try #require(validationSchema.directive(named: "tag"))
        #expect(tag.isRepeatable)
        #expect(tag.locations == [.query, .field, .variableDefinition, .fragmentDefinition])
        #expect(tag.arguments.map(\.name) == ["name"])
        #expect(validationSchema.directive(named: "once")?.isRepeatable == false)
        for name in ["include", "skip", "deprecated", "specifiedBy", "connection", "deleteRecord"] {
            #expect(validationSchema.directive(named: name) != nil, "@\(name)")
        }
        #expect(validationSchema.directive(named: "defer") == nil)
    }

    @Test("directive definitions are checked", arguments: [
        ("directive @a on FIELD\ndirective @a on QUERY\ntype Query { a: Int }", "2:12: directive \"@a\" is defined more than once (first at 1:12)"),
        ("directive @a on FEILD\ntype Query { a: Int }", "1:17: unknown directive location \"FEILD\""),
        ("directive @a(x: Query) on FIELD\ntype Query { a: Int }", "1:14: argument \"x\" of @a must have an input type, not object type \"Query\""),
        ("directive @a(x: Nope) on FIELD\ntype Query { a: Int }", "1:14: unknown type \"Nope\" for argument \"x\" of @a"),
    ])
    func brokenDefinitions(sdl: String, expected: String) {
        do {
            _ = try Schema.parse(sdl)
            Issue.record("accepted \(sdl)")
        } catch {
            #expect("\(error)" == expected)
        }
    }

    @Test("an SDL that defines a built-in directive again keeps Baton's")
    func builtInRedefined() throws {
        let schema = try Schema.parse("directive @include(if: Boolean!) on FIELD\ntype Query { a: Int }")
        #expect(schema.directive(named: "include")?.locations == [.field, .fragmentSpread, .inlineFragment])
    }
}

@Suite("Documents: variable usages")
struct VariableUsageTests {
    @Test("a variable must fit where it stands (the spec's All Variable Usages Are Allowed)", arguments: [
        ("query Q($id: ID) { character(id: $id) { id } }",
         #"1:34: variable "$id" of type "ID" cannot be used where "ID!" is expected (argument "id" of field "Query.character")"#),
        ("query Q($id: ID = null) { character(id: $id) { id } }",
         #"1:41: variable "$id" of type "ID" cannot be used where "ID!" is expected (argument "id" of field "Query.character")"#),
        ("query Q($ids: [ID]) { characters(ids: $ids) { id } }",
         #"1:39: variable "$ids" of type "[ID]" cannot be used where "[ID!]" is expected (argument "ids" of field "Query.characters")"#),
        ("query Q($id: ID!) { characters(ids: $id) { id } }",
         #"1:37: variable "$id" of type "ID!" cannot be used where "[ID!]" is expected (argument "ids" of field "Query.characters")"#),
        ("query Q($id: ID) { characters(ids: [$id]) { id } }",
         #"1:37: variable "$id" of type "ID" cannot be used where "ID!" is expected (argument "ids" of field "Query.characters")"#),
        ("query Q($s: String) { characters(status: $s) { id } }",
         #"1:42: variable "$s" of type "String" cannot be used where "Status" is expected (argument "status" of field "Query.characters")"#),
        ("query Q($r: Boolean) { characters(filter: {required: $r}) { id } }",
         #"1:54: variable "$r" of type "Boolean" cannot be used where "Boolean!" is expected (argument "filter" of field "Query.characters")"#),
        ("query Q($m: [Int]) { characters(matrix: [$m]) { id } }",
         #"1:42: variable "$m" of type "[Int]" cannot be used where "[Int!]" is expected (argument "matrix" of field "Query.characters")"#),
        ("query Q($b: Boolean) { greet @skip(if: $b) }",
         #"1:40: variable "$b" of type "Boolean" cannot be used where "Boolean!" is expected (argument "if" of @skip)"#),
    ])
    func refused(document: String, expected: String) {
        #expect(planError(document) == expected)
    }

    @Test("nullable variables with a non-null default, or at a position with a default, pass; so do stricter types", arguments: [
        "query Q($id: ID = \"1\") { character(id: $id) { id } }",
        "query Q($n: String) { greet(name: $n) }",
        "query Q($w: Int) { characters(filter: {required: true, withDefault: $w}) { id } }",
        "query Q($ids: [ID!]!) { characters(ids: $ids) { id } }",
        "query Q($id: ID!) { characters(ids: [$id, \"2\"]) { id } }",
        "query Q($m: [[Int!]!]!) { characters(matrix: $m) { id } }",
        "query Q($b: Boolean = false) { greet @skip(if: $b) }",
        "query Q($x: Int, $y: String) { characters(meta: {a: [$x], b: {c: $y}}) { id } }",
    ])
    func accepted(document: String) {
        #expect(planError(document) == nil)
    }

    @Test("every declared variable is used by the operation, its fragments included")
    func unused() {
        #expect(planError("query Q($id: ID!, $x: Int) { character(id: $id) { id } }")
            == #"1:19: variable "$x" is declared by operation "Q" but never used"#)
        #expect(planError("query Q($n: Int) { character(id: 1) { ...F } }\nfragment F on Character { friends(first: $n) { id } }") == nil)
        #expect(planError("query Q($b: Boolean!) { greet @include(if: $b) }") == nil)
        #expect(planError("query Q($b: Boolean!) { greet @include(if: false) @skip(if: $b) }") == nil)
        // A fragment the operation does not spread does not use the operation's variables.
        #expect(planError("query Q($n: Int) { greet }\nfragment Unused on Query { characters(page: $n) { id } }")
            == #"1:9: variable "$n" is declared by operation "Q" but never used"#)
    }

    @Test("a default must fit the variable's type", arguments: [
        ("query Q($p: Int = \"1\") { characters(page: $p) { id } }", #"1:9: the default of "$p": expected Int, got "1""#),
        ("query Q($s: Status = \"ALIVE\") { characters(status: $s) { id } }",
         #"1:9: the default of "$s": expected Status, got the string "ALIVE"; write the enum value ALIVE without quotes"#),
        ("query Q($f: Filter = {name: \"x\"}) { characters(filter: $f) { id } }", #"1:9: the default of "$f.required": expected Boolean!, got nothing"#),
        ("query Q($id: ID! = null) { character(id: $id) { id } }", #"1:9: the default of "$id": expected ID!, got null"#),
        ("query Q($ids: [ID!] = [1, 1.5]) { characters(ids: $ids) { id } }", #"1:9: the default of "$ids.1": expected ID!, got 1.5"#),
    ])
    func defaults(document: String, expected: String) {
        #expect(planError(document) == expected)
    }
}
