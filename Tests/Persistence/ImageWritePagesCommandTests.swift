import Baton
import Foundation
import Testing

/// `baton image write` checks the operation first, as a screen would, so a second page written by
/// a later process joins the connection the image holds. Before, memory held no connection and
/// the page was dropped while the command still said it wrote it.
@Suite("Command line: pages written by separate processes join")
struct ImageWritePagesCommandTests {
    @Test("a nodes connection paged by two image writes reads back both pages")
    func pagesJoin() throws {
        let directory = try ImageTestDirectory()
        let schema = directory.path("schema.graphql")
        let document = directory.path("query.graphql")
        let image = directory.path("app.image")
        try """
        type Query { repository(name: String!): Repository }
        type Repository { id: ID!, commits(first: Int, after: String): CommitConnection! }
        type CommitConnection { nodes: [Commit], pageInfo: PageInfo! }
        type PageInfo { endCursor: String, hasNextPage: Boolean! }
        type Commit { id: ID!, message: String }
        """.write(toFile: schema, atomically: true, encoding: .utf8)
        try """
        query Commits($after: String) {
          repository(name: "r") {
            id
            commits(first: 2, after: $after) @connection(key: "Commits") { nodes { id message } pageInfo { endCursor hasNextPage } }
          }
        }
        """.write(toFile: document, atomically: true, encoding: .utf8)
        let pages = [
            (nil as String?, #"{"data":{"repository":{"id":"R","commits":{"nodes":[{"id":"a","message":"one"},{"id":"b","message":"two"}],"pageInfo":{"endCursor":"c2","hasNextPage":true}}}}}"#),
            ("c2", #"{"data":{"repository":{"id":"R","commits":{"nodes":[{"id":"c","message":"three"}],"pageInfo":{"endCursor":"c3","hasNextPage":false}}}}}"#),
        ]
        for (index, (after, text)) in pages.enumerated() {
            let response = directory.path("page-\(index).json")
            try text.write(toFile: response, atomically: true, encoding: .utf8)
            let variables = after.map { #"{"after":"\#($0)"}"# } ?? "{}"
            let write = try BatonProcess.run(
                ["image", "write", "--image", image, "--schema", schema, "--document", document, "--variables", variables, "--response", response])
            #expect(write.status == 0, "\(write)")
        }
        let read = try BatonProcess.run(["image", "read", "--image", image, "--schema", schema, "--document", document])
        #expect(read.status == 0, "\(read)")
        guard case .object(let top) = try JSONValue.parse(read.output), case .object(let data)? = top["data"],
              case .object(let repository)? = data["repository"], case .object(let commits)? = repository["commits"],
              case .array(let nodes)? = commits["nodes"], case .object(let info)? = commits["pageInfo"] else {
            Issue.record("unexpected read: \(read.output)")
            return
        }
        let ids = nodes.compactMap { node -> String? in
            guard case .object(let members) = node, case .string(let id)? = members["id"] else { return nil }
            return id
        }
        #expect(ids == ["a", "b", "c"])
        #expect(info["endCursor"] == .string("c3"))
        #expect(info["hasNextPage"] == .bool(false))
        #expect(!read.errors.contains("joined no connection"), "\(read)")

        // The second page alone, in a new store that holds no connection: read says what it
        // could not do rather than dropping the page in silence.
        let alone = try BatonProcess.run(
            ["read", "--schema", schema, "--document", document, "--variables", #"{"after":"c2"}"#, "--response", directory.path("page-1.json")])
        #expect(alone.status == 2, "\(alone)")
        #expect(alone.errors.contains(#"baton: note: the page after "c2" joined no connection: client:Repository:R:__Commits_connection does not hold that end cursor in memory"#), "\(alone)")
    }
}
