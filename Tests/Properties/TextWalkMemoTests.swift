import Baton
@testable import BatonSim
import Testing

/// The model keeps what a response walk works out for the next walk of the same operation: the
/// fields that apply per type under the `@include`/`@skip` values, storage keys under the whole
/// variables. A walk under other conditions or other variables must not take another's.
@Suite("The model's walk memos: shared by conditions, never across them")
struct TextWalkMemoTests {
    static let schema = """
        type Query { character(id: ID!, size: Int): Character }
        type Character { id: ID!, name: String, avatar(size: Int): String }
        """
    static let document = """
        query Screen($id: ID!, $full: Boolean!, $size: Int) {
          character(id: $id) { id name @include(if: $full) avatar(size: $size) @skip(if: $full) }
        }
        """

    @Test("one compiled operation reads responses under alternating conditions and sizes as a fresh one does")
    func conditionsAndVariablesKeepTheirOwn() throws {
        let world = try World.make(name: "memo", schema: Self.schema, operations: [(source: "Screen.graphql", text: Self.document)])
        let operation = try #require(world.operation(named: "Screen"))
        let shared = OracleOperation(operation, schema: world.schema)
        #expect(shared.conditionVariables == ["full"])
        let runs: [(full: Bool, size: Int, text: String)] = [
            (true, 1, #"{"data":{"character":{"id":"1","name":"a"}}}"#),
            (false, 1, #"{"data":{"character":{"id":"1","avatar":"s1"}}}"#),
            (false, 2, #"{"data":{"character":{"id":"1","avatar":"s2"}}}"#),
            (true, 2, #"{"data":{"character":{"id":"2","name":"b"}}}"#),
            (false, 1, #"{"data":{"character":{"id":"2","avatar":"t1"}}}"#),
        ]
        for run in runs {
            let variables: [String: JSONValue] = ["id": .string("1"), "full": .bool(run.full), "size": .int(run.size)]
            let fresh = try ModelResponse.normalize(
                text: Array(run.text.utf8), operation: OracleOperation(operation, schema: world.schema), variables: variables,
                schema: world.schema)
            let memoized = try ModelResponse.normalize(text: Array(run.text.utf8), operation: shared, variables: variables, schema: world.schema)
            #expect(memoized == fresh, "full \(run.full), size \(run.size): \(memoized.difference(from: fresh))")
            let slots = Set(memoized.records.values.flatMap { $0.cells.keys.map(\.string) })
            #expect(slots.contains("name") == run.full)
            #expect(slots.contains("avatar(size:\(run.size))") == !run.full)
        }
        // A Boolean variable that is absent, or not a Boolean, counts as false, as @include reads it.
        #expect(shared.conditionIdentity(["full": .bool(true)]) == "1")
        #expect(shared.conditionIdentity(["full": .string("yes")]) == "0")
        #expect(shared.conditionIdentity([:]) == "0")
    }
}
