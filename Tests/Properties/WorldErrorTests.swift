import Baton
import BatonSim
import Foundation
import Testing

/// Every kind of world the server cannot serve is an error before any seed runs, naming the file,
/// line and column.
@Suite("World errors name file, line and column")
struct WorldErrorTests {
    static let schema = """
        type Query {
          character(id: ID!): Character
          characters(first: Int, after: String, filter: Filter): CharacterConnection
          count(min: Int): Int
          search(term: String): [SearchResult]
          node(id: ID!): Node
          vehicle: Vehicle
        }
        type Ship { id: ID! name: String }
        union Vehicle = Character | Ship
        interface Node { id: ID! }
        interface Orphan { name: String }
        type Character implements Node { id: ID! name: String status: Status friends: [Character] orphan: Orphan counter: Counter }
        type Counter { id: Float! value: Int }
        enum Status { ALIVE DEAD }
        input Filter { status: Status name: String! }
        union SearchResult = Character
        type CharacterConnection { edges: [CharacterEdge] pageInfo: PageInfo! }
        type CharacterEdge { cursor: String! node: Character }
        type PageInfo { startCursor: String endCursor: String hasNextPage: Boolean! hasPreviousPage: Boolean! }
        type Mutation {
          rename(id: ID!, name: String): RenamePayload
          touch(name: String): RenamePayload
          relabel(id: ID!, name: Int): RenamePayload
          pair(id: ID!): PairPayload
        }
        type RenamePayload { character: Character removed: ID }
        type PairPayload { character: Character node: Counter }
        type Subscription { count: Int }
        """

