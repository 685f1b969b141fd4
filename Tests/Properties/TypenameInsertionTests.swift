import Baton
import BatonSim
import Foundation
import Testing

/// `addTypename`: an app's `.graphql` files run as its code generator sends them, with
/// `__typename` in every selection set but the operations' own.
@Suite("Worlds: __typename added as Apollo's code generators add it")
struct TypenameInsertionTests {
    static let schema = """
        type Query { node(id: ID!): Node, search(filter: Filter = {text: "{"}): [Result] }
        input Filter { text: String, limit: Int }
        interface Node { id: ID! }
        union Result = Issue | User
        type Issue implements Node { id: ID!, title: String, author: Actor }
        type User implements Node & Actor { id: ID!, login: String }
        type Bot implements Actor { id: ID!, login: String }
        interface Actor { login: String }
        """

    @Test("every { outside parentheses but an operation's own gets __typename; strings, block strings, comments and input objects are left as they are")
    func insertsWhereApolloDoes() {
        let source = "query Q($f: Filter = {text: \"}\"}) { search(filter: {text: \"{ x\"}) { ... on Issue { title } } }\r\n"
            + "# a comment { with a brace\n"
            + "fragment F on Issue @include(if: true) { author { login } }\r"
            + "query D { node(id: \"\"\"a \\\"\"\" { \"\"\") { id } }\n"
        let insertion = TypenameInsertion(source)
        #expect(insertion.text == "query Q($f: Filter = {text: \"}\"}) { search(filter: {text: \"{ x\"}) { __typename ... on Issue { __typename title } } }\r\n"
            + "# a comment { with a brace\n"
            + "fragment F on Issue @include(if: true) { __typename author { __typename login } }\r"
            + "query D { node(id: \"\"\"a \\\"\"\" { \"\"\") { __typename id } }\n")
        // Columns of the new text, counted in Unicode scalars as the lexer counts them.
        #expect(insertion.insertions.map(\.line) == [1, 1, 3, 3, 4])
        #expect(insertion.insertions.first?.column == 68)
    }

    @Test("a problem after an insertion is placed at its column in the user's file, one inside the inserted text at its brace")
    func placesProblemsInTheUsersFile() {
        let source = "query Q { node(id: \"1\") { ... on Issue { titel } } }"
        let insertion = TypenameInsertion(source)
        let column = source.distance(from: source.startIndex, to: source.range(of: "titel")!.lowerBound) + 1
        let moved = insertion.text.distance(from: insertion.text.startIndex, to: insertion.text.range(of: "titel")!.lowerBound) + 1
        #expect(moved == column + 2 * TypenameInsertion.inserted.count)
        #expect(insertion.original(GraphQLLocation(line: 1, column: moved)) == GraphQLLocation(line: 1, column: column))
        let brace = source.distance(from: source.startIndex, to: source.range(of: "{ ... on")!.lowerBound) + 1
        #expect(insertion.original(GraphQLLocation(line: 1, column: brace + 3)) == GraphQLLocation(line: 1, column: brace))
        #expect(insertion.original(GraphQLLocation(line: 2, column: 5)) == GraphQLLocation(line: 2, column: 5))
    }

    @MainActor
    @Test("a world whose documents leave out __typename on abstract fields is refused, loads with addTypename, and runs clean; its errors name the user's columns")
    func worldLoadsAndRuns() throws {
        let operations = [
            (source: "Screens.graphql", text: "query Issue($id: ID!) { node(id: $id) { id ... on Issue { title author { login } } } }\nquery Search { search { ... on Issue { id title } ... on User { id login } } }"),
        ]
        #expect(throws: WorldError.self) { try World.make(name: "app", schema: Self.schema, operations: operations) }
        var settings = WorldSettings()
        settings.addTypename = true
        let world = try World.make(name: "app", schema: Self.schema, operations: operations, settings: settings)
        let issue = try #require(world.operation(named: "Issue"))
        #expect(issue.documentText.contains("node(id: $id) { __typename id ... on Issue { __typename title author { __typename login } } }"))
        for seed in UInt64(0)..<8 {
            let outcome = Simulation.run(seed: seed, options: .init(events: 150, world: world))
            #expect(outcome.failure == nil, "seed \(seed): \(outcome.failure.map { "\($0)" } ?? "")")
        }
        let text = "query B { node(id: \"1\") { ... on Issue { titel } } }"
        let broken = [(source: "Broken.graphql", text: text)]
        let error = try #require(throws: WorldError.self) { try World.make(name: "app", schema: Self.schema, operations: broken, settings: settings) }
        let column = text.distance(from: text.startIndex, to: text.range(of: "titel")!.lowerBound) + 1
        #expect(error.source == "Broken.graphql" && error.line == 1 && error.column == column, "\(error)")
    }

    @Test("world.json's addTypename is read before the operations, and a value that is not true or false is refused where it stands")
    func settingIsRead() throws {
        let schema = try Schema.parse(Self.schema)
        #expect(try WorldSettings.addsTypename("{\"addTypename\": true}", source: "world.json"))
        #expect(try !WorldSettings.addsTypename("{\"listLength\": 2}", source: "world.json"))
        #expect(try WorldSettings.parse("{\"addTypename\": true}", source: "world.json", schema: schema, operationNames: []).addTypename)
        let error = try #require(throws: WorldError.self) {
            try WorldSettings.parse("{\n  \"addTypename\": \"yes\"\n}", source: "world.json", schema: schema, operationNames: [])
        }
        #expect(error.line == 2 && error.message.contains("expected true or false"), "\(error)")
    }

    @Test("a world folder with addTypename in its world.json loads its documents as written")
    func folderLoads() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-typename-\(UInt64.random(in: 0..<UInt64.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.schema.write(to: folder.appendingPathComponent("schema.graphql"), atomically: true, encoding: .utf8)
        try "query Issue($id: ID!) { node(id: $id) { id ... on Issue { author { login } } } }"
            .write(to: folder.appendingPathComponent("Issue.graphql"), atomically: true, encoding: .utf8)
        #expect(throws: WorldError.self) { try World.load(directory: folder.path) }
        try "{\"addTypename\": true}".write(to: folder.appendingPathComponent("world.json"), atomically: true, encoding: .utf8)
        let world = try World.load(directory: folder.path)
        #expect(world.settings.addTypename)
        #expect(world.operation(named: "Issue")?.documentText.contains("author { __typename login }") == true)
        // The public API takes the same switch.
        let text = try String(contentsOf: folder.appendingPathComponent("Issue.graphql"), encoding: .utf8)
        #expect(throws: SimulationWorldError.self) { try SimulationWorld(schema: Self.schema, operations: ["Issue.graphql": text]) }
        _ = try SimulationWorld(schema: Self.schema, operations: ["Issue.graphql": text], addTypename: true)
    }
}
