import Baton
import BatonSim
import Testing

/// A world whose app creates notes: `addNote(text:pinned:)` answers the note itself,
/// `createNote(input:)` a payload holding it, as Relay-style schemas write it, and
/// `postNote(input:)` the edge the new note would take in a list (GitHub's `addComment {
/// commentEdge { node } }`).
enum CreatingWorld {
    static let schema = """
        type Query { feed(first: Int): [Note!]! note(id: ID!): Note }
        type Mutation {
          addNote(text: String!, pinned: Boolean): Note
          createNote(input: NewNote!): CreateNotePayload
          removeNote(id: ID!): RemovePayload
          postNote(input: NewNote!): PostNotePayload
        }
        input NewNote { text: String! pinned: Boolean clientMutationId: String }
        type CreateNotePayload { note: Note clientMutationId: String }
        type RemovePayload { deletedId: ID }
        type PostNotePayload { clientMutationId: String noteEdge: NoteEdge }
        type NoteEdge { cursor: String! node: Note }
        type Note { id: ID! text: String pinned: Boolean }
        """

    static let operations: [(source: String, text: String)] = [
        ("Feed.graphql", "query Feed { feed(first: 8) { id text pinned } }"),
        ("Note.graphql", "query Note($id: ID!) { note(id: $id) { id text pinned } }"),
        ("AddNote.graphql", "mutation AddNote($text: String!, $pinned: Boolean) { addNote(text: $text, pinned: $pinned) { id text pinned } }"),
        ("CreateNote.graphql", "mutation CreateNote($input: NewNote!) { createNote(input: $input) { clientMutationId note { id text } } }"),
        ("RemoveNote.graphql", #"mutation RemoveNote($id: ID!) { removeNote(id: $id) { deletedId @deleteRecord(typename: "Note") } }"#),
        ("PostNote.graphql", "mutation PostNote($input: NewNote!) { postNote(input: $input) { clientMutationId noteEdge { cursor node { id text } } } }"),
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

    @Test("a creation whose note sits in an edge of its payload: the edge carries it, and the edge's node is the new note")
    func carriedByAnEdge() throws {
        let world = try CreatingWorld.world(settings: WorldFixtures.quiet)
        let post = try #require(world.analysis.mutations["PostNote"]?["postNote"])
        #expect(post.creates && post.targetType == "Note" && !post.deletes)
        #expect(post.carriers == ["NoteEdge"])
        #expect(post.renewedFields == ["text"])
        #expect(world.analysis.mutations["CreateNote"]?["createNote"]?.carriers == [])

        var server = WorldFixtures.server(world)
        let before = server.entityIDs(of: ["Note"]).living
        let posted = server.execute(try #require(world.operation(named: "PostNote")), variables: ["input": .object(["text": .string("on the edge")])])
        let edge = try #require(posted.data?["postNote"]?.value.object?["noteEdge"]?.value.object)
        #expect(edge["cursor"]?.value.string != nil)
        let note = try #require(edge["node"]?.value.object)
        let id = try #require(note["id"]?.value.string)
        #expect(!before.contains(id))
        #expect(note["text"]?.value == .scalar(.string("on the edge")))
        #expect(server.entityIDs(of: ["Note"]).living == before + [id])

        // Only single objects without ids carry: a list of edges does not, and two entity types
        // at the nearest depth leave the server unable to tell which one to make.
        let listed = #expect(throws: WorldError.self) {
            try World.make(name: "listed", schema: CreatingWorld.schema + "\ntype Extra { edges: [NoteEdge] }\nextend type Mutation { postMany(text: String): Extra }", operations: [
                ("M.graphql", "mutation M($text: String) { postMany(text: $text) { edges { node { id } } } }"),
            ])
        }
        #expect("\(listed.map(String.init(describing:)) ?? "")".contains("selects entities in its payload only inside a list"))
        let twoTypes = CreatingWorld.schema + "\ntype Tag { id: ID! }\ntype Both { note: Note tag: Tag }\ntype Holder { both: Both }\nextend type Mutation { postBoth(text: String): Holder }"
        let two = #expect(throws: WorldError.self) {
            try World.make(name: "two", schema: twoTypes, operations: [
                ("M.graphql", "mutation M($text: String) { postBoth(text: $text) { both { note { id } tag { id } } } }"),
            ])
        }
        #expect("\(two.map(String.init(describing:)) ?? "")".contains("several types in its payload (Note, Tag), so the server cannot tell which type it creates"))
    }

    @MainActor
    @Test("of two entity types at the payload's nearest depth, the one an argument or the field's name names is edited, and the seeds run clean")
    func twoTypesNamed() throws {
        let schema = CreatingWorld.schema + """

            type NoteTag { id: ID! label: String }
            type Both { note: Note tag: NoteTag }
            type Holder { both: Both }
            extend type Mutation { postBothNote(text: String): Holder, addNoteTag(label: String): Holder, attach(noteId: ID!, text: String): Holder }
            extend type Query { tag(id: ID!): NoteTag }
            """
        let operations = CreatingWorld.operations + [
            ("Tag.graphql", "query Tag($id: ID!) { tag(id: $id) { id label } }"),
            ("PostBothNote.graphql", "mutation PostBothNote($text: String) { postBothNote(text: $text) { both { note { id text } tag { id label } } } }"),
            ("AddNoteTag.graphql", "mutation AddNoteTag($label: String) { addNoteTag(label: $label) { both { tag { id label } note { id } } } }"),
            ("Attach.graphql", "mutation Attach($noteId: ID!, $text: String) { attach(noteId: $noteId, text: $text) { both { note { id text } tag { id } } } }"),
        ]
        let world = try WorldFixtures.world("named", schema: schema, operations: operations, entities: ["Note": 2...6, "NoteTag": 1...3], settings: WorldSettings())
        // The name holds `Note` only.
        let post = try #require(world.analysis.mutations["PostBothNote"]?["postBothNote"])
        #expect(post.creates && post.targetType == "Note" && post.carriers.contains("Both"))
        // The name holds `Note` and `NoteTag`: the longer.
        let tag = try #require(world.analysis.mutations["AddNoteTag"]?["addNoteTag"])
        #expect(tag.creates && tag.targetType == "NoteTag" && tag.setters.map(\.field) == ["label"])
        // `noteId` names a note.
        let attach = try #require(world.analysis.mutations["Attach"]?["attach"])
        #expect(!attach.creates && attach.targetType == "Note" && attach.idArgument == ["noteId"] && attach.setters.map(\.field) == ["text"])
        for seed: UInt64 in 0...5 {
            let outcome = Simulation.run(seed: seed, options: .init(events: 200, world: world))
            #expect(outcome.failure == nil, "seed \(seed): \(outcome.failure.map(String.init(describing:)) ?? "")")
        }
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
