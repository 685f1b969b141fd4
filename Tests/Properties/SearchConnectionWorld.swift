import BatonSim

/// A search whose text reads like a connection key's tail (`is_connection:true`), paged as a
/// @connection filtered by it, and a header showing its count alone (its edges only when asked),
/// which keeps the connection without walking its edges. Until 2026-12-06 memory told a
/// connection by `_connection` without `_connection:` in its key, so this one was no connection
/// to collection, which swept its edges under the header (mutant `connectionsToldByShape`).
enum SearchConnectionWorld {
    static let schema = """
        type Query { search(query: String, first: Int, after: String): NoteConnection }
        type NoteConnection { totalCount: Int, edges: [NoteEdge], pageInfo: PageInfo! }
        type NoteEdge { cursor: String!, node: Note }
        type Note { id: ID!, text: String }
        type PageInfo { endCursor: String, hasNextPage: Boolean! }
        """

    static let operations: [(source: String, text: String)] = [
        ("Feed.graphql", """
            query Feed($first: Int, $after: String) {
              search(query: "is_connection:true", first: $first, after: $after) @connection(key: "S_search", filters: ["query"]) {
                totalCount
                edges { cursor node { id text } }
                pageInfo { endCursor hasNextPage }
              }
            }
            """),
        ("Count.graphql", """
            query Count($all: Boolean = false) {
              search(query: "is_connection:true", first: 2) @connection(key: "S_search", filters: ["query"]) {
                totalCount
                edges @include(if: $all) { node { id } }
              }
            }
            """),
    ]

    static func world() throws -> World {
        try World.make(name: "search", schema: schema, operations: operations)
    }
}
