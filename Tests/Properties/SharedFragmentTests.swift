import Baton
import BatonSim
import Testing

/// A world's fragments are shared by its files, as an app's code generator reads its folder: an
/// operation may spread a fragment defined in another file, and the store is handed the operation
/// with that definition appended.
@Suite("Worlds: fragments defined in one file, spread in another")
struct SharedFragmentTests {
    static let schema = """
        type Query { character(id: ID!): Character, characters: [Character], node(id: ID!): Node }
        interface Node { id: ID! }
        type Character implements Node { id: ID!, name: String, status: String, location: Location }
        type Location implements Node { id: ID!, name: String }
        """
    static let fragmentsFile = """
        # Shared by every screen.
        fragment Place on Location { id name }

        fragment Person on Character {
          id
          name
          location { ...Place }
        }
        """

    @MainActor
    @Test("an operation spreading another file's fragment loads, its document holds the definitions it needs, and seeds run clean")
    func loadsAndRuns() throws {
        let world = try World.make(name: "shared", schema: Self.schema, operations: [
            (source: "Fragments.graphql", text: Self.fragmentsFile),
            (source: "Screens.graphql", text: "query Screen($id: ID!) { character(id: $id) { ...Person status } }\nquery List { characters { id name } }"),
        ])
        let screen = try #require(world.operation(named: "Screen"))
        // The spread fragment and the one it spreads, each as its file spells it, after the
        // operation's own text; an operation that spreads nothing keeps its text alone.
        #expect(screen.documentText == """
            query Screen($id: ID!) { character(id: $id) { ...Person status } }
            query List { characters { id name } }
            fragment Place on Location { id name }


            fragment Person on Character {
              id
              name
              location { ...Place }
            }
            """)
        #expect(world.operation(named: "List")?.documentText == "query Screen($id: ID!) { character(id: $id) { ...Person status } }\nquery List { characters { id name } }")
        // The store builds its plan from that text alone (it would refuse an unknown fragment).
        _ = try Plan.build(document: screen.documentText, schema: world.schema, operationName: "Screen")
        #expect(throws: (any Error).self) {
            try Plan.build(document: "query Screen($id: ID!) { character(id: $id) { ...Person status } }", schema: world.schema, operationName: "Screen")
        }
        for seed: UInt64 in 0..<6 {
            let outcome = Simulation.run(seed: seed, options: .init(events: 120, world: world))
            #expect(outcome.failure == nil, "seed \(seed): \(outcome.failure.map(String.init(describing:)) ?? "")")
        }
    }

    @Test("a problem inside another file's fragment names that file; copies of a fragment in several files load, differing ones are refused where another file spreads them")
    func errorsNameTheFragmentsFile() throws {
        #expect {
            try World.make(name: "bad", schema: Self.schema, operations: [
                (source: "Fragments.graphql", text: "fragment Person on Character {\n  id\n  nickname\n}"),
                (source: "Screens.graphql", text: "query Screen { characters { ...Person } }"),
            ])
        } throws: { error in
            (error as? WorldError)?.description.hasPrefix("Fragments.graphql:3:3: field \"nickname\" does not exist on \"Character\"") == true
        }
        // Two files that each carry their own copy (the decision record's documents do) load; a
        // third file's spread of a name two files define differently is refused where it spreads.
        let copies = try World.make(name: "copies", schema: Self.schema, operations: [
            (source: "A.graphql", text: "query A { characters { ...Person } }\nfragment Person on Character { id name }"),
            (source: "B.graphql", text: "query B { characters { ...Person status } }\n# the same, spelled otherwise\nfragment Person on Character {\n  id,\n  name\n}"),
            (source: "C.graphql", text: "query C { characters { ...Person } }"),
        ])
        #expect(copies.operation(named: "C")?.documentText == "query C { characters { ...Person } }\nfragment Person on Character { id name }")
        #expect(copies.operation(named: "B")?.documentText.hasSuffix("name\n}") == true)
        let ownCopies = try World.make(name: "own", schema: Self.schema, operations: [
            (source: "A.graphql", text: "query A { characters { ...Person } }\nfragment Person on Character { id name }"),
            (source: "B.graphql", text: "query B { characters { ...Person } }\nfragment Person on Character { id status }"),
        ])
        #expect(ownCopies.operation(named: "B")?.fragments["Person"]?.selections.count == 2)
        #expect {
            try World.make(name: "differ", schema: Self.schema, operations: [
                (source: "A.graphql", text: "fragment Person on Character { id name }"),
                (source: "B.graphql", text: "fragment Person on Character { id status }"),
                (source: "C.graphql", text: "query C {\n  characters { ...Person }\n}"),
            ])
        } throws: { error in
            (error as? WorldError)?.description.hasPrefix("C.graphql:2:16: fragment \"Person\" is defined differently in A.graphql:1:1 and B.graphql:1:1") == true
        }
        #expect {
            try World.make(name: "twice", schema: Self.schema, operations: [
                (source: "A.graphql", text: "query Q { characters { ...Person } }\nfragment Person on Character { id }\n fragment Person on Character { name }"),
            ])
        } throws: { error in
            (error as? WorldError)?.description.hasPrefix("A.graphql:3:2: fragment \"Person\" is defined twice") == true
        }
        // Checks that see the fragments' fields merged with the operation's name the file too.
        #expect {
            try World.make(name: "merging", schema: Self.schema, operations: [
                (source: "Fragments.graphql", text: "fragment Person on Character {\n  id\n  name: status\n}"),
                (source: "Screens.graphql", text: "query Screen { characters { name ...Person } }"),
            ])
        } throws: { error in
            (error as? WorldError)?.description.hasPrefix("Fragments.graphql:3:3: \"name\" names both \"name\" and \"status\"") == true
        }
        #expect {
            try World.make(name: "typename", schema: Self.schema, operations: [
                (source: "Fragments.graphql", text: "\nfragment Any on Query { node(id: \"1\") { id } }"),
                (source: "Screens.graphql", text: "query Screen { ...Any }"),
            ])
        } throws: { error in
            (error as? WorldError)?.description.hasPrefix("Fragments.graphql:2:25: field \"Query.node\" is of the abstract type \"Node\"") == true
        }
        #expect {
            try World.make(name: "unknown", schema: Self.schema, operations: [
                (source: "Screens.graphql", text: "query Screen { characters { ...Nobody } }"),
            ])
        } throws: { error in
            (error as? WorldError)?.description.hasPrefix("Screens.graphql:1:29: unknown fragment \"Nobody\"") == true
        }
    }

    @Test("lines ending in CR or CRLF and characters beyond ASCII still cut a definition at the next one")
    func lineEndings() throws {
        let place = "fragment Place on Location { id name }\r\n# «là-bas»\r"
        let hero = #"fragment Hero on Query { character(id: "é☃") { id } } "#
        let person = "fragment Person on Character { id name }"
        let query = "query Q { ...Hero characters { ...Person location { ...Place } } }"
        let world = try World.make(name: "endings", schema: Self.schema, operations: [
            (source: "F.graphql", text: place + hero + person),
            (source: "Q.graphql", text: query),
        ])
        #expect(world.operation(named: "Q")?.documentText == [query, place, hero, person].joined(separator: "\n"))
    }
}
