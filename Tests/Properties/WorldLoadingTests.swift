import Baton
@testable import BatonSim
import Foundation
import Testing

/// The fixture worlds and small worlds written in tests.
enum WorldFixtures {
    /// `Fixtures/worlds/NAME` of this repository.
    static func path(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/worlds/\(name)").path
    }

    /// `Fixtures/worlds` of this repository.
    static var directory: URL { URL(fileURLWithPath: path("")) }

    static let rickAndMorty: World = try! World.load(directory: path("rickandmorty"))
    static let github: World = try! World.load(directory: path("github"))

    /// Settings that make a server answer without failures or random nulls.
    static var quiet: WorldSettings {
        var settings = WorldSettings()
        settings.errorRates = [0]
        settings.nonNullErrorRates = [0]
        settings.itemErrorRates = [0]
        settings.nullRates = [0]
        settings.nullIDRates = [0]
        settings.trickyStringRates = [0]
        settings.trickyIDRates = [0]
        settings.canonicalTwinChance = 0
        settings.nullsInPlaceChance = 0
        return settings
    }

    /// A world from a schema and documents, with `entities` entities per type.
    static func world(
        _ name: String, schema: String, operations: [(source: String, text: String)], entities: [String: ClosedRange<Int>],
        settings: WorldSettings
    ) throws -> World {
        var settings = settings
        settings.entities = entities
        return try World.make(name: name, schema: schema, operations: operations, settings: settings)
    }

    /// A world from one schema and one document.
    static func world(_ schema: String, _ document: String, settings: WorldSettings = quiet) throws -> World {
        try World.make(name: "test", schema: schema, operations: [(source: "Test.graphql", text: document)], settings: settings)
    }

    /// A server for `world` whose configuration `adjust` may change.
    static func server(_ world: World, seed: UInt64 = 1, _ adjust: (inout ServerConfiguration) -> Void = { _ in }) -> Server {
        var random = SimRandom(seed: seed).split("configuration")
        var configuration = ServerConfiguration(world: world, random: &random)
        configuration.json = .plain
        adjust(&configuration)
        return Server(world: world, random: SimRandom(seed: seed), configuration: configuration)
    }
}

