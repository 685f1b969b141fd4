import Baton
@testable import BatonSim
import Testing

/// A world whose mutations and subscriptions answer nothing the client keys: a review without an
/// id (as Apollo's Star Wars schema writes `createReview` and `reviewAdded`), a `Boolean`. Such a
/// world was refused whole before 2026-12-07 ("selects no entity in its payload"); the server
/// now edits nothing for them and answers new values at each execution.
enum PlainMutationWorld {
    static let schema = """
        type Query { hero(episode: Episode): Character reviews(episode: Episode!): [Review] }
        enum Episode { NEWHOPE EMPIRE JEDI }
        type Character { id: ID! name: String }
        type Review { stars: Int! commentary: String }
        input ReviewInput { stars: Int! commentary: String }
        type Mutation {
          createReview(episode: Episode, review: ReviewInput!): Review
          markAllRead: Boolean
          rename(id: ID!, name: String): Character
        }
        type Subscription { reviewAdded(episode: Episode): Review }
        """

    static let operations: [(source: String, text: String)] = [
        ("Hero.graphql", "query Hero($episode: Episode) { hero(episode: $episode) { id name } }"),
        ("Reviews.graphql", "query Reviews($episode: Episode!) { reviews(episode: $episode) { stars commentary } }"),
        ("CreateReview.graphql", "mutation CreateReview($episode: Episode, $review: ReviewInput!) { createReview(episode: $episode, review: $review) { stars commentary } }"),
        ("MarkAllRead.graphql", "mutation MarkAllRead { markAllRead }"),
        ("Rename.graphql", "mutation Rename($id: ID!, $name: String) { rename(id: $id, name: $name) { id name } }"),
        ("ReviewAdded.graphql", "subscription ReviewAdded($episode: Episode) { reviewAdded(episode: $episode) { stars commentary } }"),
    ]

    static func world() throws -> World {
        try WorldFixtures.world("plain", schema: schema, operations: operations, entities: ["Character": 2...5], settings: WorldSettings())
    }
}

@Suite("Mutations and subscriptions that answer nothing the client keys")
struct PlainMutationTests {
    @Test("the world reads them as answers only: nothing created, edited or deleted; an entity's mutation is read as before")
    func analysis() throws {
        let world = try PlainMutationWorld.world()
        for (operation, field) in [("CreateReview", "createReview"), ("MarkAllRead", "markAllRead"), ("ReviewAdded", "reviewAdded")] {
            let edit = try #require(world.analysis.mutations[operation]?[field])
            #expect(edit.answersOnly, "\(operation)")
            #expect(!edit.creates && !edit.deletes && edit.targetTypes.isEmpty && edit.setters.isEmpty, "\(operation)")
        }
        let rename = try #require(world.analysis.mutations["Rename"]?["rename"])
        #expect(!rename.answersOnly && rename.targetType == "Character" && rename.idArgument == ["id"])
    }

    @Test("the server answers new values at each execution and its entities stay as they were")
    func serverAnswers() throws {
        let world = try PlainMutationWorld.world()
        var server = WorldFixtures.server(world) { $0.errorRate = 0; $0.nonNullErrorRate = 0; $0.nullRate = 0 }
        let create = try #require(world.operation(named: "CreateReview"))
        let variables: [String: JSONValue] = ["episode": .string("JEDI"), "review": .object(["stars": .int(5)])]
        let before = server.entityIDs(of: ["Character"])
        let remembered = server.state.pathOrder.count
        var answers: Set<ProvenanceObject> = []
        for _ in 0..<4 {
            let execution = server.execute(create, variables: variables)
            #expect(execution.errors.isEmpty)
            let review = try #require(execution.data?["createReview"]?.value.object)
            guard case .scalar(.int)? = review["stars"]?.value else {
                Issue.record("stars is an Int!: \(String(describing: review["stars"]?.value))")
                continue
            }
            answers.insert(try #require(execution.data))
        }
        #expect(answers.count > 1, "each execution answers a review of its own")
        #expect(server.entityIDs(of: ["Character"]) == before)
        // Reviews answered once are never asked for again: none takes a place drift draws from.
        #expect(server.state.pathOrder.count == remembered)
        _ = server.execute(try #require(world.operation(named: "Reviews")), variables: ["episode": .string("JEDI")])
        #expect(server.state.pathOrder.count > remembered, "a query's reviews are kept for drift")
        let marked = server.execute(try #require(world.operation(named: "MarkAllRead")), variables: [:])
        #expect(marked.errors.isEmpty)
        guard case .scalar(.bool)? = marked.data?["markAllRead"]?.value else {
            Issue.record("markAllRead answers a Boolean: \(String(describing: marked.data?["markAllRead"]?.value))")
            return
        }
    }

    @MainActor
    @Test("its seeds run clean, and their schedules answer the plain mutations and events")
    func seeds() throws {
        let world = try PlainMutationWorld.world()
        var answered: Set<String> = []
        for seed: UInt64 in 0..<8 {
            let outcome = Simulation.run(seed: seed, options: .init(events: 150, world: world))
            #expect(outcome.failure == nil, "seed \(seed): \(outcome.failure.map(String.init(describing:)) ?? "")")
            for scheduled in outcome.schedule {
                switch scheduled.event {
                case .response(let operation, _, _), .answer(_, let operation, _, _), .optimistic(_, let operation, _, _):
                    answered.insert(operation)
                default:
                    break
                }
            }
        }
        #expect(answered.isSuperset(of: ["CreateReview", "MarkAllRead", "ReviewAdded", "Rename"]), "\(answered.sorted())")
    }
}
