import Baton
import Synchronization
import Testing

/// A small schema with entities, a path-keyed page, a connection, a mutation and a deletion.
let testSchemaSDL = """
type Query {
  character(id: ID!): Character
  characters(page: Int, filter: Filter): CharacterPage
  episode(id: ID!): Episode
  node(id: ID!): Node
}
type Mutation {
  rename(id: ID!, name: String!): RenamePayload
  deleteCharacter(id: ID!): DeletePayload
}
interface Node { id: ID! }
input Filter { name: String, status: String }
type RenamePayload { character: Character }
type DeletePayload { deletedId: ID }
type Character implements Node {
  id: ID!
  name: String
  status: String
  tags: [String]
  origin: Location
  episodes: [Episode]
  friends(first: Int, orderby: [String]): [Character]
  notes(first: Int, after: String, last: Int, before: String): NoteConnection
}
type Episode implements Node { id: ID!, name: String, characters: [Character] }
type Location { id: ID, name: String }
type CharacterPage { info: Info, results: [Character] }
type Info { count: Int, next: Int }
type NoteConnection { totalCount: Int, edges: [NoteEdge], nodes: [Note], pageInfo: PageInfo! }
type NoteEdge { cursor: String!, node: Note }
type Note implements Node { id: ID!, text: String }
type PageInfo { endCursor: String, startCursor: String, hasNextPage: Boolean!, hasPreviousPage: Boolean! }
"""

/// Builds plans and commits responses for store tests.
enum StoreFixture {
    static let schema: Schema = {
        do { return try Schema.parse(testSchemaSDL) } catch { fatalError("test schema: \(error)") }
    }()

    static func plan(_ document: String, _ name: String? = nil) throws -> Plan {
        try Plan.build(document: document, schema: schema, operationName: name)
    }

    static func changeSet(_ plan: Plan, _ variables: [String: JSONValue] = [:], _ json: String) throws -> ChangeSet {
        try Ingest.normalize(plan: plan, variables: try plan.variables(variables), response: Array(json.utf8))
    }

    @MainActor
    static func commit(_ store: Store, _ plan: Plan, _ variables: [String: JSONValue] = [:], _ json: String) throws {
        store.commit(try changeSet(plan, variables, json))
    }

    static func json(_ text: String) throws -> JSONValue {
        try JSONValue.parse(text)
    }
}

/// A clock the test moves by hand.
final class ManualClock: StoreClock {
    private let current: Mutex<Double>
    init(_ start: Double = 1_000) { current = Mutex(start) }
    func now() -> Double { current.withLock { $0 } }
    func advance(_ seconds: Double) { current.withLock { $0 += seconds } }
}
