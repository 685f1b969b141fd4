import Baton
import Testing

private typealias F = GraphQLFixtures

@Suite("GraphQL schemas")
struct GraphQLSchemaTests {
    @Test("root types default to Query, Mutation and Subscription")
    func defaultRoots() throws {
        let schema = F.schema
        #expect(schema.queryTypeName == "Query")
        #expect(schema.mutationTypeName == "Mutation")
        #expect(schema.subscriptionTypeName == "Subscription")
        #expect(schema.rootTypeName(for: .mutation) == "Mutation")
        let queryOnly = try Schema.parse("type Query { a: Int } type Other { b: Int }")
        #expect(queryOnly.queryTypeName == "Query")
        #expect(queryOnly.mutationTypeName == nil)
        #expect(queryOnly.subscriptionTypeName == nil)
    }

    @Test("a schema block names the root types, and extensions add to it")
    func explicitRoots() throws {
        let schema = try Schema.parse("""
            schema @something { query: Root, mutation: Change }
            extend schema { subscription: Feed }
            type Root { a: Int }
            type Change { b: Int }
            type Feed { c: Int }
            type Query { ignored: Int }
            type Mutation { ignored: Int }
            """)
        #expect(schema.queryTypeName == "Root")
        #expect(schema.mutationTypeName == "Change")
        #expect(schema.subscriptionTypeName == "Feed")
        let partial = try Schema.parse("schema { query: Root } type Root { a: Int } type Mutation { b: Int }")
        #expect(partial.mutationTypeName == nil)
    }

