import Baton
import BatonSim
import Testing

// An app's own world, written in the test, run through BatonSim's public API only (this target
// imports nothing with `@testable`): what docs/simulator.md's "Simulate your own app" shows.

let todoSchema = """
type Query {
  list(id: ID!): TodoList
  todo(id: ID!): Todo
}
type Mutation {
  rename(id: ID!, title: String!): TodoPayload
  deleteTodo(id: ID!): DeletePayload
}
type TodoList {
  id: ID!
  name: String
  todos(first: Int, after: String, last: Int, before: String, done: Boolean): TodoConnection
}
type TodoConnection { edges: [TodoEdge], pageInfo: PageInfo! }
type TodoEdge { cursor: String!, node: Todo }
type PageInfo { startCursor: String, endCursor: String, hasNextPage: Boolean!, hasPreviousPage: Boolean! }
type Todo { id: ID!, title: String, done: Boolean, note: String, owner: Person }
type Person { id: ID!, name: String }
type TodoPayload { todo: Todo }
type DeletePayload { deletedId: ID }
"""

let todoOperations = [
    "List.graphql": """
    query List($id: ID!, $first: Int, $after: String, $last: Int, $before: String) {
      list(id: $id) {
        id
        name
        todos(done: false, first: $first, after: $after, last: $last, before: $before) @connection(key: "List_todos") {
          edges { cursor node { id title done } }
          pageInfo { startCursor endCursor hasNextPage hasPreviousPage }
        }
      }
    }
    """,
    "Todo.graphql": """
    query Todo($id: ID!) { todo(id: $id) { id title done note owner { id name } } }
    """,
    "TodoHeader.graphql": """
    query TodoHeader($id: ID!) { todo(id: $id) { id title } }
    """,
    "Rename.graphql": """
    mutation Rename($id: ID!, $title: String!) { rename(title: $title, id: $id) { todo { id title } } }
    """,
    "DeleteTodo.graphql": """
    mutation DeleteTodo($id: ID!) { deleteTodo(id: $id) { deletedId @deleteRecord(typename: "Todo") } }
    """,
]

@MainActor
@Suite("A user's own world through BatonSim's public API")
struct TodoAppWorldTests {
    let world = try! SimulationWorld(name: "todos", schema: todoSchema, operations: todoOperations)

    @Test("generated seeds run clean over the app's world, deterministically")
    func seeds() {
        #expect(world.operationNames == ["DeleteTodo", "List", "Rename", "Todo", "TodoHeader"])
        for seed: UInt64 in 0..<8 {
            let result = Simulator.run(seed: seed, in: world, events: 120)
            #expect(result.failure == nil, "seed \(seed): \(result.failure.map(String.init(describing:)) ?? "")\n\(result.failure?.replayFile ?? "")")
            #expect(result.events == 120)
        }
        #expect(Simulator.run(seed: 3, in: world, events: 60).traceHash == Simulator.run(seed: 3, in: world, events: 60).traceHash)
        let covered = Simulator.campaign(seeds: 0...5, in: world, events: 120).reduce(into: [String: Int]()) { total, result in
            for (name, value) in result.coverage { total[name, default: 0] += value }
        }
        #expect(covered["partialRowMerges", default: 0] > 0)
        #expect(covered["connectionFirstPages", default: 0] > 0)
    }

