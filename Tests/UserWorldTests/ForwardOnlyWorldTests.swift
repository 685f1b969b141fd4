import Baton
import BatonSim
import Testing

// A connection as many schemas write it: forward only (`pageInfo { endCursor hasNextPage }`)
// and edges without a `cursor`. The store merges pages at pageInfo's cursors, so such a
// connection pages; the simulator serves it with real paging rather than refusing the world.

let forwardOnlySchema = """
type Query { feed(id: ID!): Feed  post(id: ID!): Post }
type Mutation { editPost(id: ID!, body: String!): PostPayload  removePost(id: ID!): RemovePayload }
type Feed { id: ID! title: String posts(first: Int, after: String, tag: String): PostConnection! }
type PostConnection { edges: [PostEdge] pageInfo: ForwardPageInfo! totalCount: Int }
type PostEdge { node: Post }
type ForwardPageInfo { endCursor: String hasNextPage: Boolean! }
type Post { id: ID! body: String likes: Int author: Author }
type Author { id: ID! name: String }
type PostPayload { post: Post }
type RemovePayload { removedId: ID }
"""

let forwardOnlyOperations = [
    "Feed.graphql": """
    query Feed($id: ID!, $first: Int, $after: String) {
      feed(id: $id) {
        id title
        posts(tag: "news", first: $first, after: $after) @connection(key: "Feed_posts") {
          totalCount
          edges { node { id body likes } }
          pageInfo { endCursor hasNextPage }
        }
      }
    }
    """,
    "Post.graphql": "query Post($id: ID!) { post(id: $id) { id body likes author { id name } } }",
    "EditPost.graphql": "mutation EditPost($id: ID!, $body: String!) { editPost(id: $id, body: $body) { post { id body } } }",
    "RemovePost.graphql": """
    mutation RemovePost($id: ID!) { removePost(id: $id) { removedId @deleteRecord(typename: "Post") } }
    """,
]

@MainActor
@Suite("Forward-only connections: edges without a cursor, or nodes without edges")
struct ForwardOnlyWorldTests {
    @Test("the world loads, and its seeds page the connection forward and run clean")
    func seeds() throws {
        let world = try SimulationWorld(name: "feed", schema: forwardOnlySchema, operations: forwardOnlyOperations)
        let results = expectCleanSeeds(world)
        let covered = results.reduce(into: [String: Int]()) { total, result in
            for (name, value) in result.coverage { total[name, default: 0] += value }
        }
        #expect(covered["connectionFirstPages", default: 0] > 0)
        #expect(covered["connectionAppends", default: 0] > 0)
        #expect(covered["connectionPrepends", default: 0] == 0)
    }

    @Test("a connection with nodes and no edges pages too, as GitHub's commit comparisons do")
    func nodesOnly() throws {
        let schema = forwardOnlySchema
            .replacingOccurrences(of: "type PostConnection { edges: [PostEdge] ", with: "type PostConnection { nodes: [Post] ")
            .replacingOccurrences(of: "type PostEdge { node: Post }\n", with: "")
        var operations = forwardOnlyOperations
        operations["Feed.graphql"] = operations["Feed.graphql"]?.replacingOccurrences(of: "edges { node { id body likes } }", with: "nodes { id body likes }")
        let world = try SimulationWorld(name: "feed", schema: schema, operations: operations)
        let results = expectCleanSeeds(world)
        let appends = results.reduce(0) { $0 + ($1.coverage["connectionAppends"] ?? 0) }
        #expect(appends > 0)
    }

    @Test("a page info with neither cursor is not a connection, and the world says where")
    func noCursor() {
        let schema = forwardOnlySchema.replacingOccurrences(of: "endCursor: String", with: "lastCursor: String")
        let operations = forwardOnlyOperations.mapValues { $0.replacingOccurrences(of: "endCursor", with: "lastCursor") }
        do {
            _ = try SimulationWorld(name: "feed", schema: schema, operations: operations)
            Issue.record("a page info without a cursor was taken for a connection")
        } catch {
            #expect("\(error)".contains("Feed.graphql:4:"), "\(error)")
            #expect("\(error)".contains("needs a field whose type is a connection"), "\(error)")
        }
    }
}
