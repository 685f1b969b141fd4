import Baton
import BatonSim
import Testing

/// A world whose app creates notes: `addNote(text:pinned:)` answers the note itself,
/// `createNote(input:)` a payload holding it, as Relay-style schemas write it.
enum CreatingWorld {
    static let schema = """
        type Query { feed(first: Int): [Note!]! note(id: ID!): Note }
        type Mutation {
          addNote(text: String!, pinned: Boolean): Note
          createNote(input: NewNote!): CreateNotePayload
          removeNote(id: ID!): RemovePayload
        }
        input NewNote { text: String! pinned: Boolean clientMutationId: String }
        type CreateNotePayload { note: Note clientMutationId: String }
        type RemovePayload { deletedId: ID }
        type Note { id: ID! text: String pinned: Boolean }
        """

    static let operations: [(source: String, text: String)] = [
        ("Feed.graphql", "query Feed { feed(first: 8) { id text pinned } }"),
        ("Note.graphql", "query Note($id: ID!) { note(id: $id) { id text pinned } }"),
        ("AddNote.graphql", "mutation AddNote($text: String!, $pinned: Boolean) { addNote(text: $text, pinned: $pinned) { id text pinned } }"),
        ("CreateNote.graphql", "mutation CreateNote($input: NewNote!) { createNote(input: $input) { clientMutationId note { id text } } }"),
        ("RemoveNote.graphql", #"mutation RemoveNote($id: ID!) { removeNote(id: $id) { deletedId @deleteRecord(typename: "Note") } }"#),
    ]

    static func world(settings: WorldSettings = WorldSettings()) throws -> World {
        try WorldFixtures.world("creating", schema: schema, operations: operations, entities: ["Note": 2...6], settings: settings)
    }
}

@Suite("Creating mutations: a field with no id makes the entity its payload returns")
struct CreatingMutationTests {
    @Test("the world reads a mutation without an id as a creation, and its arguments and input's fields as setters")
    func analysis() throws {
        let world = try CreatingWorld.world()
        let add = try #require(world.analysis.mutations["AddNote"]?["addNote"])
        #expect(add.creates && add.targetType == "Note" && !add.deletes)
        #expect(add.setters.map(\.field) == ["pinned", "text"])
        let create = try #require(world.analysis.mutations["CreateNote"]?["createNote"])
        #expect(create.creates && create.targetType == "Note")
        #expect(create.setters.map(\.argumentPath) == [["input", "pinned"], ["input", "text"]])
        #expect(world.analysis.mutations["RemoveNote"]?["removeNote"]?.creates == false)
        // A deletion needs to know what it deletes.
        #expect(throws: WorldError.self) {
            try World.make(name: "bad", schema: CreatingWorld.schema, operations: [
                ("M.graphql", #"mutation M($text: String!) { addNote(text: $text) { id @deleteRecord(typename: "Note") } }"#),
            ])
        }
    }

    @Test("a creation makes a new living note with a fresh id, as the arguments say, and later reads find it")
    func executes() throws {
        let world = try CreatingWorld.world(settings: WorldFixtures.quiet)
        var server = WorldFixtures.server(world)
        let before = server.entityIDs(of: ["Note"]).living
        let added = server.execute(try #require(world.operation(named: "AddNote")), variables: ["text": .string("buy milk"), "pinned": .bool(true)])
        let note = try #require(added.data?["addNote"]?.value.object)
        let id = try #require(note["id"]?.value.string)
        #expect(!before.contains(id))
        #expect(note["text"]?.value == .scalar(.string("buy milk")))
        #expect(note["pinned"]?.value == .scalar(.bool(true)))
        #expect(server.entityIDs(of: ["Note"]).living == before + [id])
        let read = server.execute(try #require(world.operation(named: "Note")), variables: ["id": .string(id)])
        #expect(read.data?["note"]?.value.object?["text"]?.value == .scalar(.string("buy milk")))
        // Through an input object, into a payload; each creation a new id.
        let created = server.execute(try #require(world.operation(named: "CreateNote")), variables: ["input": .object(["text": .string("call")])])
        let inner = try #require(created.data?["createNote"]?.value.object?["note"]?.value.object)
        #expect(inner["text"]?.value == .scalar(.string("call")))
        let second = try #require(inner["id"]?.value.string)
        #expect(second != id && !before.contains(second))
        // An optimistic guess leaves the server as it was.
        _ = server.optimisticExecution(try #require(world.operation(named: "AddNote")), variables: ["text": .string("x")])
        #expect(server.entityIDs(of: ["Note"]).living == before + [id, second])
    }

    @MainActor
    @Test("its seeds run clean")
    func seeds() throws {
        let world = try CreatingWorld.world()
        for seed: UInt64 in 0..<10 {
            let outcome = Simulation.run(seed: seed, options: .init(events: 150, world: world))
            #expect(outcome.failure == nil, "seed \(seed): \(outcome.failure.map(String.init(describing:)) ?? "")")
        }
    }
}
