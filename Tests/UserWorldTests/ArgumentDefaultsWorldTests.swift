import Baton
@testable import BatonSim
import Testing

// Public schemas give arguments and input fields defaults (GitHub's `labels(orderBy: LabelOrder =
// {field: CREATED_AT, direction: ASC})`, its `IssueFilters.viewerSubscribed = false`). Left out,
// such an argument runs with its default; given as `null`, it runs with null: another value. A
// key that drops the null gives the two one slot.

let argumentDefaultsSchema = """
type Query { shop(id: ID!): Shop }
type Mutation { renameShop(id: ID!, name: String!): Shop }
type Shop { id: ID! name: String products(order: ProductOrder = {field: NAME, direction: ASC}, filter: ProductFilter, first: Int): [Product!]! }
input ProductOrder { field: ProductField!, direction: Direction! }
input ProductFilter { inStock: Boolean = true, tag: String }
enum ProductField { NAME PRICE }
enum Direction { ASC DESC }
type Product { id: ID! name: String price: Int }
"""

let argumentDefaultsOperations = [
    "Shop.graphql": """
        query Shop($id: ID!, $order: ProductOrder, $filter: ProductFilter) {
          shop(id: $id) { id name products(order: $order, filter: $filter, first: 3) { id name price } plain: products(first: 3) { id name } }
        }
        """,
    "RenameShop.graphql": "mutation RenameShop($id: ID!, $name: String!) { renameShop(id: $id, name: $name) { id name } }",
]

@MainActor
@Suite("Arguments with defaults: an explicit null is another argument than none")
struct ArgumentDefaultsWorldTests {
    @Test("the world's seeds run clean")
    func seeds() throws {
        let world = try SimulationWorld(name: "defaults", schema: argumentDefaultsSchema, operations: argumentDefaultsOperations)
        expectCleanSeeds(world)
    }

    #if BATON_MUTANTS
    /// With nulls dropped, `products(first:3,order:null)` and the alias `plain`'s `products(first:3)`
    /// are one slot holding two different lists (and `filter: {inStock: null}` is `filter: {}`).
    @Test("under nullArgumentsDropped a seed fails")
    func mutantFails() throws {
        let world = try SimulationWorld(name: "defaults", schema: argumentDefaultsSchema, operations: argumentDefaultsOperations)
        let options = Simulation.Options(events: 200, mutant: .nullArgumentsDropped, world: world.world)
        let failing = (0..<40 as Range<UInt64>).first { Simulation.run(seed: $0, options: options).failure != nil }
        #expect(failing != nil, "nullArgumentsDropped survived 40 seeds of a world whose arguments have defaults")
    }
    #endif
}
