import Baton
import Testing

/// Minimal reproductions of Sources bugs the read-back property found, one test each.
///
/// Each fails until its bug is fixed; the property keeps generating the same situation, so it
/// goes on checking the fix.
@MainActor
@Suite("Read-back property: reproductions of the bugs it found")
struct ReadBackReproductionTests {
    static let sdl = """
    type Query { media: [Media] }
    interface Node { id: ID! }
    type Photo implements Node { id: ID! }
    type Post implements Node { id: ID! }
    union Media = Photo | Post
    """

    /// Found by seeds 102, 118, 158 and 283 (of 0..<500). Every `Media` is a `Node`, so
    /// `... on Node { kind: __typename }` selects the type name of every object of `media`, and
    /// the response carries it under `kind`. Ingest looks for an abstract object's type name only
    /// under `__typename` and the aliases of `__typename` fields that apply with no type condition
    /// (`ShapeCache.typenameKeys`, through `SelectionSet.fields(for: nil, …)`); the plan keeps the
    /// fragment's condition as the set of `Node`'s types (`PlanBuilder.possibleTypes(of:in:…)`
    /// returns nil only when the condition is the parent type itself, or the parent is an object
    /// type), so `kind` is never looked at and ingest throws "missing __typename for abstract type
    /// Media". The same happens for a named fragment on `Node` (or on any interface or union that
    /// covers `Media`) spread there.
    @Test("an aliased __typename in a fragment on a type covering the field's abstract type resolves the type")
    func aliasedTypenameInCoveringFragment() throws {
        let schema = try Schema.parse(ReadBackReproductionTests.sdl)
        let plan = try Plan.build(document: "{ media { ... on Node { kind: __typename } } }", schema: schema)
        let response = #"{"data":{"media":[{"kind":"Photo"}]}}"#
        let variables = try plan.variables()
        let changeSet: ChangeSet
        do {
            changeSet = try Ingest.normalize(plan: plan, variables: variables, response: Array(response.utf8))
        } catch {
            Issue.record("ingest refused the response: \(error)")
            return
        }
        let store = Store()
        store.commit(changeSet)
        let read = store.read(plan, variables: variables)
        #expect(read.isComplete)
        #expect(read.data == (try JSONValue.parse(#"{"media":[{"kind":"Photo"}]}"#)))
    }
}
