import Baton
import Testing

/// Read-back gives the field errors stored beside the cells it meets, each at the path where this
/// read met its field.
@MainActor
@Suite("Read-back: field errors beside the data")
struct ReadBackErrorTests {
    let written = try! StoreFixture.plan("query P { list: characters(page: 1) { results { id name origin { name } } } }")
    let other = try! StoreFixture.plan("query Q { characters(page: 1) { results { id name origin { name } } } }")

    /// Three errors: on a null object field (with extensions), on a list item (it lands on the list
    /// field and reads back at its element), on a null leaf of the third item.
    let response = #"""
    {"data":{"list":{"results":[
        {"id":"1","name":"Rick","origin":null},
        null,
        {"id":"2","name":null,"origin":{"name":"Earth"}}]}},
     "errors":[
        {"message":"no origin","path":["list","results",0,"origin"],"extensions":{"code":"GONE","n":1}},
        {"message":"item hidden","path":["list","results",1]},
        {"message":"name hidden","path":["list","results",2,"name"]}]}
    """#

    private func committed() throws -> Store {
        let store = Store(configuration: .init(collectsAutomatically: false))
        try StoreFixture.commit(store, written, [:], response)
        return store
    }

    @Test("an incomplete read names where it found nothing, a complete one nowhere")
    func missingPlaces() throws {
        let store = try committed()
        #expect(store.read(written, variables: Variables([:])).missing.isEmpty)
        let wider = try StoreFixture.plan("query W { list: characters(page: 1) { info { count } results { id status origin { name } } } }")
        let read = store.read(wider, variables: Variables([:]))
        #expect(!read.isComplete)
        #expect(read.missing == ["list.info", "list.results.0.status", "list.results.2.status"])
    }

    @Test("each error at the read's own path, in the order the read meets them, as stored")
    func errorsAtTheReadsPaths() throws {
        let store = try committed()
        let read = store.read(written, variables: Variables([:]))
        #expect(read.isComplete)
        #expect(read.errors.map(\.path) == [
            [.string("list"), .string("results"), .int(1)],
            [.string("list"), .string("results"), .int(0), .string("origin")],
            [.string("list"), .string("results"), .int(2), .string("name")],
        ])
        #expect(read.errors.map(\.error.message) == ["item hidden", "no origin", "name hidden"])
        // The error as stored keeps the response's own path (the item the server named).
        #expect(read.errors[0].error.path == "list.results.1")
        #expect(read.errors[1].error.extensions == #"{"code":"GONE","n":1}"#)
    }

    @Test("errors whose paths step through a null read back at the field holding it; trailing indices only where they reach a null")
    func errorsThroughNulls() throws {
        let plan = try StoreFixture.plan("query E { list: characters(page: 1) { results { id origin { name } episodes { id } } } }")
        let store = Store(configuration: .init(collectsAutomatically: false))
        try StoreFixture.commit(store, plan, [:], #"""
            {"data":{"list":{"results":[{"id":"1","origin":null,"episodes":[]},null]}},
             "errors":[
                {"message":"origin's name failed","path":["list","results",0,"origin","name"]},
                {"message":"an episode's id failed","path":["list","results",1,"episodes",0,"id"]},
                {"message":"an episode failed","path":["list","results",1,"episodes",0]}]}
            """#)
        let read = store.read(plan, variables: Variables([:]))
        #expect(read.errors.map(\.error.message) == ["an episode's id failed", "an episode failed", "origin's name failed"])
        // The last two end in an index, but `0` of `results` is Rick, not a null: read at the field.
        #expect(read.errors.map(\.path) == [
            [.string("list"), .string("results")],
            [.string("list"), .string("results")],
            [.string("list"), .string("results"), .int(0), .string("origin")],
        ])
        #expect(read.errors.map(\.error.path) == ["list.results.1.episodes.0.id", "list.results.1.episodes.0", "list.results.0.origin.name"])
    }

    @Test("another operation over the same records reads the errors at its own response keys")
    func anotherOperationsKeys() throws {
        let store = try committed()
        let read = store.read(other, variables: Variables([:]))
        #expect(read.errors.map(\.path.first) == Array(repeating: JSONValue.string("characters"), count: 3))
        #expect(read.errors.map(\.error.path) == ["list.results.1", "list.results.0.origin", "list.results.2.name"])
    }

    @Test("the response holds data and errors, each error with message, path and extensions as JSON")
    func responseJSON() throws {
        let store = try committed()
        let response = store.read(written, variables: Variables([:])).response
        guard case .object(let members) = response, case .array(let errors)? = members["errors"] else {
            Issue.record("no errors in \(response)")
            return
        }
        #expect(members["data"] != nil)
        #expect(errors.count == 3)
        #expect(errors[1] == .object([
            "message": .string("no origin"),
            "path": .array([.string("list"), .string("results"), .int(0), .string("origin")]),
            "extensions": .object(["code": .string("GONE"), "n": .int(1)]),
        ]))
        #expect(errors[0] == .object([
            "message": .string("item hidden"), "path": .array([.string("list"), .string("results"), .int(1)]),
        ]))
    }

    @Test("a read that meets no error gives none, and its response holds data alone")
    func noErrors() throws {
        let store = Store(configuration: .init(collectsAutomatically: false))
        try StoreFixture.commit(store, written, [:], #"{"data":{"list":{"results":[{"id":"1","name":"Rick","origin":null}]}}}"#)
        let read = store.read(written, variables: Variables([:]))
        #expect(read.errors.isEmpty)
        guard case .object(let members) = read.response else { Issue.record("not an object"); return }
        #expect(Array(members.keys) == ["data"])
    }

    @Test("a later response without the error clears it from the read")
    func clearedByALaterValue() throws {
        let store = try committed()
        try StoreFixture.commit(store, written, [:], #"""
        {"data":{"list":{"results":[{"id":"1","name":"Rick","origin":{"name":"Citadel"}},null,{"id":"2","name":"Morty","origin":{"name":"Earth"}}]}},
         "errors":[{"message":"item hidden","path":["list","results",1]}]}
        """#)
        let read = store.read(written, variables: Variables([:]))
        #expect(read.errors.map(\.error.message) == ["item hidden"])
    }

    #if BATON_MUTANTS
    @Test("under readBackDropsErrors the read gives the data without its errors")
    func mutantDropsThem() throws {
        let store = Store(configuration: .init(collectsAutomatically: false, mutant: .readBackDropsErrors))
        try StoreFixture.commit(store, written, [:], response)
        let read = store.read(written, variables: Variables([:]))
        #expect(read.isComplete)
        #expect(read.errors.isEmpty)
    }
    #endif
}