@Suite("Worlds load from folders and text")
struct WorldLoadingTests {
    @Test("the built-in worlds are the folders of Fixtures/worlds, file for file (run scripts/embed-worlds.py after editing one)")
    func builtInWorldsMatchTheFolders() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: WorldFixtures.directory.path)
            .filter { !$0.hasPrefix(".") }.sorted()
        #expect(World.builtInNames.sorted() == folders)
        for name in folders {
            let folder = WorldFixtures.directory.appendingPathComponent(name)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            let embedded = try #require(BuiltInWorldFiles.worlds.first { $0.name == name }).files
            #expect(embedded.map(\.name) == files, "\(name)")
            for file in files {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                #expect(embedded.first { $0.name == file }?.text == text, "\(name)/\(file) differs from the built-in copy")
            }
            let loaded = try World.load(directory: folder.path)
            let builtIn = try #require(World.builtIn(name))
            #expect(loaded.operations.map(\.name) == builtIn.operations.map(\.name))
            #expect(loaded.settings == builtIn.settings)
        }
    }

    @Test("the Rick and Morty world keeps the operation names replay files use, with the old world's sizes")
    func rickAndMortyKeepsItsNames() throws {
        let world = WorldFixtures.rickAndMorty
        #expect(world.name == "rickandmorty")
        #expect(world.operations.map(\.name) == [
            "AddNote", "CharacterCard", "CharacterHeader", "CharacterList", "CharacterScreen", "DeleteCharacter", "EpisodeCast",
            "EpisodeCastHomes", "EpisodeScenes", "FilterByObject", "FilteredCharacters", "LocationDistricts", "LocationResidents", "NoteFeed", "Notes",
            "RemoveNote", "RemoveNotes", "Rename",
        ])
        #expect(world.settings.entityCount(of: "Character") == 2...7)
        #expect(world.settings.entityCount(of: "Episode") == 1...4)
        #expect(world.settings.entityCount(of: "Location") == 1...3)
        #expect(world.settings.connectionLength == 0...7)
        #expect(world.settings.nullIDRates == [0, 0.2, 0.5])
    }

    @Test("the GitHub world loads, with its connections, entities and mutations understood")
    func githubLoads() throws {
        let world = WorldFixtures.github
        #expect(world.operations.count == 24)
        let analysis = world.analysis
        #expect(analysis.connections.keys.sorted() == [
            "IssueCommentConnection", "IssueConnection", "IssueTimelineItemConnection", "LabelConnection", "SearchResultItemConnection",
        ])
        #expect(analysis.connections["IssueTimelineItemConnection"]?.nodeType == "IssueTimelineItem")
        #expect(analysis.entityTypeNames == ["Bot", "ClosedEvent", "Gist", "Issue", "IssueComment", "Label", "RenamedTitleEvent", "Repository", "User"])
        #expect(world.settings.globalIDs == nil)
        #expect(analysis.looksUpAcrossTypes)
        #expect(!WorldFixtures.rickAndMorty.analysis.looksUpAcrossTypes)

        let update = try #require(analysis.mutations["UpdateIssue"]?["updateIssue"])
        #expect(update.idArgument == ["input", "id"])
        #expect(update.targetType == "Issue")
        #expect(update.setters.map(\.field) == ["body", "title"])
        #expect(update.setters.map(\.argumentPath) == [["input", "body"], ["input", "title"]])
        #expect(update.renewedFields == ["body", "title"])
        #expect(!update.deletes)

        let close = try #require(analysis.mutations["CloseIssue"]?["closeIssue"])
        #expect(close.setters.map(\.argumentPath) == [["input", "state"]])
        #expect(close.renewedFields == ["state"])

        // Nothing in its answer to key: the server answers it without an edit.
        let markRead = try #require(analysis.mutations["MarkNotificationsAsRead"]?["markNotificationsAsRead"])
        #expect(markRead.answersOnly && !markRead.creates && markRead.targetTypes.isEmpty)

        let delete = try #require(analysis.mutations["DeleteIssueComment"]?["deleteIssueComment"])
        #expect(delete.targetType == "IssueComment")
        #expect(delete.deletes)

        let create = try #require(analysis.mutations["CreateIssue"]?["createIssue"])
        #expect(create.creates)
        #expect(create.targetType == "Issue")
        #expect(create.setters.map(\.argumentPath) == [["input", "body"], ["input", "title"]])
        #expect(!create.deletes)
        #expect(create.carriers == [])

        let comment = try #require(analysis.mutations["AddComment"]?["addComment"])
        #expect(comment.creates && comment.targetType == "IssueComment")
        #expect(comment.carriers == ["IssueCommentEdge"])
        #expect(comment.setters.map(\.argumentPath) == [["input", "body"]])
        #expect(comment.renewedFields == ["author", "body"])

        let star = try #require(analysis.mutations["AddStar"]?["addStar"])
        #expect(!star.creates && star.targetType == "Starrable" && star.targetTypes == ["Gist", "Repository"])
        #expect(star.idArgument == ["input", "starrableId"])

        let uses = try #require(analysis.variables["IssueList"])
        #expect(uses["after"]?.role == .cursor(before: false))
        #expect(uses["before"]?.role == .cursor(before: true))
        #expect(uses["first"]?.role == .pageSize(last: false))
        #expect(uses["last"]?.role == .pageSize(last: true))
        #expect(analysis.variables["IssueDetail"]?["id"]?.role == .entityID(["Issue"]))
        #expect(analysis.variables["RepositoryHeader"]?["owner"]?.role == .value)
        #expect(analysis.variables["IssueDetail"]?["withBody"]?.role == .condition)
        #expect(analysis.variables["UpdateIssue"]?["input"]?.inputIDTypes == ["Issue"])
        #expect(analysis.variables["CloseIssue"]?["id"]?.role == .entityID(["Issue"]))
    }

    @Test("the Rick and Morty mutations edit what their payloads name")
    func rickAndMortyMutations() throws {
        let mutations = WorldFixtures.rickAndMorty.analysis.mutations
        let rename = try #require(mutations["Rename"]?["rename"])
        #expect(rename.targetType == "Character")
        #expect(rename.setters == [MutationEdit.Setter(argumentPath: ["name"], field: "name")])
        #expect(rename.renewedFields == ["name"])
        #expect(mutations["DeleteCharacter"]?["deleteCharacter"]?.deletes == true)
        #expect(mutations["DeleteCharacter"]?["deleteCharacter"]?.targetType == "Character")
        #expect(mutations["RemoveNote"]?["removeNote"]?.targetType == "Note")

        let add = try #require(mutations["AddNote"]?["addNote"])
        #expect(add.creates && !add.many && !add.deletes)
        #expect(add.targetType == "Note")
        #expect(add.setters.map(\.field) == ["tags", "text"])
        let removeMany = try #require(mutations["RemoveNotes"]?["removeNotes"])
        #expect(removeMany.many && removeMany.deletes && !removeMany.creates)
        #expect(removeMany.targetType == "Note")
    }

    @Test("the store builds a plan from every operation of both worlds", arguments: ["rickandmorty", "github"])
    func storePlans(worldName: String) throws {
        let world = worldName == "github" ? WorldFixtures.github : WorldFixtures.rickAndMorty
        for operation in world.operations {
            #expect(throws: Never.self, "\(operation.name)") {
                try Plan.build(document: operation.documentText, schema: world.schema, operationName: operation.name)
            }
        }
    }

    @MainActor
    @Test("a folder's schema may be an introspection result, schema.json, as Apollo's tools save it; its seeds run")
    func introspectionSchema() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-introspection-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let id = #"{"kind":"NON_NULL","name":null,"ofType":{"kind":"SCALAR","name":"ID","ofType":null}}"#
        let introspection = #"{"data":{"__schema":{"queryType":{"name":"Query"},"types":["#
            + #"{"kind":"OBJECT","name":"Query","interfaces":[],"fields":[{"name":"note","args":[{"name":"id","type":"# + id
            + #","defaultValue":null}],"type":{"kind":"OBJECT","name":"Note","ofType":null}}]},"#
            + #"{"kind":"OBJECT","name":"Note","interfaces":[],"fields":[{"name":"id","args":[],"type":"# + id
            + #"},{"name":"text","args":[],"type":{"kind":"SCALAR","name":"String","ofType":null}}]}],"directives":[]}}}"#
        try introspection.write(to: folder.appendingPathComponent("schema.json"), atomically: true, encoding: .utf8)
        try "query Note($id: ID!) { note(id: $id) { id text } }".write(to: folder.appendingPathComponent("Note.graphql"), atomically: true, encoding: .utf8)
        let world = try World.load(directory: folder.path)
        #expect(world.schema.field("text", on: "Note") != nil)
        #expect(Simulation.run(seed: 1, options: .init(events: 60, world: world)).failure == nil)
        // More schema in SDL beside an introspection result extends the SDL the result describes.
        try "extend type Note { pinned: Boolean }".write(to: folder.appendingPathComponent("extra.graphqls"), atomically: true, encoding: .utf8)
        #expect(try World.load(directory: folder.path).schema.field("pinned", on: "Note") != nil)
        try "extend type Note { text: String }".write(to: folder.appendingPathComponent("extra.graphqls"), atomically: true, encoding: .utf8)
        let twice = try #require(throws: WorldError.self) { try World.load(directory: folder.path) }
        #expect(twice.source.hasSuffix("extra.graphqls") && twice.line == 1, "\(twice)")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("extra.graphqls"))
        try "type Query { a: Int }".write(to: folder.appendingPathComponent("schema.graphqls"), atomically: true, encoding: .utf8)
        #expect {
            try World.load(directory: folder.path)
        } throws: { error in
            (error as? WorldError)?.message == "the world has schema.graphqls and schema.json; keep one"
        }
    }

    /// A world with no query the server answers once trapped in the generator (an empty range
    /// picked from) the moment a seed drew a response, a check or a retain.
    @Test("documents in .gql files load; a world with no query to answer is refused before a seed runs")
    func gqlFilesAndAnsweredQueries() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-gql-\(getpid())")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("queries"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "type Query { a: Int b: Int }".write(to: folder.appendingPathComponent("schema.graphql"), atomically: true, encoding: .utf8)
        #expect {
            try World.load(directory: folder.path).requireRunnable()
        } throws: { error in
            (error as? WorldError)?.message.hasPrefix("the world has no operations (*.graphql or *.gql files") == true
        }
        try "query A { a }".write(to: folder.appendingPathComponent("queries/A.gql"), atomically: true, encoding: .utf8)
        try "query B { b }".write(to: folder.appendingPathComponent("B.graphql"), atomically: true, encoding: .utf8)
        let world = try World.load(directory: folder.path)
        #expect(world.operations.map(\.name) == ["A", "B"])
        try world.requireRunnable()
        try #"{"unansweredOperations": ["A", "B"]}"#.write(to: folder.appendingPathComponent("world.json"), atomically: true, encoding: .utf8)
        #expect {
            try World.load(directory: folder.path).requireRunnable()
        } throws: { error in
            (error as? WorldError)?.message.hasPrefix("the world has no query the server answers (2 operations") == true
        }
        #expect {
            try SimulationWorld(
                schema: "type Query { a: Int }\ntype Note { id: ID! text: String }\ntype Subscription { noteChanged: Note }",
                operations: ["T.graphql": "subscription T { noteChanged { id text } }"])
        } throws: { error in
            (error as? SimulationWorldError)?.description.contains("no query the server answers") == true
        }
    }

    @Test("a world made from text keeps its operations sorted by name, from several sources")
    func madeFromText() throws {
        let world = try World.make(
            name: "small", schema: "type Query { a: Int, b(x: Int): String }",
            operations: [(source: "B.graphql", text: "query B { b(x: 1) }"), (source: "A.graphql", text: "query A { a } query C { a b }")])
        #expect(world.operations.map(\.name) == ["A", "B", "C"])
        #expect(world.operation(named: "C")?.source == "A.graphql")
        #expect(world.settings == WorldSettings())
    }

    @MainActor @Test("custom scalar ids key entities, and __typename reached through a fragment on the abstract type counts")
    func customScalarIDs() throws {
        let schema = """
            scalar ItemID
            scalar Cursor
            type Query { item(id: ItemID!): Item, feed(first: Int, after: Cursor): FeedConnection, owner(id: ItemID!): Owner }
            interface Owner { id: ItemID! }
            type Person implements Owner { id: ItemID! name: String }
            type Team implements Owner { id: ItemID! size: Int }
            type Item { id: ItemID! title: String owner: Owner }
            type FeedConnection { edges: [FeedEdge] pageInfo: PageInfo! }
            type FeedEdge { cursor: Cursor! node: Item }
            type PageInfo { startCursor: Cursor endCursor: Cursor hasNextPage: Boolean! hasPreviousPage: Boolean! }
            type Mutation { retitle(id: ItemID!, title: String): Item }
            """
        let world = try World.make(name: "scalars", schema: schema, operations: [(source: "Ops.graphql", text: """
            query Item($id: ItemID!) { item(id: $id) { id title owner { ...OwnerKind } } }
            query Owner($id: ItemID!) { owner(id: $id) { ... on Owner { __typename id } ... on Person { name } } }
            query Feed($first: Int, $after: Cursor) { feed(first: $first, after: $after) @connection(key: "Feed") { edges { cursor node { id title } } pageInfo { endCursor hasNextPage startCursor hasPreviousPage } } }
            mutation Retitle($id: ItemID!, $title: String) { retitle(id: $id, title: $title) { id title } }
            fragment OwnerKind on Owner { __typename id }
            """)])
        #expect(world.operations.map(\.name) == ["Feed", "Item", "Owner", "Retitle"])
        var covered = OracleCoverage()
        for seed: UInt64 in 0..<6 {
            let outcome = Simulation.run(seed: seed, options: .init(events: 120, world: world))
            #expect(outcome.failure == nil, "seed \(seed): \(outcome.failure.map(String.init(describing:)) ?? "")")
            covered = covered + outcome.coverage.model
        }
        #expect(covered.recordHydrations > 0)
        #expect(covered.connectionFirstPages > 0)
    }

    @MainActor @Test("a mutation the server cannot interpret is refused, unless the settings leave it unanswered")
    func unansweredMutation() throws {
        // `archiveNote` deletes (`@deleteRecord` without `typename:`), but names no entity in its
        // payload, and its name says nothing the server knows (`removeNote` would: see
        // `deletionNamedByItsField`), so the server cannot tell what it deletes.
        let schema = "type Query { note(id: ID!): Note } type Note { id: ID! text: String } type Mutation { archiveNote(id: ID!): ArchivePayload } type ArchivePayload { archivedNoteId: ID }"
        let operations = [(source: "Ops.graphql", text: "query Note($id: ID!) { note(id: $id) { id text } } mutation Remove($id: ID!) { archiveNote(id: $id) { archivedNoteId @deleteRecord } }")]
        #expect(throws: WorldError.self) { try World.make(name: "notes", schema: schema, operations: operations) }
        var settings = WorldSettings()
        settings.unansweredOperations = ["Remove"]
        let world = try World.make(name: "notes", schema: schema, operations: operations, settings: settings)
        #expect(world.operations.map(\.name) == ["Note", "Remove"])
        #expect(Simulation.run(seed: 1, options: .init(events: 60, world: world)).failure == nil)
    }
}