    /// A document, and the error it must produce: its position and a part of its message.
    struct Case: CustomStringConvertible, Sendable {
        let name: String
        let document: String
        let position: String
        let message: String

        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "syntax", document: "query Q {\n  character(id: \"1\") { id \n", position: "3:1", message: "expected"),
        Case(name: "anonymous operation", document: "{ count }", position: "1:1", message: "needs a name"),
        Case(name: "unknown field", document: "query Q {\n  character(id: \"1\") { nme }\n}", position: "2:24", message: "field \"nme\" does not exist on \"Character\""),
        Case(name: "leaf with selections", document: "query Q { count { x } }", position: "1:11", message: "cannot have a selection set"),
        Case(name: "composite without selections", document: "query Q { character(id: \"1\") }", position: "1:11", message: "needs a selection of subfields"),
        Case(name: "unknown argument", document: "query Q { count(max: 1) }", position: "1:17", message: "unknown argument \"max\""),
        Case(name: "missing required argument", document: "query Q { character { id } }", position: "1:11", message: "needs the argument \"id\""),
        Case(name: "literal of the wrong type", document: "query Q { count(min: \"one\") }", position: "1:17", message: "expects \"Int\", found a String"),
        Case(name: "Int beyond 32 bits", document: "query Q { count(min: 3000000000) }", position: "1:17", message: "does not fit a 32-bit Int"),
        Case(name: "unknown enum value", document: "query Q { characters(filter: {name: \"a\", status: ZOMBIE}) { edges { cursor } } }", position: "1:42", message: "\"ZOMBIE\" is not a value"),
        Case(name: "missing input field", document: "query Q { characters(filter: {status: ALIVE}) { edges { cursor } } }", position: "1:22", message: "needs the field \"name\""),
        Case(name: "undeclared variable", document: "query Q { count(min: $m) }", position: "1:22", message: "\"$m\" is not declared"),
        Case(name: "variable of the wrong type", document: "query Q($m: String) { count(min: $m) }", position: "1:34", message: "cannot be used where \"Int\" is expected"),
        Case(name: "nullable variable in a non-null place", document: "query Q($id: ID) {\n  character(id: $id) { id }\n}", position: "2:17", message: "cannot be used where \"ID!\" is expected"),
        Case(name: "variable of an output type", document: "query Q($c: Character) { count }", position: "1:9", message: "not an input type"),
        Case(name: "unknown fragment", document: "query Q { character(id: \"1\") { ...Missing } }", position: "1:32", message: "unknown fragment \"Missing\""),
        Case(name: "fragment that cannot apply", document: "query Q { character(id: \"1\") { ...C } }\nfragment C on PageInfo { hasNextPage }", position: "1:32", message: "can never apply"),
        Case(name: "fragment that spreads itself", document: "query Q { character(id: \"1\") { ...C } }\nfragment C on Character { friends { ...C } }", position: "2:37", message: "spreads itself"),
        Case(name: "fragment defined twice", document: "query Q { count }\nfragment C on Character { id }\nfragment C on Character { name }", position: "3:1", message: "defined twice"),
        Case(name: "inline fragment on an unknown type", document: "query Q { node(id: \"1\") { ... on Ghost { id } } }", position: "1:34", message: "unknown type \"Ghost\""),
        Case(name: "@include without its condition", document: "query Q { count @include }", position: "1:17", message: "needs the argument \"if\""),
        Case(name: "@skip with a String", document: "query Q { count @skip(if: \"yes\") }", position: "1:23", message: "expects \"Boolean\""),
        Case(name: "@connection on a list", document: "query Q { character(id: \"1\") { friends @connection(key: \"F\") { id } } }", position: "1:40", message: "needs a field whose type is a connection"),
        Case(name: "@connection without a key", document: "query Q { characters @connection { edges { cursor } } }", position: "1:22", message: "needs the argument \"key\""),
        Case(name: "@connection filter that is no argument", document: "query Q { characters @connection(key: \"K\", filters: [\"status\"]) { edges { cursor } } }", position: "1:44", message: "filter \"status\" is not an argument"),
        Case(name: "@deleteRecord on an Int", document: "query Q { count @deleteRecord }", position: "1:17", message: "needs a field of type ID or String"),
        Case(name: "@deleteRecord of a type without id", document: "mutation M { rename(id: \"1\") { character { id @deleteRecord(typename: \"PageInfo\") } } }", position: "1:61", message: "must name an object type with an id"),
        Case(name: "@connection on a fragment", document: "query Q { character(id: \"1\") { ... @connection(key: \"K\") { id } } }", position: "1:36", message: "allowed on fields only"),
        Case(name: "response keys that conflict", document: "query Q {\n  character(id: \"1\") { a: id a: name }\n}", position: "2:30", message: "names both \"id\" and \"name\""),
        Case(name: "arguments that conflict", document: "query Q { count(min: 1) count(min: 2) }", position: "1:25", message: "different arguments"),
        Case(name: "a type the server cannot key", document: "query Q { character(id: \"1\") { counter { value } } }", position: "1:32", message: "\"Counter.id\" is \"Float!\""),
        Case(name: "an interface nothing implements", document: "query Q { character(id: \"1\") { orphan { name } } }", position: "1:32", message: "which no object type implements"),
        Case(name: "a deletion without an id", document: "mutation M { touch(name: \"x\") { character { id @deleteRecord(typename: \"Character\") } } }", position: "1:14", message: "cannot tell which object it deletes"),
        Case(name: "a mutation whose payload names two types", document: "mutation M { pair(id: \"1\") { character { id } node { value } } }", position: "1:14", message: "entities of several types"),
        Case(name: "a deletion whose type nothing names", document: "mutation M { touch(name: \"x\") { removed @deleteRecord } }", position: "1:14", message: "its @deleteRecord names no typename:"),
        Case(name: "an abstract type without __typename", document: "query Q { node(id: \"1\") { id } }", position: "1:11", message: "does not select __typename for \"Character\""),
        Case(name: "__typename for one of a union's two members", document: "query Q { vehicle { ... on Character { __typename id } ... on Ship { id } } }", position: "1:11", message: "does not select __typename for \"Ship\""),
        Case(name: "__typename that @include can take away", document: "query Q($x: Boolean!) { node(id: \"1\") { __typename @include(if: $x) id } }", position: "1:25", message: "does not select __typename"),
        Case(name: "an abstract type without __typename under a fragment", document: "query Q { ...F }\nfragment F on Query { node(id: \"1\") { id } }", position: "2:23", message: "abstract type \"Node\""),
        Case(name: "an unknown field in a fragment no operation spreads", document: "query Q { count }\nfragment Unused on Character { id nme }", position: "2:35", message: "field \"nme\" does not exist on \"Character\""),
        Case(name: "an unknown directive in a fragment no operation spreads", document: "query Q { count }\nfragment Unused on Character { id @later }", position: "2:35", message: "unknown directive @later"),
        Case(name: "a fragment no operation spreads on an unknown type", document: "query Q { count }\nfragment Unused on Ghost { id }", position: "2:20", message: "unknown type \"Ghost\""),
        Case(name: "fields under one key with different leaf types", document: "query Q { vehicle { __typename ... on Character { id x: status } ... on Ship { id x: name } } }", position: "1:83", message: "\"x\" answers \"Status\" (Character.status) in one selection and \"String\" (Ship.name) in another"),
        Case(name: "fields under one key, one non-null", document: "query Q { vehicle { __typename ... on Character { x: id } ... on Ship { x: name } } }", position: "1:73", message: "\"x\" answers \"ID!\" (Character.id) in one selection and \"String\" (Ship.name)"),
        Case(name: "a subscription of two root fields", document: "query Q { count }\nsubscription S { count c: count }", position: "2:1", message: "selects 2 root fields (c, count); a subscription selects exactly one"),
        Case(name: "Relay's __id", document: "query Q { characters { __id edges { cursor } } }", position: "1:24", message: "Relay's compiler adds it"),
        Case(name: "an introspection field", document: "query Q { __schema { queryType { name } } }", position: "1:11", message: "the introspection field \"__schema\" is not simulated"),
    ]

    @Test("each kind of error", arguments: cases)
    func error(_ testCase: Case) throws {
        var schema = Self.schema
        if testCase.name == "a mutation whose payload names two types" {
            schema = schema.replacingOccurrences(of: "type Counter { id: Float! value: Int }", with: "type Counter { id: ID! value: Int }")
        }
        do {
            _ = try WorldFixtures.world(schema, testCase.document)
            Issue.record("\(testCase.name): the world was accepted")
        } catch let error as WorldError {
            #expect(error.source == "Test.graphql")
            #expect("\(error.line):\(error.column)" == testCase.position, "\(testCase.name): \(error)")
            #expect(error.message.contains(testCase.message), "\(testCase.name): \(error)")
            #expect(error.description == "Test.graphql:\(error.line):\(error.column): \(error.message)")
        }
    }

    @Test("__typename on an abstract field counts wherever it reaches every possible type", arguments: [
        "query Q { vehicle { ... on Character { __typename id } ... on Ship { __typename id } } }",
        "query Q { node(id: \"1\") { id } node(id: \"1\") { __typename } }",
        "query Q { node(id: \"1\") { ...N } }\nfragment N on Node { __typename id }",
        "query Q { vehicle { ... { __typename } ... on Ship { name } } search(term: \"a\") { __typename } }",
    ])
    func typenameAccepted(_ document: String) throws {
        let world = try WorldFixtures.world(Self.schema, document)
        #expect(world.operation(named: "Q") != nil)
    }

    @Test("a mutation argument named like a field but of another type sets nothing, and the world loads")
    func argumentOfAnotherType() throws {
        let world = try WorldFixtures.world(Self.schema, "mutation M { relabel(id: \"1\", name: 3) { character { name } } }")
        let relabel = try #require(world.analysis.mutations["M"]?["relabel"])
        #expect(relabel.targetType == "Character")
        #expect(relabel.setters.isEmpty)
        #expect(relabel.renewedFields == ["name"])
    }

    @Test("a fragment no operation spreads loads when it is valid, whatever variables it uses and whatever types it reaches; one in another file is named in its error")
    func unspreadFragments() throws {
        let world = try WorldFixtures.world(
            Self.schema, "query Q { count }\nfragment Counted on Query { count(min: $n) character(id: \"1\") { counter { value } } }")
        #expect(world.operation(named: "Q") != nil)
        #expect {
            try World.make(
                name: "two files", schema: Self.schema,
                operations: [(source: "Q.graphql", text: "query Q { count }"), (source: "F.graphql", text: "fragment F on Character { ...G }\nfragment G on Character { nme }")])
        } throws: { error in
            (error as? WorldError)?.description.hasPrefix("F.graphql:2:27: field \"nme\" does not exist on \"Character\"") == true
        }
    }

    @Test("fields of two types under one key load when their shapes agree")
    func sameShapeAccepted() throws {
        let world = try WorldFixtures.world(Self.schema, "query Q { vehicle { __typename ... on Character { id x: name } ... on Ship { id x: name } } }")
        #expect(world.operation(named: "Q") != nil)
    }

    @Test("two operations with one name, in two files")
    func duplicateNames() throws {
        #expect {
            try World.make(
                name: "dup", schema: "type Query { a: Int }",
                operations: [(source: "One.graphql", text: "query A { a }"), (source: "Two.graphql", text: "\n  query A { a }")])
        } throws: { error in
            (error as? WorldError)?.description.hasPrefix("Two.graphql:2:3: operation \"A\" is defined twice (first in One.graphql:1:1)") == true
        }
    }

    @Test("a schema error names the schema's source")
    func schemaSyntax() throws {
        #expect {
            try World.make(name: "bad", schema: "type Query {\n  a: Int\n  b: Missing\n}", operations: [], schemaSource: "schema.graphql")
        } throws: { error in
            guard let error = error as? WorldError else { return false }
            return error.source == "schema.graphql" && error.line == 3 && error.message.contains("Missing")
        }
    }

    @Test("world.json: unknown keys, bad ranges and rates, unknown types and operations")
    func settingsErrors() throws {
        let cases: [(text: String, position: String, message: String)] = [
            ("{\n  \"entitesPerType\": [1, 2]\n}", "2:3", "unknown setting \"entitesPerType\""),
            ("{\"listLength\": [3, 1]}", "1:16", "is reversed"),
            ("{\"listLength\": [-1, 1]}", "1:17", "whole number of at least 0"),
            ("{\"errorRates\": [0, 1.5]}", "1:20", "chance between 0 and 1"),
            ("{\"errorRates\": []}", "1:16", "non-empty array"),
            ("{\"entities\": {\"Ghost\": 3}}", "1:15", "\"Ghost\" is not an object type with an id"),
            ("{\"unansweredOperations\": [\"Nope\"]}", "1:27", "no operation \"Nope\""),
            ("{\"valueVersions\": 0}", "1:19", "at least one version"),
            ("{\"globalIDs\": 1}", "1:15", "expected true or false"),
            ("{\"listLength\": 2,\n \"listLength\": 3}", "2:2", "given twice"),
            ("{\"listLength\": 2", "1:17", "expected \",\" or \"}\""),
            ("[1]", "1:1", "one JSON object"),
        ]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-world-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "type Query { a: Int }\ntype Thing { id: ID! }".write(to: folder.appendingPathComponent("schema.graphql"), atomically: true, encoding: .utf8)
        try "query A { a }".write(to: folder.appendingPathComponent("A.graphql"), atomically: true, encoding: .utf8)
        let settings = folder.appendingPathComponent("world.json")
        for (text, position, message) in cases {
            try text.write(to: settings, atomically: true, encoding: .utf8)
            do {
                _ = try World.load(directory: folder.path)
                Issue.record("\(text): accepted")
            } catch let error as WorldError {
                #expect(error.source == settings.path, "\(text)")
                #expect("\(error.line):\(error.column)" == position, "\(text): \(error)")
                #expect(error.message.contains(message), "\(text): \(error)")
            }
        }
        try "{\"entities\": {\"Thing\": [0, 2]}, \"unansweredOperations\": [\"A\"]}".write(to: settings, atomically: true, encoding: .utf8)
        let world = try World.load(directory: folder.path)
        #expect(world.settings.entityCount(of: "Thing") == 0...2)
        #expect(world.settings.unansweredOperations == ["A"])
    }

    @Test("a folder without a schema, or with two")
    func schemaFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-world-schema-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: WorldError.self) { try World.load(directory: folder.path) }
        try "type Query { a: Int }".write(to: folder.appendingPathComponent("schema.graphql"), atomically: true, encoding: .utf8)
        try "type Query { a: Int }".write(to: folder.appendingPathComponent("schema.graphqls"), atomically: true, encoding: .utf8)
        #expect {
            try World.load(directory: folder.path)
        } throws: { error in
            (error as? WorldError)?.message.contains("schema.graphql and schema.graphqls; keep one") == true
        }
    }
}
