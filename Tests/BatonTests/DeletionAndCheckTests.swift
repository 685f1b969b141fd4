import Baton
import Testing

@MainActor
@Suite("Deletion and the availability check")
struct DeletionAndCheckTests {
    let screen = try! StoreFixture.plan("query S($id: ID!) { character(id: $id) { id name origin { id name } } }")
    let origin = try! StoreFixture.plan("query O($id: ID!) { character(id: $id) { id origin { id } } }")
    let delete = try! StoreFixture.plan(#"mutation D($id: ID!) { deleteCharacter(id: $id) { deletedId @deleteRecord(typename: "Location") } }"#)
    let one: [String: JSONValue] = ["id": .string("1")]

    private func seeded() throws -> Store {
        let store = Store()
        try StoreFixture.commit(store, screen, one, #"{"data":{"character":{"id":"1","name":"Rick","origin":{"id":"L1","name":"Earth"}}}}"#)
        return store
    }

    @Test("a link to a deleted record reads null, is not missing, and its sub-selections are not required")
    func deletedLink() throws {
        let store = try seeded()
        try StoreFixture.commit(store, delete, ["id": .string("L1")], #"{"data":{"deleteCharacter":{"deletedId":"L1"}}}"#)
        #expect(store.data(of: RecordKey("Location:L1"))?.deleted == true)
        #expect(store.check(screen, variables: try screen.variables(one)).isAvailable)
        let read = store.read(screen, variables: try screen.variables(one))
        #expect(read.isComplete)
        #expect(read.data == (try StoreFixture.json(#"{"character":{"id":"1","name":"Rick","origin":null}}"#)))
        #expect(store.recordSource().contains(#""Location:L1": null"#))
    }

    @Test("a deleted record reads as null at its position in a list")
    func deletedInList() throws {
        let plan = try StoreFixture.plan(#"query { episode(id: "e") { id characters { id } } }"#)
        let kill = try StoreFixture.plan(#"mutation { deleteCharacter(id: "2") { deletedId @deleteRecord(typename: "Character") } }"#)
        let store = Store()
        try StoreFixture.commit(store, plan, [:], #"{"data":{"episode":{"id":"e","characters":[{"id":"1"},{"id":"2"},null]}}}"#)
        try StoreFixture.commit(store, kill, [:], #"{"data":{"deleteCharacter":{"deletedId":"2"}}}"#)
        // Positions hold: the cast does not shrink, the deleted member reads null where it was.
        #expect(store.read(plan, variables: try plan.variables()).data == (try StoreFixture.json(#"{"episode":{"id":"e","characters":[{"id":"1"},null,null]}}"#)))
        #expect(store.check(plan, variables: try plan.variables()).isAvailable)
    }

    #if BATON_MUTANTS
    @Test("under the deletedDroppedFromList mutant the list shrinks")
    func deletedInListMutant() throws {
        let plan = try StoreFixture.plan(#"query { episode(id: "e") { id characters { id } } }"#)
        let kill = try StoreFixture.plan(#"mutation { deleteCharacter(id: "2") { deletedId @deleteRecord(typename: "Character") } }"#)
        let store = Store(configuration: .init(collectsAutomatically: false, mutant: .deletedDroppedFromList))
        try StoreFixture.commit(store, plan, [:], #"{"data":{"episode":{"id":"e","characters":[{"id":"1"},{"id":"2"},null]}}}"#)
        try StoreFixture.commit(store, kill, [:], #"{"data":{"deleteCharacter":{"deletedId":"2"}}}"#)
        #expect(store.read(plan, variables: try plan.variables()).data == (try StoreFixture.json(#"{"episode":{"id":"e","characters":[{"id":"1"},null]}}"#)))
    }
    #endif

    @Test("a deleted record named again by a payload holds only that payload's values")
    func revival() throws {
        let store = try seeded()
        try StoreFixture.commit(store, delete, ["id": .string("L1")], #"{"data":{"deleteCharacter":{"deletedId":"L1"}}}"#)
        try StoreFixture.commit(store, origin, one, #"{"data":{"character":{"id":"1","origin":{"id":"L1"}}}}"#)
        let revived = try #require(store.data(of: RecordKey("Location:L1")))
        #expect(revived.deleted == false)
        #expect(revived.cells.keys.map(\.name).sorted() == ["id"])
        #expect(store.check(screen, variables: try screen.variables(one)) == .missing)
    }

    @Test("the check is missing when a nested record is absent")
    func missingNestedRecord() throws {
        let store = Store()
        try StoreFixture.commit(store, origin, one, #"{"data":{"character":{"id":"1","origin":{"id":"L1"}}}}"#)
        let withName = try StoreFixture.plan("query S($id: ID!) { character(id: $id) { id origin { id name } } }")
        #expect(store.check(withName, variables: try withName.variables(one)) == .missing)
        #expect(store.check(origin, variables: try origin.variables(one)).isAvailable)
    }

    @Test("the check is missing when a field is absent")
    func missingField() throws {
        let store = try seeded()
        let withStatus = try StoreFixture.plan("query S($id: ID!) { character(id: $id) { id name status } }")
        #expect(store.check(withStatus, variables: try withStatus.variables(one)) == .missing)
    }

    @Test("the check is missing when the variables select another storage key")
    func otherStorageKey() throws {
        let store = try seeded()
        #expect(store.check(screen, variables: try screen.variables(one)).isAvailable)
        #expect(store.check(screen, variables: try screen.variables(["id": .string("2")])) == .missing)
    }

    @Test("storage keys sort arguments, render JSON, keep nulls and leave out absent variables")
    func storageKeys() throws {
        let friends = try StoreFixture.plan(#"query F($o: [String]) { character(id: "1") { friends(orderby: $o, first: 3) { id } } }"#)
        let field = try #require(friends.selections.fields(for: "Query", variables: Variables()).first?.selections?.fields(for: "Character", variables: Variables()).first)
        #expect(field.storageKey(try friends.variables(["o": .array([.string("first name")])])) == #"friends(first:3,orderby:["first name"])"#)
        #expect(field.storageKey(try friends.variables(["o": .null])) == "friends(first:3,orderby:null)")
        #expect(field.storageKey(try friends.variables()) == "friends(first:3)")
        let filtered = try StoreFixture.plan(#"query P($n: String, $s: String) { characters(filter: {status: $s, name: $n}, page: 1) { info { count } } }"#)
        let page = try #require(filtered.selections.fields(for: "Query", variables: Variables()).first)
        #expect(page.storageKey(try filtered.variables(["n": .string("Rick")])) == #"characters(filter:{"name":"Rick"},page:1)"#)
    }
}
