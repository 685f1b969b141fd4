import Baton
import BatonSim
import Testing

/// A world whose app deletes several notes in one mutation (`removeNotes(ids: [ID!]!)`, its
/// payload listing the deleted ids under `@deleteRecord`), beside the single deletion.
enum BulkDeletionWorld {
    static let schema = """
        type Query { feed(first: Int): [Note!]! note(id: ID!): Note }
        type Mutation {
          removeNote(id: ID!): RemovePayload
          removeNotes(ids: [ID!]!): RemoveNotesPayload
        }
        type RemovePayload { deletedId: ID }
        type RemoveNotesPayload { deletedIds: [ID!]! notes: [Note] }
        type Note { id: ID! text: String pinned: Boolean }
        """

    static let operations: [(source: String, text: String)] = [
        ("Feed.graphql", "query Feed { feed(first: 8) { id text pinned } }"),
        ("Note.graphql", "query Note($id: ID!) { note(id: $id) { id text } }"),
        ("RemoveNote.graphql", #"mutation RemoveNote($id: ID!) { removeNote(id: $id) { deletedId @deleteRecord(typename: "Note") } }"#),
        ("RemoveNotes.graphql", #"mutation RemoveNotes($ids: [ID!]!) { removeNotes(ids: $ids) { deletedIds @deleteRecord(typename: "Note") notes { id } } }"#),
    ]

    static func world(settings: WorldSettings = WorldSettings()) throws -> World {
        try WorldFixtures.world("bulk", schema: schema, operations: operations, entities: ["Note": 3...9], settings: settings)
    }
}

@Suite("Bulk deletions: a mutation that deletes by a list of ids")
struct BulkDeletionTests {
    @Test("the world reads `ids: [ID!]!` as a bulk edit, and refuses one whose @deleteRecord field is no list")
    func analysis() throws {
        let world = try BulkDeletionWorld.world()
        let edit = try #require(world.analysis.mutations["RemoveNotes"]?["removeNotes"])
        #expect(edit.many && edit.deletes && edit.idArgument == ["ids"] && edit.targetType == "Note")
        #expect(world.analysis.mutations["RemoveNote"]?["removeNote"]?.many == false)
        let single = BulkDeletionWorld.schema.replacingOccurrences(of: "deletedIds: [ID!]!", with: "deletedIds: ID")
        #expect(throws: WorldError.self) {
            try World.make(name: "bad", schema: single, operations: [
                ("M.graphql", #"mutation M($ids: [ID!]!) { removeNotes(ids: $ids) { deletedIds @deleteRecord(typename: "Note") } }"#),
            ])
        }
    }

    @Test("every living note the ids name is deleted once, in order; unknown and repeated ids are passed over")
    func executes() throws {
        let world = try BulkDeletionWorld.world(settings: WorldFixtures.quiet)
        var server = WorldFixtures.server(world)
        let living = server.entityIDs(of: ["Note"]).living
        try #require(living.count >= 3)
        let (a, b) = (living[1], living[0])
        let execution = server.execute(try #require(world.operation(named: "RemoveNotes")), variables: [
            "ids": .array([.string(a), .string("404"), .string(b), .string(a)]),
        ])
        let payload = try #require(execution.data?["removeNotes"]?.value.object)
        #expect(payload["deletedIds"]?.value == .list([.scalar(.string(a)), .scalar(.string(b))]))
        #expect(payload["notes"]?.value == .list([.null, .null]))
        #expect(Set(server.entityIDs(of: ["Note"]).deleted) == [a, b])
        #expect(server.entityIDs(of: ["Note"]).living.count == living.count - 2)
        // One id where the list belongs is a list of one, as input coercion has it.
        let one = server.execute(try #require(world.operation(named: "RemoveNotes")), variables: ["ids": .string(living[2])])
        #expect(one.data?["removeNotes"]?.value.object?["deletedIds"]?.value == .list([.scalar(.string(living[2]))]))
        // Ids that name nothing living delete nothing, and the payload says so.
        let none = server.execute(try #require(world.operation(named: "RemoveNotes")), variables: ["ids": .array([.string(a)])])
        #expect(none.data?["removeNotes"]?.value.object?["deletedIds"]?.value == .list([]))
    }

    @Test("the drawer gives the ids variable lists of ids, of several lengths")
    func drawsLists() throws {
        let world = try BulkDeletionWorld.world()
        let server = WorldFixtures.server(world)
        let operation = try #require(world.operation(named: "RemoveNotes"))
        var drawer = VariableDrawer(random: SimRandom(seed: 3))
        var lengths: Set<Int> = []
        for _ in 0..<60 {
            switch drawer.variables(for: operation, server: server)["ids"] {
            case .array(let ids)?:
                lengths.insert(ids.count)
                // Ids are text, or now and then the integer a numeric id spells (`4` for "4").
                #expect(ids.allSatisfy { if case .string = $0 { true } else if case .int = $0 { true } else { false } })
            case .string?, .int?:
                lengths.insert(1)  // a list of one, spelled as its single item
            default:
                Issue.record("ids drawn as something else than a list of ids")
            }
        }
        #expect(lengths.isSuperset(of: [0, 1, 2, 3]))
    }

    @MainActor
    @Test("its seeds run clean; both it and the default world (its `RemoveNotes`) can show a bulk deletion's bug")
    func seeds() throws {
        let world = try BulkDeletionWorld.world()
        #expect(World.standard.cannotShow(.deleteRecordFirstOnly) == nil)
        #expect(world.cannotShow(.deleteRecordFirstOnly) == nil)
        var deletions = 0
        for seed: UInt64 in 0..<10 {
            let outcome = Simulation.run(seed: seed, options: .init(events: 150, world: world))
            #expect(outcome.failure == nil, "seed \(seed): \(outcome.failure.map(String.init(describing:)) ?? "")")
            deletions += outcome.coverage.model.deletions
        }
        #expect(deletions > 0)
    }
}
