import Foundation
import Testing

/// `--add-typename` lets a quick start run an app's documents as Apollo's code generators send
/// them: `__typename` in every selection set, which the files themselves leave out. (That a
/// failure's rerun command carries the flag: `FailureOutputTests.campaignOverFiles`.)
@Suite("The quick start adds __typename when asked")
struct AddTypenameOptionTests {
    /// A schema whose only query reads an interface, and a document that selects no `__typename`.
    private static let schema = """
        type Query { node(id: ID!): Node }
        interface Node { id: ID! }
        type Note implements Node { id: ID! title: String }
        type Tag implements Node { id: ID! label: String }
        """
    private static let document = """
        query NodeScreen($id: ID!) { node(id: $id) { id ... on Note { title } ... on Tag { label } } }
        """

    private static func write(in folder: URL) throws -> (schema: String, operations: String) {
        let schema = folder.appendingPathComponent("schema.graphql")
        let operations = folder.appendingPathComponent("NodeScreen.graphql")
        try Data(Self.schema.utf8).write(to: schema)
        try Data(Self.document.utf8).write(to: operations)
        return (schema.path, operations.path)
    }

    @Test("without the flag the refusal names it; with it the same files run clean")
    func refusedThenRun() throws {
        try TemporaryFolder.with { folder in
            let files = try Self.write(in: folder)
            let words = ["sim", "campaign", "--seeds", "0..2", "--events", "30", "--regressions", "none",
                         "--schema", files.schema, "--operations", files.operations]
            let refused = try BatonProcess.run(words, in: folder)
            #expect(refused.status == 65)
            #expect(refused.errorLines.count == 1, "\(refused.stderr)")
            #expect(refused.stderr.contains("does not select __typename") && refused.stderr.contains("--add-typename"), "\(refused.stderr)")

            let run = try BatonProcess.run(words + ["--add-typename"], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("failures: 0"), "\(run.stdout)")
        }
    }
}
