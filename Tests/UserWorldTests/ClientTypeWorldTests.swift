import Baton
@testable import BatonSim
import Testing

// Schemas generated from database tables (Hasura's, PostGraphile's) name types after their
// tables, in lower case: a `client` table gives the type `client`. Its row whose id is `root`
// would be keyed `client:root`, which is the query root's key.

let clientTypeSchema = """
type Query { client(id: ID!): client  clients: [client!]!  order(id: ID!): order }
type Mutation { rename_client(id: ID!, name: String!): client }
type client { id: ID! name: String orders: [order!]! }
type order { id: ID! total: Int owner: client }
"""

let clientTypeOperations = [
    "Client.graphql": "query Client($id: ID!) { client(id: $id) { id name orders { id total } } }",
    "Clients.graphql": "query Clients { clients { id name } }",
    "Order.graphql": "query Order($id: ID!) { order(id: $id) { id total owner { id name } } }",
    "RenameClient.graphql": "mutation RenameClient($id: ID!, $name: String!) { rename_client(id: $id, name: $name) { id name } }",
]

@MainActor
@Suite("A type named client: its entity `root` is not the query root")
struct ClientTypeWorldTests {
    /// With `client` `root` keyed `client:root`, the store merged it into the query root and the
    /// model, which keys it `client:\root`, disagreed at seeds 0, 1, 3, 5, 8, 9 and 10.
    @Test("the world's seeds run clean, and the server does make a client named root")
    func seeds() throws {
        let world = try SimulationWorld(name: "clients", schema: clientTypeSchema, operations: clientTypeOperations)
        let roots = (0..<12 as Range<UInt64>).filter { seed in
            Server(world: world.world, random: SimRandom(seed: seed)).entityIDs(of: ["client"]).living.contains("root")
        }
        #expect(roots.count >= 3, "servers with a client named root: \(roots)")
        expectCleanSeeds(world)
    }
}