/// Apps key a fixed set of objects by an enum (`IconEdge { id: IconId! }` in the apollo-kotlin
/// calendar app): the server keeps one entity per value at most, and the store keys them as it
/// keys any id.
@Suite("Entities keyed by an enum id")
struct EnumIDWorldTests {
    static let schema = """
        type Query { items: [Item!]! }
        type Item { id: ID! title: String icon: IconEdge! }
        type IconEdge { id: IconId! name: String }
        enum IconId { Star Heart Moon }
        """

    static func world() throws -> World {
        var settings = WorldFixtures.quiet
        settings.entities = ["IconEdge": 5...9, "Item": 4...6]
        return try WorldFixtures.world(schema, "query Items { items { id title icon { id name } } }", settings: settings)
    }

    @Test("the world loads, and the server never makes more entities than the enum has values, even as drift adds some")
    func fixedIDs() throws {
        let world = try Self.world()
        #expect(world.analysis.entityTypes["IconEdge"] == .required)
        var server = WorldFixtures.server(world, seed: 3)
        #expect(server.entityIDs(of: ["IconEdge"]).living == ["Star", "Heart", "Moon"])
        for _ in 0..<300 { _ = server.drift(.newEntity) }
        let icons = server.entityIDs(of: ["IconEdge"])
        #expect(icons.living.count + icons.deleted.count == 3)
        #expect(server.entityIDs(of: ["Item"]).living.count > 6, "drift still adds entities whose ids are made up")
        let answer = server.execute(try #require(world.operation(named: "Items")), variables: [:])
        let items = try #require(answer.data?["items"]?.value.items)
        #expect(!items.isEmpty)
        for item in items {
            let icon = try #require(item.object?["icon"]?.value.object)
            #expect(["Star", "Heart", "Moon"].contains(icon.id ?? ""))
        }
    }

    @MainActor
    @Test("seeds of such a world run clean: the store and the model key the icons alike")
    func seedsRunClean() throws {
        let world = try Self.world()
        for seed: UInt64 in 0..<6 {
            let outcome = Simulation.run(seed: seed, options: Simulation.Options(events: 80, mutant: nil, world: world))
            #expect(outcome.failure == nil, "seed \(seed): \(outcome.failure.map { "\($0)" } ?? "")")
        }
    }
}

/// Postgres-backed APIs (Hasura, PostGraphile) key rows by `id: Int!`: the server writes such ids
/// as JSON numbers, looks entities up by integer arguments, and the store keys them `Type:5`.
@Suite("Entities keyed by an Int id")
struct IntIDWorldTests {
    static let schema = """
        type Query { todos(limit: Int): [Todo!]! todo_by_pk(id: Int!): Todo }
        type Mutation { update_todo_by_pk(pk_columns: TodoPk!, title: String): Todo }
        input TodoPk { id: Int! }
        type Todo { id: Int! title: String done: Boolean owner: User }
        type User { id: Int! name: String }
        """
    static let operations = """
        query Todos { todos { id title done owner { id name } } }
        query Todo($id: Int!) { todo_by_pk(id: $id) { id title owner { id name } } }
        mutation Rename($id: Int!, $title: String) { update_todo_by_pk(pk_columns: {id: $id}, title: $title) { id title } }
        """

