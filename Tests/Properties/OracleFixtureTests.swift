import Baton
import BatonSim
import Testing

/// A small hand-built world for the oracle's tests, and builders of provenance by hand (the
/// executor does not exist yet in this branch; the provenance here is what it would report).
enum OracleFixture {
    static let sdl = """
    type Query {
      character(id: ID!): Character
      node(id: ID!): Node
      location(name: String): Location
      grid: [[Tile]]
      search(filter: Filter, order: Order, first: Int, after: String): [Character]
      feed(kind: String, first: Int, after: String, last: Int, before: String): NoteConnection
    }
    type Mutation {
      deleteCharacter(id: ID!): DeletePayload
      deleteAny(key: String!): DeletePayload
      deleteMany(keys: [String!]!): BulkDeletePayload
      rename(id: ID!, name: String!): RenamePayload
    }
    input Filter { name: String, tags: [String], nested: Filter }
    enum Order { ASC, DESC }
    scalar JSON
    interface Node { id: ID! }
    type Character implements Node {
      id: ID!
      name: String
      height: Float
      status: String
      meta: JSON
      location: Location
      episodes: [Episode]
      notes(first: Int, after: String, last: Int, before: String): NoteConnection
    }
    type Episode implements Node { id: ID!, name: String, characters: [Character] }
    type Location { id: ID, name: String, dimension: String }
    type Tile { value: Int }
    type DeletePayload { deletedId: ID }
    type BulkDeletePayload { deletedIds: [ID!] }
    type RenamePayload { character: Character }
    type NoteConnection { totalCount: Int, edges: [NoteEdge], pageInfo: PageInfo! }
    type NoteEdge { cursor: String!, node: Note }
    type Note { id: ID!, text: String }
    type PageInfo { endCursor: String, startCursor: String, hasNextPage: Boolean!, hasPreviousPage: Boolean! }
    """

    static let documents: [String] = [
        "query Header($id: ID!) { character(id: $id) { id name status } }",
        """
        query Screen($id: ID!) {
          character(id: $id) { id name status location { name dimension } episodes { id name } }
        }
        """,
        """
        query Notes($id: ID!, $first: Int, $after: String, $last: Int, $before: String) {
          character(id: $id) { id notes(first: $first, after: $after, last: $last, before: $before)
            @connection(key: "Notes_notes") {
              totalCount edges { cursor node { id text } } pageInfo { endCursor startCursor hasNextPage hasPreviousPage }
          } }
        }
        """,
        """
        query Feed($kind: String, $first: Int, $after: String) {
          feed(kind: $kind, first: $first, after: $after) @connection(key: "Feed", filters: ["kind"]) {
            edges { cursor node { id text } }
            pageInfo { endCursor hasNextPage }
          }
        }
        """,
        "query Grid { grid { value } }",
        "query NodeQuery($id: ID!) { node(id: $id) { __typename id ... on Character { name } ... on Episode { name } } }",
        "query Search($filter: Filter, $order: Order = ASC) { search(filter: $filter, order: $order) { id name } }",
        "mutation DeleteCharacter($id: ID!) { deleteCharacter(id: $id) { deletedId @deleteRecord(typename: \"Character\") } }",
        "mutation DeleteAny($key: String!) { deleteAny(key: $key) { deletedId @deleteRecord } }",
        "mutation DeleteMany($keys: [String!]!) { deleteMany(keys: $keys) { deletedIds @deleteRecord } }",
        "mutation Rename($id: ID!, $name: String!) { rename(id: $id, name: $name) { character { id name } } }",
    ]

    /// The world built from ``sdl`` and ``documents``.
    static func world(documents: [String] = documents) throws -> World {
        let schema = try Schema.parse(sdl)
        var operations: [WorldOperation] = []
        for text in documents {
            let document = try Document.parse(text)
            var fragments: [String: Document.Fragment] = [:]
            for fragment in document.fragments { fragments[fragment.name] = fragment }
            for operation in document.operations {
                operations.append(WorldOperation(
                    name: operation.name ?? "anonymous", kind: operation.kind, syntax: operation,
                    fragments: fragments, documentText: text, source: "OracleFixture"))
            }
        }
        return World(name: "oracle-fixture", schema: schema, operations: operations, settings: WorldSettings())
    }

    static func oracle() throws -> Oracle {
        var oracle = Oracle(world: try world())
        oracle.firstLaunch(generation: 1)
        return oracle
    }

    // MARK: Provenance by hand

    static func object(_ typename: String, id: String? = nil, _ fields: [ProvenanceField]) -> ProvenanceObject {
        ProvenanceObject(typename: typename, id: id, fields: fields)
    }

    static func field(
        _ name: String, _ value: ProvenanceValue, alias: String? = nil, arguments: [String: JSONValue] = [:],
        directives: [GraphQLDirective] = [], error: ProvenanceError? = nil
    ) -> ProvenanceField {
        ProvenanceField(responseKey: alias ?? name, name: name, arguments: arguments, directives: directives, value: value, errors: error.map { [$0] } ?? [])
    }

