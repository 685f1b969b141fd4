import Baton
import BatonSim
import Testing

// An app that listens: subscriptions whose events edit, add and remove the entities its screens
// show. The server reads an event as a mutation's answer (the change happens, then the payload
// arrives), the store commits it under `client:root:subscription`, and the model checks it.

let subscriptionSchema = """
type Query { issue(id: ID!): Issue  issues: [Issue!]! }
type Subscription { issueUpdated(id: ID!): Issue  issueAdded: Issue!  issueRemoved: IssueRemoved! }
type Mutation { closeIssue(id: ID!): Issue }
type IssueRemoved { removedId: ID! }
type Issue { id: ID! title: String state: String labels: [Label!]! }
type Label { id: ID! name: String! }
"""

let subscriptionOperations = [
    "Screens.graphql": """
    query IssueScreen($id: ID!) { issue(id: $id) { id title state labels { id name } } }
    query IssueList { issues { id title state } }
    """,
    "Live.graphql": """
    subscription IssueUpdates($id: ID!) { issueUpdated(id: $id) { id state labels { id name } } }
    subscription IssueAdded { issueAdded { id title state } }
    subscription IssueRemoved { issueRemoved { removedId @deleteRecord(typename: "Issue") } }
    """,
    "Close.graphql": "mutation Close($id: ID!) { closeIssue(id: $id) { id state } }",
]

@MainActor
@Suite("Subscriptions: events that edit, add and remove what the screens show")
struct SubscriptionWorldTests {
    @Test("the world loads, events of every subscription reach the store, and its seeds run clean")
    func seeds() throws {
        let world = try SimulationWorld(name: "live", schema: subscriptionSchema, operations: subscriptionOperations)
        let results = expectCleanSeeds(world)
        let trace = results.flatMap(\.trace)
        for name in ["IssueUpdates", "IssueAdded", "IssueRemoved"] {
            #expect(trace.contains { $0.contains("response \(name)") && $0.contains("client:root:subscription") }, "no event of \(name)")
        }
        // An event that names no issue removes one the server picks; one that adds makes a new one.
        #expect(trace.contains { $0.contains("response IssueRemoved") && $0.contains("1 deletion") })
        let deletions = results.reduce(0) { $0 + ($1.coverage["deletions"] ?? 0) }
        #expect(deletions > 0)
    }

    @Test("a subscription the server cannot read as a change is refused where it is written, in the subscription's words")
    func refused() {
        var operations = subscriptionOperations
        // It deletes, but neither its payload nor `typename:` nor its name says what (a payload
        // with nothing to key and no deletion is answered as it is: PlainMutationTests).
        operations["Live.graphql"] = "subscription Ping { issueRemoved { removedId @deleteRecord } }"
        do {
            _ = try SimulationWorld(name: "live", schema: subscriptionSchema, operations: operations)
            Issue.record("a subscription whose deletion names no type was taken")
        } catch {
            #expect("\(error)".contains("Live.graphql:1:"), "\(error)")
            #expect("\(error)".contains("subscription field \"Subscription.issueRemoved\""), "\(error)")
        }
    }
}