    @Test("a scenario with a kill, a power loss and relaunches, checked step by step and as a replay file")
    func scenario() throws {
        var scenario = Scenario(in: world)
        let todo = #"{"data":{"todo":{"id":"t1","title":"Buy milk","done":false,"note":"2 litres","owner":{"id":"p1","name":"Ada"}}}}"#
        scenario.respond("Todo", variables: ["id": .string("t1")], with: todo)
        scenario.drain()
        scenario.kill()
        scenario.relaunch()
        scenario.check("Todo", variables: ["id": .string("t1")], expect: .available(from: .image))
        // A header for the same todo (fewer fields): the writer merges it over the row.
        scenario.respond("TodoHeader", variables: ["id": .string("t1")], with: #"{"data":{"todo":{"id":"t1","title":"Buy oat milk"}}}"#)
        scenario.drain()
        // Which drains a power loss keeps is the disk's choice: the model knows every state it may
        // find, so this check needs no expectation of its own.
        scenario.powerLoss(seed: 7)
        scenario.relaunch()
        scenario.check("TodoHeader", variables: ["id": .string("t1")])
        scenario.respond("Todo", variables: ["id": .string("t1")], with: todo)
        scenario.quit()
        scenario.relaunch()
        let expected: JSONValue = .object(["todo": .object([
            "id": .string("t1"), "title": .string("Buy milk"), "done": .bool(false), "note": .string("2 litres"),
            "owner": .object(["id": .string("p1"), "name": .string("Ada")]),
        ])])
        scenario.check("Todo", variables: ["id": .string("t1")], expect: .available(from: .image, data: expected))
        let result = scenario.run()
        #expect(result.failure == nil, "\(result.failure.map(String.init(describing:)) ?? "")")

        let replayed = try Simulator.replay(scenario.replayFile, in: world)
        #expect(replayed.failure == nil)
        #expect(replayed.traceHash == result.traceHash)
    }

    @Test("a step that would do nothing fails the scenario before it runs: a misspelt operation, a token of an ended process (found by a new user's tests, 2026-12-07: both passed)")
    func stepsThatDoNothing() throws {
        var misspelt = Scenario(in: world)
        misspelt.respond("Todoo", variables: ["id": .string("t1")], with: #"{"data":{"todo":null}}"#)
        let refused = try #require(misspelt.run().failure)
        #expect(refused.invariant == "scenario-steps" && refused.eventIndex == 0, "\(refused)")
        #expect(refused.detail.contains("names operation \"Todoo\""), "\(refused)")
        // The failure's replay file is the schedule, which a replay refuses the same way.
        #expect(throws: SimulationReplayError.self) { try Simulator.replay(refused.replayFile, in: world) }

        var stale = Scenario(in: world)
        let token = stale.retain("Todo", variables: ["id": .string("t1")])
        stale.kill()
        stale.relaunch()
        stale.release(token: token)
        let lost = try #require(stale.run().failure)
        #expect(lost.invariant == "scenario-steps" && lost.eventIndex == 3, "\(lost)")
        #expect(lost.detail.contains("retained in a process that ended at event 1 (kill)"), "\(lost)")

        // The README's scenario, as written there: the drain before the kill is what puts the
        // commit in the image.
        var readme = Scenario(in: world)
        let todo = #"{"data":{"todo":{"id":"t1","title":"Buy milk","done":false,"note":"2 litres","owner":{"id":"p1","name":"Ada"}}}}"#
        readme.respond("Todo", variables: ["id": .string("t1")], with: todo)
        readme.drain()
        readme.kill(); readme.relaunch()
        readme.check("Todo", variables: ["id": .string("t1")], expect: .available(from: .image))
        #expect(readme.run().failure == nil)
    }

    @Test("a user logs out: the erase leaves the next user nothing of the last, in memory, in the image and in the file's bytes")
    func logout() throws {
        var scenario = Scenario(in: world)
        let first = #"{"data":{"todo":{"id":"t1","title":"Call the first user's dentist","done":false,"note":"n","owner":{"id":"p1","name":"Ada"}}}}"#
        let second = #"{"data":{"todo":{"id":"t2","title":"Water the plants","done":true,"note":"m","owner":{"id":"p2","name":"Grace"}}}}"#
        scenario.respond("Todo", variables: ["id": .string("t1")], with: first)
        scenario.quit()
        scenario.relaunch()
        scenario.check("Todo", variables: ["id": .string("t1")], expect: .available(from: .image))
        scenario.erase()
        // Before the writer runs the rows are still in the file: the check must not read them.
        scenario.check("Todo", variables: ["id": .string("t1")], expect: .missing)
        scenario.respond("Todo", variables: ["id": .string("t2")], with: second)
        // This drain commits the erase: the invariant erase-leaves-no-bytes searches the files.
        scenario.drain()
        scenario.kill()
        scenario.relaunch()
        scenario.check("Todo", variables: ["id": .string("t1")], expect: .missing)
        scenario.check("Todo", variables: ["id": .string("t2")], expect: .available(from: .image))
        let result = scenario.run()
        #expect(result.failure == nil, "\(result.failure.map(String.init(describing:)) ?? "")")
        #expect(result.trace.contains { $0.contains("erased text") }, "the erase's drain searched the files")
        #expect(scenario.replayFile.contains(#"{"event":"erase"}"#))
    }

    @Test("an expectation the store does not meet is a failure with a replay file")
    func failingExpectation() {
        var scenario = Scenario(in: world)
        scenario.check("Todo", variables: ["id": .string("t9")], expect: .available())
        let result = scenario.run()
        #expect(result.failure?.invariant == "expectation")
        #expect(result.failure?.replayFile.contains(#""event":"check""#) == true)
    }

    @Test("a world the simulator cannot serve says where, before any seed runs")
    func badWorld() {
        #expect(throws: SimulationWorldError.self) {
            try SimulationWorld(schema: todoSchema, operations: ["Broken.graphql": "query Broken { todo(id: \"1\") { id colour } }"])
        }
        do {
            _ = try SimulationWorld(schema: todoSchema, operations: ["Broken.graphql": "query Broken { todo(id: \"1\") { id colour } }"])
        } catch {
            #expect(error.description.hasPrefix("Broken.graphql:1:"), "\(error)")
            #expect(error.description.contains("colour"))
        }
    }

    @Test("the built-in worlds are there for a quick look")
    func builtIns() {
        #expect(SimulationWorld.rickAndMorty.operationNames.contains("CharacterScreen"))
        #expect(SimulationWorld.github.name == "github")
    }
}