    static func string(_ text: String) -> ProvenanceValue { .scalar(.string(text)) }

    static func directive(_ name: String, _ arguments: [String: GraphQLValue]) -> GraphQLDirective {
        GraphQLDirective(
            name: name,
            arguments: arguments.keys.sorted().map { GraphQLArgument(name: $0, value: arguments[$0]!, location: .start) },
            location: .start)
    }

    /// `Character:<id>` with its `id`, `name` and `status`.
    static func character(_ id: String, name: String, status: String? = nil) -> ProvenanceObject {
        var fields = [field("id", string(id)), field("name", string(name))]
        if let status { fields.append(field("status", string(status))) }
        return object("Character", id: id, fields)
    }

    /// A `Header` response for one character.
    static func header(_ id: String, name: String, status: String) -> Execution {
        Execution(responseText: [], data: object("Query", [
            field("character", .object(character(id, name: name, status: status)), arguments: ["id": .string(id)]),
        ]))
    }

    /// A `Screen` response: a character with a location (no id: a path key) and episodes.
    static func screen(_ id: String, name: String, status: String, location: String, episodes: [(String, String)]) -> Execution {
        let place = object("Location", [field("name", string(location)), field("dimension", string("C-137"))])
        let list = ProvenanceValue.list(episodes.map { .object(object("Episode", id: $0.0, [field("id", string($0.0)), field("name", string($0.1))])) })
        let character = object("Character", id: id, [
            field("id", string(id)), field("name", string(name)), field("status", string(status)),
            field("location", .object(place)), field("episodes", list),
        ])
        return Execution(responseText: [], data: object("Query", [field("character", .object(character), arguments: ["id": .string(id)])]))
    }

    /// One page of `Notes` for a character: `notes` is (id, text) per edge, cursors `c<id>`.
    static func notesPage(
        _ id: String, arguments: [String: JSONValue], notes: [String?], total: Int? = nil,
        endCursor: String?, startCursor: String?, hasNext: Bool = true, hasPrevious: Bool = false
    ) -> Execution {
        let edges: [ProvenanceValue] = notes.map { note in
            guard let note else { return .null }
            return .object(object("NoteEdge", [
                field("cursor", string("c" + note)),
                field("node", .object(object("Note", id: note, [field("id", string(note)), field("text", string("text " + note))]))),
            ]))
        }
        let info = object("PageInfo", [
            field("endCursor", endCursor.map(string) ?? .null), field("startCursor", startCursor.map(string) ?? .null),
            field("hasNextPage", .scalar(.bool(hasNext))), field("hasPreviousPage", .scalar(.bool(hasPrevious))),
        ])
        let page = object("NoteConnection", [
            field("totalCount", total.map { .scalar(.int($0)) } ?? .null),
            field("edges", .list(edges)),
            field("pageInfo", .object(info)),
        ])
        let connection = directive("connection", ["key": .string("Notes_notes")])
        let character = object("Character", id: id, [
            field("id", string(id)),
            field("notes", .object(page), arguments: arguments, directives: [connection]),
        ])
        return Execution(responseText: [], data: object("Query", [field("character", .object(character), arguments: ["id": .string(id)])]))
    }

    static func response(_ execution: Execution, _ operation: String) throws -> ModelResponse {
        let world = try world()
        return try ModelResponse.from(execution, operation: world.operation(named: operation)!, schema: world.schema)
    }

    static func text(_ json: String, _ operation: String, _ variables: [String: JSONValue]) throws -> ModelResponse {
        let world = try world()
        return try ModelResponse.normalize(text: Array(json.utf8), operation: world.operation(named: operation)!, variables: variables, schema: world.schema)
    }
}

extension Oracle {
    /// Commits an execution of `operation` at `now` (tests).
    @discardableResult
    mutating func commit(_ execution: Execution, _ operation: String, _ variables: [String: JSONValue], now: Double = 0) throws -> OracleCommitEffect {
        let response = try ModelResponse.from(execution, operation: world.operation(named: operation)!, schema: world.schema)
        return serverCommit(response, operation: operation, variables: variables, now: now, answering: nil)
    }

    /// The base record under `key` (tests).
    func record(_ key: String) -> OracleRecord? {
        base[OracleText(key)]
    }

    /// The cell `slot` of `key`'s visible record (tests).
    func cell(_ key: String, _ slot: String) -> OracleValue? {
        visible(OracleText(key))?.cells[OracleText(slot)]?.value
    }
}

@Suite("Oracle: the fixture world")
struct OracleFixtureTests {
    @Test("the fixture's schema and operations parse, and every operation compiles for the oracle")
    func fixtureBuilds() throws {
        let world = try OracleFixture.world()
        let oracle = Oracle(world: world)
        #expect(world.operations.count == OracleFixture.documents.count)
        for operation in world.operations {
            #expect(oracle.operation(operation.name) != nil)
        }
        #expect(oracle.operation("Notes")?.rootKey == "client:root")
        #expect(oracle.operation("Rename")?.rootKey == "client:root:mutation")
    }
}
