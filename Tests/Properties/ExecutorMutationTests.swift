import Baton
import BatonSim
import Foundation
import Testing

/// Mutations interpreted generically: edits, deletions, payloads against the new state, and the
/// optimistic guess that leaves the server alone.
@Suite("Mutations edit and delete what they name")
struct ExecutorMutationTests {
    /// A fixture world with quiet settings (no failures, no random nulls, plain ids).
    static func quiet(_ world: World, versions: Int = 3) -> World {
        var settings = WorldFixtures.quiet
        settings.entities = world.settings.entities
        settings.valueVersions = versions...versions
        settings.connectionLength = 4...4
        settings.listLength = 3...3
        return World(name: world.name, schema: world.schema, operations: world.operations, settings: settings)
    }

    static func run(_ server: inout Server, _ world: World, _ name: String, _ variables: [String: JSONValue]) throws -> Execution {
        server.execute(try #require(world.operation(named: name)), variables: variables)
    }

    @Test("Rename sets the name its argument gives, and later answers keep it")
    func rename() throws {
        let world = Self.quiet(WorldFixtures.rickAndMorty)
        var server = WorldFixtures.server(world, seed: 5)
        let id = try #require(server.entityIDs(of: ["Character"]).living.first)
        let renamed = try Self.run(&server, world, "Rename", ["id": .string(id), "name": .string("Summer 🦄")])
        let character = try #require(renamed.data?["rename"]?.value.object?["character"]?.value.object)
        #expect(character.id == id)
        #expect(character["name"]?.value == .scalar(.string("Summer 🦄")))
        #expect(renamed.data?["rename"]?.arguments == ["id": .string(id), "name": .string("Summer 🦄")])
        let header = try Self.run(&server, world, "CharacterHeader", ["id": .string(id)])
        #expect(header.data?["character"]?.value.object?["name"]?.value == .scalar(.string("Summer 🦄")))
    }

    @Test("DeleteCharacter deletes: lookups answer null, lists drop it, a second delete is an error")
    func delete() throws {
        let world = Self.quiet(WorldFixtures.rickAndMorty)
        var server = WorldFixtures.server(world, seed: 6)
        let id = try #require(server.entityIDs(of: ["Character"]).living.first)
        let deleted = try Self.run(&server, world, "DeleteCharacter", ["id": .string(id)])
        let payload = try #require(deleted.data?["deleteCharacter"]?.value.object?["deletedId"])
        #expect(payload.value == .scalar(.string(id)))
        #expect(payload.directives.map(\.name) == ["deleteRecord"])
        #expect(try Self.run(&server, world, "CharacterHeader", ["id": .string(id)]).data?["character"]?.value == .null)
        #expect(server.entityIDs(of: ["Character"]).deleted == [id])
        for episode in server.entityIDs(of: ["Episode"]).living {
            let cast = try Self.run(&server, world, "EpisodeCast", ["id": .string(episode)])
            let ids = cast.data?["episode"]?.value.object?["characters"]?.value.items.compactMap { $0.object?.id } ?? []
            #expect(!ids.contains(id))
        }
        let again = try Self.run(&server, world, "DeleteCharacter", ["id": .string(id)])
        #expect(again.data?["deleteCharacter"]?.value == .null)
        #expect(again.data?["deleteCharacter"]?.errors.first?.message.contains("no Character has the id") == true)
    }

    @Test("RemoveNote takes the note out of every connection")
    func removeNote() throws {
        let world = Self.quiet(WorldFixtures.rickAndMorty)
        var server = WorldFixtures.server(world, seed: 8)
        var removed = 0
        for character in server.entityIDs(of: ["Character"]).living {
            let notes = try Self.run(&server, world, "Notes", ["id": .string(character)])
            let connection = notes.data?["character"]?.value.object?["notes"]?.value.object
            let ids = connection?["edges"]?.value.items.compactMap { $0.object?["node"]?.value.object?.id } ?? []
            guard let note = ids.first else { continue }
            _ = try Self.run(&server, world, "RemoveNote", ["id": .string(note)])
            let after = try Self.run(&server, world, "Notes", ["id": .string(character)])
            let left = after.data?["character"]?.value.object?["notes"]?.value.object?["edges"]?.value.items
                .compactMap { $0.object?["node"]?.value.object?.id } ?? []
            #expect(left == Array(ids.dropFirst()))
            removed += 1
        }
        #expect(removed > 0)
    }

    @Test("an input object's id and fields: UpdateIssue sets what it gives and renews what it selects")
    func updateThroughInput() throws {
        let world = Self.quiet(WorldFixtures.github)
        var server = WorldFixtures.server(world, seed: 9)
        let id = try #require(server.entityIDs(of: ["Issue"]).living.first)
        let before = try Self.run(&server, world, "IssueHeader", ["id": .string(id)])
        let title = try #require(before.data?["node"]?.value.object?["title"]?.value)
        let input: JSONValue = .object(["id": .string(id), "body": .string("new body")])
        let update = try #require(world.operation(named: "UpdateIssue"))

        let guess = try #require(server.optimisticExecution(update, variables: ["input": input]))
        let guessed = try #require(guess.data?["updateIssue"]?.value.object?["issue"]?.value.object)
        #expect(guessed["title"]?.value == .scalar(.string("optimistic title")))
        #expect(guessed["body"]?.value == .scalar(.string("new body")))
        #expect(try Self.run(&server, world, "IssueHeader", ["id": .string(id)]).data?["node"]?.value.object?["title"]?.value == title)

        let answer = server.execute(update, variables: ["input": input])
        let issue = try #require(answer.data?["updateIssue"]?.value.object?["issue"]?.value.object)
        #expect(issue["body"]?.value == .scalar(.string("new body")))
        #expect(issue["title"]?.value != title, "three versions: a renewed title changes")
        let after = try Self.run(&server, world, "IssueHeader", ["id": .string(id)])
        #expect(after.data?["node"]?.value.object?["title"]?.value == issue["title"]?.value)
    }

    @Test("CloseIssue sets the state from a literal, and from the input field's default")
    func closeIssue() throws {
        let world = Self.quiet(WorldFixtures.github)
        var server = WorldFixtures.server(world, seed: 10)
        for id in server.entityIDs(of: ["Issue"]).living {
            let closed = try Self.run(&server, world, "CloseIssue", ["id": .string(id)])
            #expect(closed.data?["closeIssue"]?.value.object?["issue"]?.value.object?["state"]?.value == .scalar(.string("CLOSED")))
        }
        let byDefault = try World.make(
            name: "defaults", schema: try String(contentsOfFile: WorldFixtures.path("github") + "/schema.graphqls", encoding: .utf8),
            operations: [(source: "Close.graphql", text: "mutation Close($id: ID!) { closeIssue(input: {id: $id}) { issue { state } } }")],
            settings: WorldFixtures.quiet)
        var other = WorldFixtures.server(byDefault, seed: 10)
        let id = try #require(other.entityIDs(of: ["Issue"]).living.first)
        let closed = try Self.run(&other, byDefault, "Close", ["id": .string(id)])
        #expect(closed.data?["closeIssue"]?.value.object?["issue"]?.value.object?["state"]?.value == .scalar(.string("CLOSED")))
        #expect(closed.data?["closeIssue"]?.arguments == ["input": .object(["id": .string(id)])])
    }

    @Test("@deleteRecord without typename answers the record key; the deleted entity reads as null in the payload")
    func deleteWithoutTypename() throws {
        let world = try ExecutorSchema.world("mutation M($id: ID!) { removeThing(id: $id) { deletedId @deleteRecord thing { id } } }")
        var server = WorldFixtures.server(world)
        let id = try #require(server.entityIDs(of: ["Thing"]).living.first)
        let execution = try Self.run(&server, world, "M", ["id": .string(id)])
        let payload = try #require(execution.data?["removeThing"]?.value.object)
        #expect(payload["deletedId"]?.value == .scalar(.string("Thing:\(id)")))
        #expect(payload["thing"]?.value == .null)
        #expect(server.entityIDs(of: ["Thing"]).deleted == [id])
    }

    @Test("a deletion whose payload names nothing takes its type from its name, and deletes; another name is answered without an edit")
    func deletionNamedByItsField() throws {
        let schema = """
            type Query { note(id: ID!): Note }
            type Mutation { removeNote(id: ID!): RemoveNotePayload archiveNote(id: ID!): RemoveNotePayload }
            type RemoveNotePayload { removedNoteId: ID }
            type Note { id: ID! text: String }
            """
        let world = try WorldFixtures.world(schema, """
            mutation TestDeleteNote($id: ID!) { removeNote(id: $id) { removedNoteId } }
            query N($id: ID!) { note(id: $id) { id text } }
            """)
        let edit = try #require(world.analysis.mutations["TestDeleteNote"]?["removeNote"])
        #expect(edit.targetType == "Note" && edit.deletes && !edit.creates)
        var server = WorldFixtures.server(world)
        let id = try #require(server.entityIDs(of: ["Note"]).living.first)
        _ = try Self.run(&server, world, "TestDeleteNote", ["id": .string(id)])
        #expect(server.entityIDs(of: ["Note"]).deleted == [id])
        #expect(try Self.run(&server, world, "N", ["id": .string(id)]).data?["note"]?.value == .null)
        // Another name says nothing the server knows, and the payload holds nothing to key: it is
        // answered as it is, and deletes nothing (a `@deleteRecord` there would be refused:
        // WorldErrorTests).
        let other = try WorldFixtures.world(schema, "mutation A($id: ID!) { archiveNote(id: $id) { removedNoteId } }\nquery N($id: ID!) { note(id: $id) { id text } }")
        #expect(other.analysis.mutations["A"]?["archiveNote"]?.answersOnly == true)
        var otherServer = WorldFixtures.server(other)
        let kept = try #require(otherServer.entityIDs(of: ["Note"]).living.first)
        _ = try Self.run(&otherServer, other, "A", ["id": .string(kept)])
        #expect(otherServer.entityIDs(of: ["Note"]).deleted.isEmpty)
    }

    @Test("a failed mutation edits nothing; an optimistic guess fails nothing, and is nil for unknown ids")
    func failures() throws {
        let world = Self.quiet(WorldFixtures.rickAndMorty)
        var server = WorldFixtures.server(world, seed: 11) { $0.errorRate = 1 }
        let id = try #require(server.entityIDs(of: ["Character"]).living.first)
        let failed = try Self.run(&server, world, "Rename", ["id": .string(id), "name": .string("Nobody")])
        #expect(failed.data?["rename"]?.value == .null)
        #expect(failed.data?["rename"]?.errors.first != nil)
        var quiet = WorldFixtures.server(world, seed: 11)
        let header = try Self.run(&quiet, world, "CharacterHeader", ["id": .string(id)])
        #expect(header.data?["character"]?.value.object?["name"]?.value != .scalar(.string("Nobody")))
        // A query's guess is its answer from the state as it is, with nothing failing, though
        // this server fails every field it can.
        let headerOperation = try #require(world.operation(named: "CharacterHeader"))
        let guess = try #require(server.optimisticExecution(headerOperation, variables: ["id": .string(id)]))
        let text = String(decoding: guess.responseText, as: UTF8.self)
        #expect(!text.contains("\"errors\"") && text.contains("\"name\""), "\(text)")
        #expect(server.optimisticExecution(try #require(world.operation(named: "Rename")), variables: ["id": .string("404"), "name": .string("x")]) == nil)
    }
}
