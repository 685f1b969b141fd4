import BatonSim
import Testing

@testable import Baton
@testable import baton

#if BATON_MUTANTS
/// `baton sim mutants --check` and a mutant too rare for its seeds.
@MainActor
@Suite("Mutants' check: a scenario that guards a rare mutant catches it")
struct MutantsCommandTests {
    @Test("a mutant the seeds miss is caught by the repository's scenario that guards it; one without a scenario is not")
    func scenarioCatchesRareMutant() {
        let caught = SimMutantsCommand.caughtByScenario(.failedStructureReadDiscards, world: .standard)
        #expect(caught?.file == "structure-check-read-fault-keeps-file.json")
        #expect(caught?.invariant == "check-reads-rows")
        #expect(SimMutantsCommand.caughtByScenario(.readBackKeepsFirstSelection, world: .standard) == nil)
        // A scenario of the default world says nothing of another world.
        #expect(SimMutantsCommand.caughtByScenario(.failedStructureReadDiscards, world: World.builtIn("github")!) == nil)
    }

    @Test("a world cannot show a bug in a feature it lacks (@connection, PageInfo, arguments out of order, nulls), and says why; one that has it can")
    func connectionMutantsNeedAConnection() throws {
        let connectionMutants: [Mutant] = [
            .nullCursorOverwrites, .connectionEdgesSwept, .connectionNodesReplaced, .unjoinedPagesUnreported,
            .connectionErrorsUnread, .joinedListErrorsDropped, .failedNodesWipeJoined,
        ]
        let plain = try World.make(name: "plain", schema: "type Query { issue(id: ID!): Issue }\ntype Issue { id: ID!, title: String }", operations: [
            (source: "Q.graphql", text: "query Q($id: ID!) { issue(id: $id) { id title } }"),
        ])
        for mutant in connectionMutants {
            #expect(plain.cannotShow(mutant)?.contains("@connection") == true, "\(mutant)")
            #expect(World.standard.cannotShow(mutant) == nil, "\(mutant)")
        }
        // GitHub's world pages its issues and comments with @connection too, and the mark may
        // sit in a fragment the operation spreads.
        #expect(World.builtIn("github")!.usesConnectionDirective)
        let schema = """
            type Query { feed: Feed }
            type Feed { id: ID!, posts(first: Int, after: String): PostConnection! }
            type PostConnection { edges: [PostEdge], pageInfo: PageInfo! }
            type PostEdge { cursor: String, node: Post }
            type PageInfo { endCursor: String, hasNextPage: Boolean! }
            type Post { id: ID!, body: String }
            """
        let fragmented = try World.make(name: "feed", schema: schema, operations: [
            (source: "F.graphql", text: """
                query F($after: String) { feed { ...Posts } }
                fragment Posts on Feed {
                  id
                  posts(first: 2, after: $after) @connection(key: "F_posts") { edges { cursor node { id body } } pageInfo { endCursor hasNextPage } }
                }
                """),
        ])
        #expect(fragmented.cannotShow(.connectionEdgesSwept) == nil)
        // The PageInfo the bug leaves out: the fragment's connection reaches one, the plain world none.
        #expect(fragmented.cannotShow(.recordTypeNeverWritten) == nil)
        #expect(plain.cannotShow(.recordTypeNeverWritten)?.contains("PageInfo") == true)
        #expect(World.standard.cannotShow(.recordTypeNeverWritten) == nil)
        // Keys' argument order and null arguments: the plain world writes one non-null argument.
        #expect(plain.cannotShow(.storageKeyArgumentsUnsorted)?.contains("name order") == true)
        #expect(plain.cannotShow(.nullArgumentsDropped)?.contains("non-null") == true)
        #expect(World.standard.cannotShow(.storageKeyArgumentsUnsorted) == nil)
        #expect(World.standard.cannotShow(.nullArgumentsDropped) == nil)
        // `posts(first:, after:)` is out of name order (`after` sorts first), and `after` may be null.
        #expect(fragmented.cannotShow(.storageKeyArgumentsUnsorted) == nil)
        #expect(fragmented.cannotShow(.nullArgumentsDropped) == nil)
        #expect(plain.cannotShow(.wrongScalarAtIngest) == nil)
    }
}
#endif