    @Test("every kind of type is read, with the built-in scalars")
    func kinds() throws {
        let schema = F.schema
        let kinds = ["Character", "Node", "SearchResult", "Status", "JSON", "CharacterFilter", "Int", "Float",
                     "String", "Boolean", "ID"].map { schema.type(named: $0)?.kind }
        #expect(kinds == [.object, .interface, .union, .enumeration, .scalar, .inputObject, .scalar, .scalar,
                          .scalar, .scalar, .scalar])
        #expect(schema.type(named: "Missing") == nil)
        #expect(schema.typeNames.first == "Being")
        #expect(schema.typeNames == schema.typeNames.sorted())
        #expect(schema.type(named: "Status")?.enumValues.map(\.name) == ["ALIVE", "DEAD", "UNKNOWN"])
        #expect(schema.type(named: "CharacterFilter")?.inputFields.map(\.name) == ["name", "status", "tags", "nested"])
        #expect(schema.type(named: "Person")?.unionMembers == ["Character", "Droid"])
        #expect(schema.type(named: "Being")?.interfaces == ["Node", "Named"])
    }

    @Test("field types say their named type, list depth and nullability")
    func fieldTypes() throws {
        let schema = F.schema
        let appearsIn = try #require(schema.field("appearsIn", on: "Character"))
        #expect(appearsIn.type.description == "[[Episode!]]!")
        #expect(appearsIn.type.namedType == "Episode")
        #expect(appearsIn.type.listDepth == 2)
        #expect(appearsIn.type.isNonNull)
        let name = try #require(schema.field("name", on: "Character"))
        #expect(name.type == .named("String"))
        #expect(!name.type.isNonNull)
        let friends = try #require(schema.field("friends", on: "Character"))
        #expect(friends.arguments.map(\.name) == ["first", "after", "last", "before", "orderby", "filter"])
        #expect(friends.arguments.map(\.type.description) == ["Int", "String", "Int", "String", "[String]", "CharacterFilter"])
        let height = try #require(schema.field("height", on: "Character"))
        #expect(height.arguments.first?.defaultValue == .enumeration("METER"))
        #expect(schema.field("id", on: "Node")?.type.description == "ID!")
        #expect(schema.field("missing", on: "Character") == nil)
        #expect(schema.field("name", on: "Missing") == nil)
    }

    @Test("the plan's kind of each type", arguments: [
        ("age", FieldType.Kind.int), ("height", .float), ("name", .string), ("alive", .boolean), ("id", .id),
        ("metadata", .customScalar), ("status", .enumeration), ("bestFriend", .object),
    ])
    func fieldKinds(field: String, kind: FieldType.Kind) throws {
        let definition = try #require(F.schema.field(field, on: "Character"))
        #expect(F.schema.fieldType(of: definition.type)?.kind == kind)
    }

    @Test("__typename is on every object, interface and union, and nowhere else")
    func typename() throws {
        let schema = F.schema
        for type in ["Character", "Node", "SearchResult", "Query"] {
            let field = try #require(schema.field("__typename", on: type))
            #expect(field.type.description == "String!")
            #expect(schema.fieldType(of: field.type) == FieldType(namedType: "String", kind: .string, listDepth: 0, nonNullLevels: 1))
        }
        #expect(schema.field("__typename", on: "Status") == nil)
        #expect(schema.field("__typename", on: "CharacterFilter") == nil)
        #expect(schema.field("__typename", on: "Int") == nil)
    }

    @Test("interfaces and unions know their possible object types")
    func possibleTypes() throws {
        let schema = F.schema
        #expect(schema.possibleTypes(of: "Node") == ["Character", "Droid", "Planet"])
        #expect(schema.possibleTypes(of: "Being") == ["Character", "Droid"])
        #expect(schema.possibleTypes(of: "Named") == ["Character", "Droid"])
        #expect(schema.possibleTypes(of: "SearchResult") == ["Character", "Droid", "Planet"])
        #expect(schema.possibleTypes(of: "Character") == ["Character"])
        #expect(schema.possibleTypes(of: "Status") == [])
        #expect(schema.possibleTypeSet(of: "Person") == ["Character", "Droid"])
        #expect(schema.isPossibleType("Planet", of: "Node"))
        #expect(!schema.isPossibleType("Planet", of: "Named"))
        #expect(!schema.isPossibleType("Droid", of: "Character"))
    }

    @Test("an object implementing only a sub-interface is a possible type of its parent interfaces")
    func transitiveInterfaces() throws {
        let schema = try Schema.parse("""
            interface A { a: Int }
            interface B implements A { a: Int }
            interface C implements B & A { a: Int }
            type T implements C { a: Int }
            type Query { t: T }
            """)
        #expect(schema.possibleTypes(of: "A") == ["T"])
        #expect(schema.possibleTypes(of: "B") == ["T"])
        #expect(schema.possibleTypes(of: "C") == ["T"])
        #expect(schema.type(named: "C")?.interfaces == ["B", "A"])
    }

    @Test("descriptions come from strings and block strings on every definition")
    func descriptions() throws {
        let schema = try Schema.parse(#"""
            "The root."
            type Query {
              """
                A field,
                with two lines.
              """
              field(
                "An argument." arg: Int = 1
              ): Color
            }
            """
            Colors.
            """
            enum Color {
              "Red." RED
              GREEN
            }
            """#)
        #expect(schema.type(named: "Query")?.description == "The root.")
        let field = try #require(schema.field("field", on: "Query"))
        #expect(field.description == "A field,\nwith two lines.")
        #expect(field.arguments.first?.description == "An argument.")
        #expect(field.arguments.first?.defaultValue == .int(1))
        #expect(schema.type(named: "Color")?.description == "Colors.")
        #expect(schema.type(named: "Color")?.enumValues.map(\.description) == ["Red.", nil])
    }

    @Test("extensions merge fields, interfaces, members and values, even before the definition")
    func extensions() throws {
        let schema = try Schema.parse("""
            extend type Query { b: Int }
            type Query { a: Int }
            extend type Query implements Node @tag { id: ID! }
            interface Node { id: ID! }
            type X { x: Int }
            type Y { y: Int }
            union U = X
            extend union U = Y
            enum E { ONE }
            extend enum E { TWO }
            input I { a: Int }
            extend input I { b: Int }
            scalar S
            extend scalar S @specifiedBy(url: "https://example.com")
            extend interface Node { name: String }
            """)
        #expect(schema.type(named: "Query")?.fields.map(\.name) == ["a", "b", "id"])
        #expect(schema.type(named: "Query")?.interfaces == ["Node"])
        #expect(schema.possibleTypes(of: "Node") == ["Query"])
        #expect(schema.possibleTypes(of: "U") == ["X", "Y"])
        #expect(schema.type(named: "E")?.enumValues.map(\.name) == ["ONE", "TWO"])
        #expect(schema.type(named: "I")?.inputFields.map(\.name) == ["a", "b"])
        #expect(schema.type(named: "Node")?.fields.map(\.name) == ["id", "name"])
    }

    @Test("directive definitions and directives on definitions are read and ignored")
    func directives() throws {
        let schema = try Schema.parse("""
            directive @cacheControl(maxAge: Int, scope: Scope = PUBLIC) repeatable on
              | OBJECT
              | FIELD_DEFINITION
            directive @key(fields: String!) on OBJECT | INTERFACE
            enum Scope { PUBLIC PRIVATE }
            type Query @cacheControl(maxAge: 10) {
              a: Int @deprecated(reason: "no") @semanticNonNull
              b(x: Int @deprecated): String
            }
            union U @key(fields: "x") = | Query
            """)
        #expect(schema.type(named: "Query")?.fields.map(\.name) == ["a", "b"])
        #expect(schema.possibleTypes(of: "U") == ["Query"])
    }

    @Test("declaring a built-in scalar again is accepted")
    func builtInScalarDeclared() throws {
        let schema = try Schema.parse("scalar String\nscalar ID\ntype Query { a: String }")
        #expect(schema.type(named: "String")?.kind == .scalar)
    }

    @Test("broken schemas report the exact line and column", arguments: [
        ("type Query { a: Int }\ntype Query { b: Int }", "2:6: type \"Query\" is defined more than once (first at 1:6)"),
        ("type Int { a: Int }", "1:6: type \"Int\" is defined more than once (it is built in)"),
        ("type Query {\n  a: Missing\n}", "2:3: unknown type \"Missing\" for field \"Query.a\""),
        ("type Query {\n  a(x: [Nope]): Int\n}", "2:5: unknown type \"Nope\" for argument \"x\" of \"Query.a\""),
        ("type Query { a: Int a: String }", "1:21: field \"Query.a\" is defined more than once"),
        ("extend type Nothing { a: Int }", "1:13: cannot extend type \"Nothing\": it is not defined"),
        ("type Query { a: Int }\nextend interface Query { b: Int }", "2:18: cannot extend object type \"Query\" as interface"),
        ("type Query { a: Int }\nunion U = Query | Int", "2:19: union \"U\" can only have object types as members, not \"Int\""),
        ("type Query { a: Int }\nunion U = Query | Gone", "2:19: union \"U\" has unknown member \"Gone\""),
        ("input In { a: Int }\ntype Query { a: In }", "2:14: field \"Query.a\" cannot have the input type \"In\""),
        ("type Query { a(x: Query): Int }", "1:16: argument \"x\" of \"Query.a\" must have an input type, not object type \"Query\""),
        ("type Query implements Query { a: Int }", "1:23: \"Query\" cannot implement \"Query\": it is not another interface"),
        ("type Query implements Nope { a: Int }", "1:23: \"Query\" implements unknown interface \"Nope\""),
        ("schema { query: Query }\nschema { query: Query }\ntype Query { a: Int }", "2:1: the schema is defined more than once"),
        ("schema { query: Query, query: Query }\ntype Query { a: Int }", "1:31: the schema names its query type more than once"),
        ("schema { query: Q }\ninput Q { a: Int }", "1:17: the query type \"Q\" must be an object type"),
        ("schema { query: Q }", "1:17: unknown query type \"Q\""),
        ("schema { fetch: Q }", "1:10: expected \"query\", \"mutation\" or \"subscription\", found Name \"fetch\""),
        ("\"doc\" extend type Query { a: Int }", "1:7: an extension cannot have a description"),
        ("type Query { a: Int", "1:20: expected Name, found <EOF>"),
        ("type Query { a Int }", "1:16: expected \":\", found Name \"Int\""),
        ("type Query { a(x: Int = $v): Int }", "1:25: unexpected variable in a constant value"),
        ("enum E { true }", "1:10: true cannot be an enum value"),
        ("input In { a: Int, a: Int }\ntype Query { a(x: In): Int }", "1:20: input field \"In.a\" is defined more than once"),
        ("input In { q: Query }\ntype Query { a(x: In): Int }", "1:12: input field \"In.q\" must have an input type, not object type \"Query\""),
        ("type Query { a(x: Int, x: Int): Int }", "1:24: argument \"x\" of \"Query.a\" is defined more than once"),
        ("enum E { A A }", "1:12: enum value \"E.A\" is defined more than once"),
        ("query { a }", "1:1: expected a type system definition, found Name \"query\""),
        ("", "1:1: expected a type system definition, found <EOF>"),
        ("directive @d on", "1:16: expected Name, found <EOF>"),
        ("extend directive @d on FIELD", "1:8: expected a schema or type to extend, found Name \"directive\""),
        ("type Query { a: [Int }", "1:22: expected \"]\", found \"}\""),
    ])
    func broken(sdl: String, expected: String) {
        #expect(F.schemaError(sdl) == expected)
    }
}