    @Test("ids are numbers in answers, integer arguments look entities up, and a mutation finds its row by an integer in an input object")
    func numbers() throws {
        let world = try WorldFixtures.world(Self.schema, Self.operations)
        #expect(world.analysis.entityTypes["Todo"] == .required)
        var found: (Server, ProvenanceObject)?
        for seed: UInt64 in 0..<20 where found == nil {
            var server = WorldFixtures.server(world, seed: seed)
            let todos = server.execute(try #require(world.operation(named: "Todos")), variables: [:])
            if let first = todos.data?["todos"]?.value.items.first?.object { found = (server, first) }
        }
        guard let (foundServer, first) = found else {
            Issue.record("no seed of 0..<20 answers a todo")
            return
        }
        var server = foundServer
        guard case .scalar(.int(let id))? = first["id"]?.value else {
            Issue.record("the id is not a number: \(String(describing: first["id"]?.value))")
            return
        }
        let one = server.execute(try #require(world.operation(named: "Todo")), variables: ["id": .int(id)])
        #expect(one.data?["todo_by_pk"]?.value.object?.id == String(id))
        let renamed = server.execute(try #require(world.operation(named: "Rename")), variables: ["id": .int(id), "title": .string("milk")])
        #expect(renamed.data?["update_todo_by_pk"]?.value.object?["title"]?.value == .scalar(.string("milk")))
        let text = String(decoding: renamed.responseText, as: UTF8.self)
        #expect(text.contains("\"id\":\(id)"), "\(text)")
    }

    @MainActor
    @Test("seeds of such a world run clean: the store and the model key the rows alike")
    func seedsRunClean() throws {
        let world = try WorldFixtures.world(Self.schema, Self.operations)
        for seed: UInt64 in 0..<8 {
            let outcome = Simulation.run(seed: seed, options: Simulation.Options(events: 100, mutant: nil, world: world))
            #expect(outcome.failure == nil, "seed \(seed): \(outcome.failure.map { "\($0)" } ?? "")")
        }
    }
}
