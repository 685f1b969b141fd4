import Baton
import BatonSim
import Foundation
import Testing

/// A world folder as apps keep their documents: by screen or package, in subfolders.
@Suite("Worlds: operations in subfolders")
struct WorldFolderTests {
    static let schema = """
        type Query { issue(id: ID!): Issue, issues: [Issue!]! }
        type Mutation { closeIssue(id: ID!): Issue }
        type Issue { id: ID!, title: String, state: String }
        """

    /// A new folder's place under the temporary directory (not created).
    static func temporaryFolder(_ prefix: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UInt64.random(in: 0..<UInt64.max))")
    }

    /// Writes `text` at `path` under `root`, making the folders on the way.
    static func write(_ text: String, to path: String, in root: URL) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    @MainActor
    @Test("every .graphql under the folder is read, in path order; hidden and linked folders are passed over; an error names the nested file")
    func nestedFolders() throws {
        let root = Self.temporaryFolder("baton-nested")
        defer { try? FileManager.default.removeItem(at: root) }
        func write(_ path: String, _ text: String) throws { try Self.write(text, to: path, in: root) }
        try write("schema.graphql", Self.schema)
        try write("screens/issue/Issue.graphql", "query Issue($id: ID!) { issue(id: $id) { ...IssueFields } }")
        try write("screens/list/List.graphql", "query List { issues { ...IssueFields } }")
        try write("fragments/IssueFields.graphql", "fragment IssueFields on Issue { id title state }")
        try write("Close.graphql", "mutation Close($id: ID!) { closeIssue(id: $id) { id state } }")
        // A hidden folder's documents are not the app's, nor is a copy of the schema elsewhere.
        try write(".git/broken.graphql", "query {")
        try write("other/schema.graphql", Self.schema)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("screens/loop"), withDestinationURL: root)

        let world = try World.load(directory: root.path)
        #expect(world.operations.map(\.name) == ["Close", "Issue", "List"])
        #expect(world.operation(named: "Issue")?.source.hasSuffix("screens/issue/Issue.graphql") == true)
        for seed in UInt64(0)..<4 {
            let outcome = Simulation.run(seed: seed, options: .init(events: 120, world: world))
            #expect(outcome.failure == nil, "seed \(seed): \(outcome.failure.map { "\($0)" } ?? "")")
        }

        try write("screens/list/List.graphql", "query List { issues { id titel } }")
        let error = try #require(throws: WorldError.self) { try World.load(directory: root.path) }
        #expect(error.source.hasSuffix("screens/list/List.graphql") && error.line == 1, "\(error)")
    }

    @MainActor
    @Test("other .graphqls files are more of the schema (Apollo Kotlin's extra.graphqls); an error in one names it and its own line")
    func schemaExtensions() throws {
        let root = Self.temporaryFolder("baton-extra")
        defer { try? FileManager.default.removeItem(at: root) }
        func write(_ path: String, _ text: String) throws { try Self.write(text, to: path, in: root) }
        try write("schema.graphqls", Self.schema)
        // A field the app's screens select, and a client directive, declared beside the schema.
        try write("extra.graphqls", "# client-side additions\r\nextend type Issue { labelCount: Int }\r\ndirective @nonnull(fields: String) on OBJECT | FIELD\n")
        try write("List.graphql", "query List { issues { id title labelCount @nonnull } }")
        // A copy of the schema in a subfolder is not more of it.
        try write("downloaded/schema.graphqls", Self.schema)
        let world = try World.load(directory: root.path)
        #expect(world.schema.field("labelCount", on: "Issue") != nil)
        for seed in UInt64(0)..<3 {
            let outcome = Simulation.run(seed: seed, options: .init(events: 80, world: world))
            #expect(outcome.failure == nil, "seed \(seed): \(outcome.failure.map { "\($0)" } ?? "")")
        }

        try write("more/late.graphqls", "\n\nextend type Ghost { x: Int }")
        let error = try #require(throws: WorldError.self) { try World.load(directory: root.path) }
        #expect(error.source.hasSuffix("more/late.graphqls") && error.line == 3, "\(error)")
        #expect(error.message.contains("Ghost"), "\(error)")

        // Without the extension the operation does not validate: the file was what made it load.
        try FileManager.default.removeItem(at: root.appendingPathComponent("more"))
        try FileManager.default.removeItem(at: root.appendingPathComponent("extra.graphqls"))
        let missing = try #require(throws: WorldError.self) { try World.load(directory: root.path) }
        #expect(missing.message.contains("labelCount"), "\(missing)")
    }
}
