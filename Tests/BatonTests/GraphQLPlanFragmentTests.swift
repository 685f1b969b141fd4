import Baton
import Testing

private typealias F = GraphQLFixtures

@Suite("GraphQL plans: fragments")
struct GraphQLPlanFragmentTests {
    static let document = """
        query Q {
          hero {
            ...HeroFields
            ...NamedFields
            ... on Character { age }
            ... { id }
          }
          node(id: "1") {
            ... on Character { name }
            ... on Named { name }
            ... on SearchResult { __typename }
            ...NodeFields
          }
          search(text: "x") {
            ... on Being { id }
            ... on Planet { diameter }
            ... on Person { __typename }
          }
        }
        fragment HeroFields on Character { name }
        fragment NamedFields on Named { name }
        fragment NodeFields on Node { id }
        """

    @Test("fragments narrow only when the parent type does not settle the condition")
    func possibleTypes() throws {
        #expect(F.lines(try F.plan(Self.document)) == [
            "hero: object Character",
            "  ...",
            "    name: string String",
            "  ...",
            "    name: string String",
            "  ...",
            "    age: int Int",
            "  ...",
            "    id: id ID",
            "node(id:\"1\"): abstract Node",
            "  ... on Character",
            "    name: string String",
            "  ... on Character|Droid",
            "    name: string String",
            "  ...",
            "    __typename: string String",
            "  ...",
            "    id: id ID",
            "search(text:\"x\"): abstract SearchResult[1]",
            "  ... on Character|Droid",
            "    id: id ID",
            "  ... on Planet",
            "    diameter: int Int",
            "  ... on Character|Droid",
            "    __typename: string String",
        ])
    }

    @Test("a condition covering every type an abstract parent can be always applies")
    func coveringConditions() throws {
        let schema = try Schema.parse("""
            type Query { media: [Media] node: Node }
            interface Node { id: ID! }
            interface Owned { owner: String }
            type Photo implements Node & Owned { id: ID! owner: String }
            type Post implements Node { id: ID! }
            union Media = Photo | Post
            union Photos = Photo
            """)
        let plan = try Plan.build(document: """
            {
              media { ... on Node { kind: __typename } ...Ids ... on Owned { owner } ... on Photos { id: __typename } }
              node { ... on Media { __typename } }
            }
            fragment Ids on Node { id }
            """, schema: schema)
        #expect(F.lines(plan) == [
            "media: abstract Media[1]",
            "  ...",
            "    kind: __typename: string String",
            "  ...",
            "    id: id ID",
            "  ... on Photo",
            "    owner: string String",
            "  ... on Photo",
            "    id: __typename: string String",
            "node: abstract Node",
            "  ...",
            "    __typename: string String",
        ])
        guard case .field(let media)? = plan.selections.selections.first, let set = media.selections else {
            Issue.record("unexpected plan")
            return
        }
        // Before the record's type is known, the covering fragment's aliased __typename is visible.
        #expect(set.fields(for: nil, variables: try plan.variables()).map(\.responseKey) == ["kind", "id"])
    }

    @Test("a record gets the fields of the fragments its type satisfies")
    func fieldsForRecords() throws {
        let plan = try F.plan(Self.document)
        guard case .field(let node) = plan.selections.selections[1], let set = node.selections else {
            Issue.record("unexpected plan")
            return
        }
        let variables = try plan.variables()
        #expect(set.fields(for: "Planet", variables: variables).map(\.responseKey) == ["__typename", "id"])
        #expect(set.fields(for: nil, variables: variables).map(\.responseKey) == ["__typename", "id"])
        #expect(set.fields(for: "Droid", variables: variables).map(\.responseKey) == ["name", "__typename", "id"])
        #expect(set.fields(for: "Character", variables: variables).map(\.responseKey) == ["name", "name", "__typename", "id"])
    }

    @Test("a fragment spread many times is resolved once and shared")
    func sharedFragments() throws {
        var fragments = ""
        for level in 0..<40 {
            fragments += "fragment F\(level) on Character { name ...F\(level + 1) ...F\(level + 1) }\n"
        }
        fragments += "fragment F40 on Character { id }\n"
        let plan = try F.plan("{ hero { ...F0 } bestFriend: hero { ...F0 } }\n" + fragments)
        guard case .field(let first) = plan.selections.selections[0],
              case .field(let second) = plan.selections.selections[1],
              case .fragment(nil, let a)? = first.selections?.selections.first,
              case .fragment(nil, let b)? = second.selections?.selections.first
        else {
            Issue.record("unexpected plan")
            return
        }
        // Building is linear in the document although the inlined tree has 2^40 paths.
        #expect(a === b)
        #expect(a.selections.count == 3)
    }

    @Test("nested fragments inline at every level")
    func nested() throws {
        let plan = try F.plan("""
            { node(id: 1) { ...A } }
            fragment A on Node { id ... on Character { ...B } }
            fragment B on Character { bestFriend { id } name }
            fragment Unused on Planet { diameter }
            """)
        #expect(F.lines(plan) == [
            "node(id:1): abstract Node",
            "  ...",
            "    id: id ID",
            "    ... on Character",
            "      ...",
            "        bestFriend: object Character",
            "          id: id ID",
            "        name: string String",
        ])
    }

    @Test("fragment errors name the fragment and where it is spread", arguments: [
        ("{ node(id: \"1\") { ... on Robot { id } } }", "1:26: unknown type \"Robot\" in a fragment's type condition"),
        ("{ hero { ...Missing } }", "1:10: unknown fragment \"Missing\""),
        ("query Q { hero { ...A } }\nfragment A on Character { ...B }\nfragment B on Character { bestFriend { ...A } }",
         "3:40: fragment cycle: A -> B -> A"),
        ("query Q { hero { ...A } }\nfragment A on Character { ...A }", "2:27: fragment cycle: A -> A"),
        ("{ hero { ... on Droid { id } } }", "1:10: an inline fragment on \"Droid\" can never apply within \"Character\""),
        ("{ hero { ...P } }\nfragment P on Planet { id }", "1:10: fragment \"P\" on \"Planet\" can never apply within \"Character\""),
        ("{ search(text: \"\") { ... on Planet { ... on Named { name } } } }", "1:38: an inline fragment on \"Named\" can never apply within \"Planet\""),
        ("{ hero { ... on Status { id } } }", "1:17: a fragment cannot have the condition \"Status\": it is not an object, interface or union"),
        ("{ hero { ...S } }\nfragment S on CharacterFilter { name }", "2:15: a fragment cannot have the condition \"CharacterFilter\": it is not an object, interface or union"),
        ("query Q { version }\nfragment F on Query { version }\nfragment F on Query { version }", "3:1: fragment \"F\" is defined more than once (first at 2:1)"),
        ("{ hero { ... on Character { nope } } }", "1:29: unknown field \"nope\" on type \"Character\""),
    ])
    func errors(source: String, expected: String) {
        #expect(F.planError(source) == expected)
    }

    @Test("long chains of fragments stop at the depth limit instead of exhausting the stack")
    func depthLimit() throws {
        func chain(_ count: Int) -> String {
            var source = "{ hero { ...F0 } }\n"
            for level in 0..<count {
                source += "fragment F\(level) on Character { ...F\(level + 1) }\n"
            }
            return source + "fragment F\(count) on Character { id }\n"
        }
        #expect(throws: Never.self) { _ = try F.plan(chain(200)) }
        // The root, `hero` and F0…F253 fill 256 levels; F254, on line 256, is one too many.
        #expect(F.planError(chain(400)) == "256:1: selections nest deeper than 256 levels (fragments included)")
    }
}
