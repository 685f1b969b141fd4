import Baton

/// The simulator's small schema and its operations, as GraphQL text: everything a run commits goes
/// through the real parser, plan builder and ingest.
package enum SimSchema {
    package static let sdl = """
    type Query {
      character(id: ID!): Character
      episode(id: ID!): Episode
      location(id: ID!): Location
      characters(page: Int): CharacterPage
    }

    type Mutation {
      rename(id: ID!, name: String!): RenamePayload
      deleteCharacter(id: ID!): DeletePayload
      removeNote(id: ID!): DeletePayload
    }

    type RenamePayload { character: Character }
    type DeletePayload { deletedId: ID }

    type Character {
      id: ID!
      name: String
      status: String
      species: String
      location: Location
      episodes: [Episode]
      notes(first: Int, after: String, last: Int, before: String): NoteConnection
    }

    type Episode {
      id: ID!
      name: String
      airDate: String
      characters: [Character]
    }

    type Location {
      id: ID
      name: String
      dimension: String
      residents: [Character]
    }

    type CharacterPage { info: PageSummary, results: [Character] }
    type PageSummary { count: Int, next: Int }

    type NoteConnection { totalCount: Int, edges: [NoteEdge], pageInfo: PageInfo! }
    type NoteEdge { cursor: String!, node: Note }
    type Note { id: ID!, text: String }
    type PageInfo { endCursor: String, startCursor: String, hasNextPage: Boolean!, hasPreviousPage: Boolean! }
    """

    /// The operations of the simulated app, by name.
    package static let documents: [(name: String, text: String)] = [
        ("CharacterHeader", """
        query CharacterHeader($id: ID!) { character(id: $id) { id name status } }
        """),
        ("CharacterScreen", """
        query CharacterScreen($id: ID!) {
          character(id: $id) { id name status species location { id name dimension } episodes { id name airDate } }
        }
        """),
        ("EpisodeCast", """
        query EpisodeCast($id: ID!) { episode(id: $id) { id name characters { id name status } } }
        """),
        ("LocationResidents", """
        query LocationResidents($id: ID!) { location(id: $id) { id name dimension residents { id name species } } }
        """),
        ("CharacterList", """
        query CharacterList($page: Int) { characters(page: $page) { info { count next } results { id name } } }
        """),
        ("Notes", """
        query Notes($id: ID!, $first: Int, $after: String, $last: Int, $before: String) {
          character(id: $id) {
            id
            notes(first: $first, after: $after, last: $last, before: $before) @connection(key: "Notes_notes") {
              totalCount
              edges { cursor node { id text } }
              pageInfo { endCursor startCursor hasNextPage hasPreviousPage }
            }
          }
        }
        """),
        ("Rename", """
        mutation Rename($id: ID!, $name: String!) { rename(id: $id, name: $name) { character { id name } } }
        """),
        ("DeleteCharacter", """
        mutation DeleteCharacter($id: ID!) { deleteCharacter(id: $id) { deletedId @deleteRecord(typename: "Character") } }
        """),
        ("RemoveNote", """
        mutation RemoveNote($id: ID!) { removeNote(id: $id) { deletedId @deleteRecord(typename: "Note") } }
        """),
    ]

    /// The operations that are queries (what checks, retains and responses use).
    package static let queryNames = ["CharacterHeader", "CharacterScreen", "EpisodeCast", "LocationResidents", "CharacterList", "Notes"]
}

/// The schema and every operation's plan, built once per process (plans are immutable).
package final class SimPlans: Sendable {
    package static let shared: SimPlans = {
        do {
            return try SimPlans()
        } catch {
            fatalError("the simulator's own schema or documents do not build: \(error)")
        }
    }()

    package let schema: Schema
    private let plans: [String: Plan]

    init() throws {
        schema = try Schema.parse(SimSchema.sdl)
        var plans: [String: Plan] = [:]
        for (name, text) in SimSchema.documents {
            plans[name] = try Plan.build(document: text, schema: schema, operationName: name)
        }
        self.plans = plans
    }

    /// The plan of the operation `name`, or nil for a name the simulator does not know.
    package func plan(_ name: String) -> Plan? {
        plans[name]
    }
}
