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

    static let throughNullsDocument = "query E { list: characters(page: 1) { results { id origin { name } episodes { id } } } }"
    static let throughNulls = #"""
        {"data":{"list":{"results":[{"id":"1","origin":null,"episodes":[]},null]}},
         "errors":[
            {"message":"origin's name failed","path":["list","results",0,"origin","name"]},
            {"message":"an episode's id failed","path":["list","results",1,"episodes",0,"id"]},
            {"message":"an episode failed","path":["list","results",1,"episodes",0]}]}
        """#

    @Test("errors whose paths step through a null read back at the field holding it, at the null element when it is one")
    func errorsThroughNulls() throws {
        let plan = try StoreFixture.plan(Self.throughNullsDocument)
        let store = Store(configuration: .init(collectsAutomatically: false))
        try StoreFixture.commit(store, plan, [:], Self.throughNulls)
        let read = store.read(plan, variables: Variables([:]))
        #expect(read.errors.map(\.error.message) == ["an episode's id failed", "an episode failed", "origin's name failed"])
        // The first two step through the null element 1 of `results`: they explain it, and read
        // back there (the indices that end their paths, `0`, are an episode's, not a result's).
        #expect(read.errors.map(\.path) == [
            [.string("list"), .string("results"), .int(1)],
            [.string("list"), .string("results"), .int(1)],
            [.string("list"), .string("results"), .int(0), .string("origin")],
        ])
        #expect(read.errors.map(\.error.elementIndices) == [[1], [1], []])
        #expect(read.errors.map(\.error.path) == ["list.results.1.episodes.0.id", "list.results.1.episodes.0", "list.results.0.origin.name"])
    }

    @Test("the record source names the element of an error whose path does not end at it, and only then")
    func recordSourceNamesTheElement() throws {
        let store = Store(configuration: .init(collectsAutomatically: false))
        try StoreFixture.commit(store, try StoreFixture.plan(Self.throughNullsDocument), [:], Self.throughNulls)
        let source = store.recordSource()
        #expect(source.contains(#"{"element": [1], "message": "an episode's id failed", "path": "list.results.1.episodes.0.id"}"#))
        #expect(source.contains(#"{"element": [1], "message": "an episode failed", "path": "list.results.1.episodes.0"}"#))
        #expect(source.contains(#"{"message": "origin's name failed", "path": "list.results.0.origin.name"}"#))
    }

    #if BATON_MUTANTS
    @Test("under errorElementForgotten an error that nulled a list element reads back at the list's field")
    func errorElementForgottenMutant() throws {
        let plan = try StoreFixture.plan(Self.throughNullsDocument)
        let store = Store(configuration: .init(collectsAutomatically: false))
        store.commit(try Ingest.normalize(
            plan: plan, variables: Variables([:]), response: Array(Self.throughNulls.utf8), mutant: .errorElementForgotten))
        let read = store.read(plan, variables: Variables([:]))
        #expect(read.errors.map(\.path).first == [.string("list"), .string("results")])
    }
    #endif

    @Test("an error that nulled an inner list's element reads back at that element, through both levels")
    func nestedListElement() throws {
        let schema = try Schema.parse("type Query { grid: [[Cell]] } type Cell { id: ID! label: String! }")
        let plan = try Plan.build(document: "query G { grid { id label } }", schema: schema)
        let store = Store(configuration: .init(collectsAutomatically: false))
        store.commit(try Ingest.normalize(plan: plan, variables: Variables([:]), response: Array(#"""
            {"data":{"grid":[[{"id":"a","label":"A"}],[{"id":"b","label":"B"},null]]},
             "errors":[{"message":"label failed","path":["grid",1,1,"label"]}]}
            """#.utf8)))
        let read = store.read(plan, variables: Variables([:]))
        #expect(read.errors.map(\.path) == [[.string("grid"), .int(1), .int(1)]])
        #expect(read.errors.map(\.error.elementIndices) == [[1, 1]])
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
