@testable import Baton
import Testing

/// When automatic collection schedules a pass: after a turn in which a root left (a released root
/// leaving the buffer, an optimistic layer reverted or answered) or a commit dropped a link, and
/// not after a commit that only reorders links or changes scalars.
@MainActor
@Suite("Automatic collection: when a pass is scheduled")
struct AutomaticCollectionTests {
    let episode = try! StoreFixture.plan(#"query E { episode(id: "E") { id name characters { id } } }"#)
    let character = try! StoreFixture.plan(#"query C { character(id: "1") { id name tags } }"#)
    let rename = try! StoreFixture.plan(#"mutation R { rename(id: "1", name: "X") { character { id name origin { id } } } }"#)

    /// A store whose turns the test ends by hand.
    private func store() -> Store {
        var configuration = Store.Configuration()
        configuration.turnEnds = .caller
        return Store(configuration: configuration)
    }

    private func cast(_ ids: [String], name: String = "Pilot") -> String {
        let characters = ids.map { #"{"id":"\#($0)"}"# }.joined(separator: ",")
        return #"{"data":{"episode":{"id":"E","name":"\#(name)","characters":[\#(characters)]}}}"#
    }

    @Test("a list of links that loses a record schedules a pass; the same links reordered, or scalars changed, do not")
    func linkLists() throws {
        let store = store()
        try StoreFixture.commit(store, episode, [:], cast(["1", "2", "3"]))
        #expect(!store.collectionScheduled, "a first commit drops nothing")
        try StoreFixture.commit(store, episode, [:], cast(["3", "1", "2"], name: "Pilot, again"))
        #expect(!store.collectionScheduled, "reordered links and a new name drop no link")
        try StoreFixture.commit(store, character, [:], #"{"data":{"character":{"id":"1","name":"Rick","tags":["a"]}}}"#)
        try StoreFixture.commit(store, character, [:], #"{"data":{"character":{"id":"1","name":"Rick","tags":["b","c"]}}}"#)
        #expect(!store.collectionScheduled, "a list of scalars holds no links")
        try StoreFixture.commit(store, episode, [:], cast(["3", "1"]))
        #expect(store.collectionScheduled)
        let pass = store.endTurn()
        #expect(pass != nil)
        #expect(store.data(of: RecordKey("Character:2")) == nil, "nothing retains the episode: the pass sweeps its cast")
        #expect(!store.collectionScheduled && store.endTurn() == nil, "one pass per scheduling")
    }

    @Test("a reverted optimistic layer and an answered one each schedule a pass")
    func layersEnding() throws {
        let store = store()
        let guess = #"{"data":{"rename":{"character":{"id":"1","name":"X","origin":{"id":"L"}}}}}"#
        let reverted = store.commitOptimistic(try StoreFixture.changeSet(rename, [:], guess))
        #expect(!store.collectionScheduled, "a layer that begins makes no garbage")
        store.revert(reverted)
        #expect(store.collectionScheduled)
        store.endTurn()
        let answered = store.commitOptimistic(try StoreFixture.changeSet(rename, [:], guess))
        store.commit(try StoreFixture.changeSet(rename, [:], guess), answering: answered)
        #expect(store.collectionScheduled)
        store.endTurn()
        store.commit(try StoreFixture.changeSet(rename, [:], guess), answering: answered)
        #expect(!store.collectionScheduled, "answering a layer already gone ends no layer")
    }

    @Test("a record that holds links and changes its type schedules a pass; a deleted record without links does not")
    func typeChangesAndDeletions() {
        let old = RecordData(typename: "Character", cells: [SlotID.named("origin"): Cell(.link(RecordKey("Location:L")))])
        var retyped = old
        retyped.typename = "Droid"
        #expect(Store.dropsLink(from: old, to: retyped))
        #expect(Store.dropsLink(from: old, to: RecordData(typename: "Character", deleted: true)))
        let plain = RecordData(typename: "Character", cells: [SlotID.named("name"): Cell(.string("Rick"))])
        #expect(!Store.dropsLink(from: plain, to: RecordData(typename: "Character", deleted: true)))
        #expect(!Store.dropsLink(from: old, to: old))
    }

    @Test("a deleted record whose emptied slots hold an empty list before a link still drops the link",
          arguments: [nil, Mutant.emptiedSlotEndsTheSearch])
    func emptyListBeforeALink(mutant: Mutant?) {
        // Slots are walked in slot order (the order names were first met): the empty list must
        // come first for the bug to show, so both names are new to this process here.
        let episodes = SlotID.named("emptyListBeforeALink.episodes")
        let notes = SlotID.named("emptyListBeforeALink.notes")
        #expect(episodes.index < notes.index)
        let old = RecordData(typename: "Character", cells: [
            episodes: Cell(.links([])),
            notes: Cell(.link(RecordKey("client:Character:1:__notes_connection"))),
        ])
        let deleted = RecordData(typename: "Character", deleted: true)
        #expect(Store.dropsLink(from: old, to: deleted, mutant: mutant) == (mutant == nil))
        var emptied = old
        emptied.cells[episodes] = nil
        emptied.cells[notes] = nil
        #expect(Store.dropsLink(from: old, to: emptied, mutant: mutant) == (mutant == nil))
    }
}
