import Foundation
import Testing

/// `--schema FILE,FILE…`: the schema, then SDL files that extend it, as Apollo Kotlin keeps
/// client-side fields and directives in `extra.graphqls` beside `schema.graphqls`; and
/// `--unanswered`, a folder's `unansweredOperations` for the quick start.
@Suite("The quick start reads schema extensions and unanswered operations")
struct SchemaExtensionOptionTests {
    private static let schema = "type Query { notes: [Note!]! }\ntype Note { id: ID! title: String }\n"
    private static let extra = "# fields the app adds\nextend type Note { pinned: Boolean }\n"
    private static let document = "query Notes { notes { id title pinned } }\n"

    @Test("the operation that selects an extension's field runs with it, is refused without it, and an error in it names the file and its line")
    func extensions() throws {
        try TemporaryFolder.with { folder in
            let schema = folder.appendingPathComponent("schema.graphqls").path
            let extra = folder.appendingPathComponent("extra.graphqls").path
            let operations = folder.appendingPathComponent("Notes.graphql").path
            try Data(Self.schema.utf8).write(to: URL(fileURLWithPath: schema))
            try Data(Self.extra.utf8).write(to: URL(fileURLWithPath: extra))
            try Data(Self.document.utf8).write(to: URL(fileURLWithPath: operations))
            let words = ["sim", "campaign", "--seeds", "0..2", "--events", "30", "--regressions", "none", "--operations", operations]

            let run = try BatonProcess.run(words + ["--schema", schema + "," + extra], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("failures: 0"), "\(run.stdout)")

            let without = try BatonProcess.run(words + ["--schema", schema], in: folder)
            #expect(without.status == 65)
            #expect(without.errorLines.count == 1 && without.stderr.contains("\"pinned\" does not exist on \"Note\""), "\(without.stderr)")

            try Data("# fields the app adds\nextend type Ghost { pinned: Boolean }\n".utf8).write(to: URL(fileURLWithPath: extra))
            let broken = try BatonProcess.run(words + ["--schema", schema + "," + extra], in: folder)
            #expect(broken.status == 65)
            #expect(broken.errorLines.count == 1 && broken.stderr.contains("extra.graphqls:2:"), "\(broken.stderr)")

            let empty = try BatonProcess.run(words + ["--schema", ","], in: folder)
            #expect(empty.status == 64)
            #expect(empty.errorLines.count == 1 && empty.stderr.contains("--schema takes a file"), "\(empty.stderr)")
        }
    }

    @Test("--unanswered keeps an operation the server cannot answer out of the schedule, and is refused where it means nothing")
    func unanswered() throws {
        try TemporaryFolder.with { folder in
            let schema = folder.appendingPathComponent("schema.graphqls").path
            let operations = folder.appendingPathComponent("Ops.graphql").path
            try Data((Self.schema + "type Mutation { archive(id: ID!): Archived }\ntype Archived { archivedId: ID }\n").utf8).write(to: URL(fileURLWithPath: schema))
            // It deletes, and nothing says what: the server cannot answer it.
            try Data("query Notes { notes { id title } }\nmutation Archive($id: ID!) { archive(id: $id) { archivedId @deleteRecord } }\n".utf8)
                .write(to: URL(fileURLWithPath: operations))
            let words = ["sim", "campaign", "--seeds", "0..2", "--events", "30", "--regressions", "none", "--schema", schema, "--operations", operations]

            let refused = try BatonProcess.run(words, in: folder)
            #expect(refused.status == 65)
            #expect(refused.errorLines.count == 1 && refused.stderr.contains("--unanswered NAME beside --schema"), "\(refused.stderr)")

            let run = try BatonProcess.run(words + ["--unanswered", "Archive"], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("failures: 0"), "\(run.stdout)")

            let unknown = try BatonProcess.run(words + ["--unanswered", "Archiv"], in: folder)
            #expect(unknown.status == 65)
            #expect(unknown.errorLines.count == 1 && unknown.stderr.contains("\"Archiv\", which is no operation of the world"), "\(unknown.stderr)")

            let misplaced = try BatonProcess.run(["sim", "run", "--seed", "1", "--unanswered", "Archive"], in: folder)
            #expect(misplaced.status == 64)
            #expect(misplaced.errorLines.count == 1 && misplaced.stderr.contains("--unanswered goes with --schema"), "\(misplaced.stderr)")
        }
    }
}
