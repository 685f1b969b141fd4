import Baton
import BatonSim
import Testing

/// A world whose operations name a response key with a `K`: the one letter that another name
/// can pass for under Swift's `==` (the Kelvin sign, U+212A, is canonically a `K`).
enum KelvinWorld {
    static let schema = """
        type Query { item(id: ID!): Item, items: [Item] }
        type Item { id: ID!, kind: String, name: String }
        """
    static let operations: [(source: String, text: String)] = [
        ("Item.graphql", "query Item($id: ID!) { item(id: $id) { id Kind: kind name } }"),
        ("Items.graphql", "query Items { items { id Kind: kind } }"),
    ]

    static func world() throws -> World {
        try World.make(name: "kelvin", schema: schema, operations: operations)
    }
}

/// JSON compares member names by their characters: `\u212Aind` (a Kelvin sign) is not `Kind`.
@Suite("Member names compared as JSON compares them, escaped or not")
struct KelvinNameTests {
    static func kind(_ response: String) throws -> Cell? {
        let world = try KelvinWorld.world()
        let plan = try Plan.build(document: world.operation(named: "Item")!.documentText, schema: world.schema, operationName: "Item")
        let changes = try Ingest.normalize(plan: plan, variables: plan.variables(["id": .string("1")]), response: Array(response.utf8))
        return changes.records.first { $0.key == RecordKey("Item:1") }?.cells[SlotID.named("kind")]
    }

    @Test("an escaped Kelvin sign names another member: the selected Kind is not read from it, escaped or written as it is")
    func escapedNameIsNotTheField() throws {
        #expect(try Self.kind(#"{"data":{"item":{"id":"1","\u212Aind":"x","name":"a"}}}"#) == nil)
        #expect(try Self.kind("{\"data\":{\"item\":{\"id\":\"1\",\"\u{212A}ind\":\"x\",\"name\":\"a\"}}}") == nil)
        #expect(try Self.kind(#"{"data":{"item":{"id":"1","Kind":"k","\u212Aind":"x","name":"a"}}}"#)?.value == .string("k"))
        #expect(try Self.kind(#"{"data":{"item":{"id":"1","\u004Bind":"k","name":"a"}}}"#)?.value == .string("k"))
    }

    @MainActor
    @Test("seeds of a world with a K in a response key run clean while garbling adds Kelvin twins")
    func seedsRunClean() throws {
        let world = try KelvinWorld.world()
        #expect(world.cannotShow(.escapedNamesFoldEquivalent) == nil)
        #expect(World.standard.cannotShow(.escapedNamesFoldEquivalent) != nil)
        var twins = 0
        for seed: UInt64 in 78...82 {
            let outcome = Simulation.run(seed: seed, options: .init(events: 200, world: world))
            #expect(outcome.failure == nil, "seed \(seed): \(outcome.failure.map(String.init(describing:)) ?? "")")
            twins += outcome.trace.filter { $0.contains("its K written") }.count
        }
        #expect(twins > 0)
    }
}
