import Baton
import Observation
import Testing

@MainActor
@Suite("Optimistic layers")
struct LayerTests {
    let name = try! StoreFixture.plan(#"query { character(id: "1") { id name } }"#)

    private func set(_ value: String) throws -> ChangeSet {
        try StoreFixture.changeSet(name, [:], #"{"data":{"character":{"id":"1","name":"\#(value)"}}}"#)
    }

    private func visibleName(_ store: Store) -> Value? {
        store.data(of: RecordKey("Character:1"))?.cells[SlotID.named("name")]?.value
    }

    private func baseName(_ store: Store) -> Value? {
        store.baseData(of: RecordKey("Character:1"))?.cells[SlotID.named("name")]?.value
    }

    @Test("layers stack, revert by id, rebase under a server commit, and never count as server data")
    func layers() throws {
        let store = Store()
        store.commit(try set("A"))
        let one = store.commitOptimistic(try set("B"))
        let two = store.commitOptimistic(try set("C"))
        #expect(visibleName(store) == .string("C"))
        #expect(baseName(store) == .string("A"))
        store.revert(two)
        #expect(visibleName(store) == .string("B"))
        store.commit(try set("D"))
        #expect(visibleName(store) == .string("B"))
        #expect(baseName(store) == .string("D"))
        store.revert(one)
        #expect(visibleName(store) == .string("D"))
        #expect(store.layerCount == 0)
    }

    @Test("a server commit answering a layer drops that layer and keeps the others")
    func answer() throws {
        let store = Store()
        store.commit(try set("A"))
        let one = store.commitOptimistic(try set("B"))
        _ = store.commitOptimistic(try set("C"))
        store.commit(try set("E"), answering: one)
        #expect(store.layerCount == 1)
        #expect(visibleName(store) == .string("C"))
        #expect(baseName(store) == .string("E"))
    }

    @Test("an optimistic record the base lacks disappears on revert, and observers see net changes only")
    func netNotifications() throws {
        let store = Store()
        store.commit(try set("A"))
        let rick = try #require(store.record(RecordKey("Character:1")))
        let counter = ChangeCounter()
        withObservationTracking { _ = rick["name"] } onChange: { counter.increment() }
        let layer = store.commitOptimistic(try set("A"))
        #expect(counter.count == 0)
        store.revert(layer)
        #expect(counter.count == 0)
        #expect(rick["name"] == .string("A"))
    }

    @Test("a collection under a layer over the query root drops the swept root fields from what the UI sees")
    func collectionUnderRootLayer() throws {
        let header = try StoreFixture.plan(#"query ($id: ID!) { character(id: $id) { id name } }"#)
        func fetch(_ id: String) throws -> ChangeSet {
            try StoreFixture.changeSet(header, ["id": .string(id)], #"{"data":{"character":{"id":"\#(id)","name":"n\#(id)"}}}"#)
        }
        let store = Store()
        // The app's guess of a query's answer: a layer that writes the query root.
        _ = store.commitOptimistic(try fetch("9"))
        store.commit(try fetch("1"))
        store.commit(try fetch("2"))
        let root = try #require(store.record(.queryRoot))
        #expect(store.data(of: .queryRoot)?.cells.count == 3)
        // Nothing retains the fetched characters: their root fields go, the layer's stays.
        let result = store.collect()
        #expect(result.sweptRootFields == 2)
        let visible = try #require(store.data(of: .queryRoot))
        #expect(visible.cells.count == 1, "the overlay kept root fields the base swept: \(visible.cells.count)")
        #expect(root[#"character(id:"1")"#] == nil && root[#"character(id:"9")"#] != nil)
    }
}

@MainActor
@Suite("Ages")
struct AgeTests {
    let plan = try! StoreFixture.plan(#"query Q { character(id: "1") { id name } }"#)
    let other = try! StoreFixture.plan(#"query R { character(id: "1") { id } }"#)
    let response = #"{"data":{"character":{"id":"1","name":"Rick"}}}"#

    @Test("fresh just before the expiration, stale at it; a refetch resets the age")
    func expiration() throws {
        let clock = ManualClock()
        let store = Store(clock: clock)
        try StoreFixture.commit(store, plan, [:], response)
        clock.advance(59.999)
        #expect(store.check(plan, variables: try plan.variables(), expiration: 60) == .available(.fresh, fetchTime: 1_000, source: .memory))
        clock.advance(0.001)
        #expect(store.check(plan, variables: try plan.variables(), expiration: 60) == .available(.stale, fetchTime: 1_000, source: .memory))
        try StoreFixture.commit(store, plan, [:], response)
        #expect(store.check(plan, variables: try plan.variables(), expiration: 60) == .available(.fresh, fetchTime: 1_060, source: .memory))
    }

    @Test("a fetch stamped after now (the clock was set back) has no known age: stale wherever an expiration applies",
          arguments: [nil, Mutant.clockSetBackKeepsFresh])
    func clockSetBack(mutant: Mutant?) throws {
        let clock = ManualClock()
        let store = Store(clock: clock, configuration: .init(mutant: mutant))
        try StoreFixture.commit(store, plan, [:], response)
        // The device's clock goes back a day: the fetch at 1,000 now lies ahead of it.
        clock.advance(-86_400)
        let stale = Availability.available(.stale, fetchTime: 1_000, source: .memory)
        let afterSetBack = store.check(plan, variables: try plan.variables(), expiration: 60)
        if mutant == nil {
            #expect(afterSetBack == stale)
        } else if Mutants.available {
            #expect(afterSetBack != stale)
        }
        // Without an expiration the age does not matter.
        #expect(store.check(plan, variables: try plan.variables()) == .available(.fresh, fetchTime: 1_000, source: .memory))
        // A refetch stamps the clock's time, and the age counts from it again.
        try StoreFixture.commit(store, plan, [:], response)
        #expect(store.check(plan, variables: try plan.variables(), expiration: 60) == .available(.fresh, fetchTime: -85_400, source: .memory))
    }

    @Test("unknown age is stale wherever an expiration applies")
    func unknownAge() throws {
        let store = Store(clock: ManualClock(), configuration: .init(defaultExpiration: 30))
        try StoreFixture.commit(store, plan, [:], response)
        #expect(store.check(other, variables: try other.variables()) == .available(.stale, fetchTime: nil, source: .memory))
        let noExpiration = Store(clock: ManualClock())
        try StoreFixture.commit(noExpiration, plan, [:], response)
        #expect(noExpiration.check(other, variables: try other.variables()) == .available(.fresh, fetchTime: nil, source: .memory))
    }

    @Test("invalidation stales every operation written before it; a refetch after it is fresh")
    func invalidation() throws {
        let clock = ManualClock()
        let store = Store(clock: clock)
        try StoreFixture.commit(store, plan, [:], response)
        try StoreFixture.commit(store, other, [:], #"{"data":{"character":{"id":"1"}}}"#)
        store.invalidate()
        #expect(store.check(plan, variables: try plan.variables()) == .available(.stale, fetchTime: 1_000, source: .memory))
        #expect(store.check(other, variables: try other.variables()) == .available(.stale, fetchTime: 1_000, source: .memory))
        try StoreFixture.commit(store, plan, [:], response)
        #expect(store.check(plan, variables: try plan.variables()) == .available(.fresh, fetchTime: 1_000, source: .memory))
        #expect(store.check(other, variables: try other.variables()).isAvailable)
        #expect(store.check(other, variables: try other.variables()) == .available(.stale, fetchTime: 1_000, source: .memory))
    }
}

@MainActor
@Suite("Retention and collection")
struct RetentionTests {
    let first = try! StoreFixture.plan(#"query A { character(id: "1") { id name origin { id name } } }"#)
    let second = try! StoreFixture.plan(#"query B { character(id: "2") { id name } }"#)

    private func seeded(buffer: Int) throws -> Store {
        let store = Store(configuration: .init(releaseBufferSize: buffer, collectsAutomatically: false))
        try StoreFixture.commit(store, first, [:], #"{"data":{"character":{"id":"1","name":"Rick","origin":{"id":"L","name":"Earth"}}}}"#)
        try StoreFixture.commit(store, second, [:], #"{"data":{"character":{"id":"2","name":"Morty"}}}"#)
        return store
    }

    @Test("with a release buffer of 0, a released root's records are swept and a retained root's are not")
    func bufferZero() throws {
        let store = try seeded(buffer: 0)
        let a = store.retain(first, variables: try first.variables())
        let b = store.retain(second, variables: try second.variables())
        store.release(a)
        #expect(store.needsCollection)
        let result = store.collect()
        #expect(store.data(of: RecordKey("Character:1")) == nil)
        #expect(store.data(of: RecordKey("Location:L")) == nil)
        #expect(store.data(of: RecordKey("Character:2")) != nil)
        #expect(store.data(of: .queryRoot)?.cells[SlotID.named(#"character(id:"2")"#)]?.value == .link(RecordKey("Character:2")))
        #expect(store.data(of: .queryRoot)?.cells[SlotID.named(#"character(id:"1")"#)] == nil)
        #expect(result.swept == 2)
        #expect(store.check(second, variables: try second.variables()).isAvailable)
        store.release(b)
    }

    @Test("with a release buffer of 1, a released root survives until a second one is released")
    func bufferOne() throws {
        let store = try seeded(buffer: 1)
        let a = store.retain(first, variables: try first.variables())
        let b = store.retain(second, variables: try second.variables())
        store.release(a)
        #expect(!store.needsCollection)
        store.collect()
        #expect(store.data(of: RecordKey("Character:1")) != nil)
        store.release(b)
        #expect(store.needsCollection)
        store.collect()
        #expect(store.data(of: RecordKey("Character:1")) == nil)
        #expect(store.data(of: RecordKey("Character:2")) != nil)
    }

    @Test("two retained roots of one operation under different variables both keep their records")
    func sameOperationTwoVariables() throws {
        let plan = try StoreFixture.plan("query C($id: ID!) { character(id: $id) { id name } }")
        let store = Store(configuration: .init(releaseBufferSize: 0, collectsAutomatically: false))
        for id in ["1", "2", "3"] {
            try StoreFixture.commit(store, plan, ["id": .string(id)], #"{"data":{"character":{"id":"\#(id)","name":"N\#(id)"}}}"#)
        }
        let one = store.retain(plan, variables: try plan.variables(["id": .string("1")]))
        _ = store.retain(plan, variables: try plan.variables(["id": .string("2")]))
        let three = store.retain(plan, variables: try plan.variables(["id": .string("3")]))
        store.release(three)
        store.collect()
        #expect(store.data(of: RecordKey("Character:1")) != nil)
        #expect(store.data(of: RecordKey("Character:2")) != nil)
        #expect(store.data(of: RecordKey("Character:3")) == nil)
        store.release(one)
    }

    @Test("automatic collection runs once after the turn, not inside the commit")
    func automatic() async throws {
        let store = Store(configuration: .init(releaseBufferSize: 0))
        try StoreFixture.commit(store, first, [:], #"{"data":{"character":{"id":"1","name":"Rick","origin":{"id":"L","name":"Earth"}}}}"#)
        let token = store.retain(first, variables: try first.variables())
        store.release(token)
        #expect(store.data(of: RecordKey("Character:1")) != nil)
        for _ in 0..<10 { await Task.yield() }
        #expect(store.data(of: RecordKey("Character:1")) == nil)
        #expect(!store.needsCollection)
    }
}
