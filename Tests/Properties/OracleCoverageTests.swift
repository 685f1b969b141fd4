import Baton
import BatonSim
import Testing

@Suite("Oracle: coverage counters")
struct OracleCoverageTests {
    typealias F = OracleFixture

    @Test("one scripted life reaches every path the coverage counts")
    func everyCounter() throws {
        var oracle = try F.oracle()
        let one: [String: JSONValue] = ["id": .string("1")]
        func page(_ arguments: [String: JSONValue], _ notes: [String], end: String, start: String) throws {
            try oracle.commit(F.notesPage("1", arguments: arguments, notes: notes, endCursor: end, startCursor: start), "Notes", arguments.merging(one) { a, _ in a })
        }
        try page(["first": .int(2)], ["1", "2"], end: "c2", start: "c1")  // first page
        try page(["first": .int(2), "after": .string("c2")], ["2", "3"], end: "c3", start: "c2")  // append, one repeated node
        try page(["last": .int(1), "before": .string("c1")], ["0"], end: "c0", start: "c0")  // prepend
        try page(["first": .int(1), "after": .string("nope")], ["9"], end: "c9", start: "c9")  // ignored
        try page(["first": .int(2)], ["1", "2"], end: "c2", start: "c1")  // refresh
        try oracle.commit(F.screen("1", name: "Rick", status: "Alive", location: "Earth", episodes: [("10", "Pilot")]), "Screen", one)
        try oracle.commit(F.header("2", name: "Morty", status: "Alive"), "Header", ["id": .string("2")])
        let deletion = try F.text(#"{"data":{"deleteAny":{"deletedId":"Episode:10"}}}"#, "DeleteAny", ["key": .string("Episode:10")])
        oracle.serverCommit(deletion, operation: "DeleteAny", variables: ["key": .string("Episode:10")], now: 0, answering: nil)
        let revival = try F.text(#"{"data":{"node":{"__typename":"Episode","id":"10","name":"Back"}}}"#, "NodeQuery", ["id": .string("10")])
        oracle.serverCommit(revival, operation: "NodeQuery", variables: ["id": .string("10")], now: 0, answering: nil)
        let keys: [String: JSONValue] = ["keys": .array([.string("Note:0"), .string("Note:3")])]
        let bulk = try F.text(#"{"data":{"deleteMany":{"deletedIds":["Note:0","Note:3"]}}}"#, "DeleteMany", keys)
        oracle.serverCommit(bulk, operation: "DeleteMany", variables: keys, now: 0, answering: nil)
        oracle.drainCommitted(synced: true)
        try oracle.commit(F.header("3", name: "Summer", status: "Alive"), "Header", ["id": .string("3")])
        oracle.drainCommitted(synced: false)
        oracle.relaunched(found: 0, generation: 2, after: .powerLoss)  // lands before Summer's drain

        _ = oracle.check(operation: "Screen", variables: one, expiration: nil, now: 0, hasImage: true)  // hydrates
        try oracle.commit(F.header("2", name: "Morty", status: "Dead"), "Header", ["id": .string("2")])  // never read: merged
        oracle.drainCommitted(synced: true)
        _ = oracle.collectAfterTurn()  // nothing retained: sweeps the hydrated records
        oracle.relaunched(found: 0, generation: 3, after: .quit)
        oracle.drainCommitted(synced: true)  // rows unread in launch 2 age out

        // The harsher disk (issue 9).
        try oracle.commit(F.screen("1", name: "Rick", status: "Alive", location: "Earth", episodes: [("10", "Pilot")]), "Screen", one)
        oracle.drainCommitted(synced: true)
        oracle.relaunched(found: 0, generation: 4, after: .quit)
        // The root field reads; the disk fails Character:1's row (a miss), and the rest of the read.
        _ = oracle.check(
            operation: "Screen", variables: one, expiration: nil, now: 0, hasImage: true,
            readFaults: OracleReadFaults(failedLookups: [1]))
        try oracle.commit(F.header("2", name: "Morty", status: "Dead"), "Header", ["id": .string("2")])
        oracle.drainFailed(diskFull: true)  // no commit frame reached the WAL
        oracle.relaunched(found: 0, generation: 5, after: .kill)
        oracle.noteRot(ImageDamage(records: [OracleText("Character:2")]))
        oracle.relaunched(found: 0, generation: 6, after: .kill)
        oracle.forgetDamaged(ImageDamage(records: [OracleText("Character:2")]))
        // A name's checksum rots: a row that verifies but uses it waits, and comes back when a
        // drain has written the name again.
        try oracle.commit(F.header("3", name: "Summer", status: "Alive"), "Header", ["id": .string("3")])
        oracle.drainCommitted(synced: true)
        oracle.relaunched(found: 0, generation: 7, after: .quit)
        let key = OracleText("Character:3")
        let hiddenRow = try #require(oracle.image.records[key])
        let hidden = ImageDamage(records: [key])
        oracle.noteRot(hidden)
        oracle.forgetDamaged(hidden, hidden: hidden)
        #expect(oracle.image.records[key] == nil && oracle.dormant.records[key] == hiddenRow)
        try oracle.commit(F.header("4", name: "Jerry", status: "Alive"), "Header", ["id": .string("4")])
        var seen = oracle.drainCommitted(synced: true)
        seen.records[key] = hiddenRow
        #expect(oracle.reviveDormant(seen: seen) == 1)
        #expect(oracle.image.records[key] == hiddenRow && oracle.dormant.records.isEmpty)
        oracle.writerBound = 1
        try oracle.commit(F.header("2", name: "Morty", status: "Alive"), "Header", ["id": .string("2")])  // over the bound
        oracle.releaseBufferSize = 0
        oracle.retain(token: 1, operation: "Header", variables: ["id": .string("2")])
        oracle.release(token: 1)  // straight out of an empty buffer
        // The app is updated: its next version's launch wipes the image.
        oracle.relaunched(found: 0, generation: 8, after: .quit, appVersion: Oracle.appVersion(2))
        // A process dies inside its open, and the next launch finds the launch it counted.
        oracle.openCrashed(after: .kill, appVersion: Oracle.appVersion(2), powerLoss: false)
        oracle.relaunched(found: 1, generation: 10, after: .openCrash, appVersion: Oracle.appVersion(2))
        // A drain fails, the process is killed, and the next launch finds the failed drain's commit.
        try oracle.commit(F.header("3", name: "Summer", status: "Dead"), "Header", ["id": .string("3")])
        oracle.drainFailed()
        oracle.relaunched(found: 1, generation: 11, after: .kill, appVersion: Oracle.appVersion(2))
        // A drain held in flight: a collection keeps what it took, an erase drops the queue
        // behind it, and the drain then fails: its work does not come back, the erase's wipe is
        // still owed, and what came after the erase stays queued.
        oracle.writerBound = .max
        try oracle.commit(F.header("6", name: "Jerry", status: "Alive"), "Header", ["id": .string("6")])
        oracle.drainBegan()
        _ = oracle.collect()
        #expect(oracle.pendingKeys.contains(OracleText("Character:6")) && oracle.memory[OracleText("Character:6")] != nil)
        oracle.erase(mark: .present)
        try oracle.commit(F.header("7", name: "Squanchy", status: "Alive"), "Header", ["id": .string("7")])
        oracle.enterDrainInFlight()
        oracle.drainFailed()
        oracle.heldDrainFailed()
        oracle.leaveDrainInFlight(committed: false)
        #expect(oracle.writerMustWipe && oracle.eraseMustWipe && oracle.drainInFlight == nil)
        #expect(oracle.queue.flatMap { $0.snapshots.map(\.key) }.contains(OracleText("Character:7")))
        #expect(!oracle.queue.flatMap { $0.snapshots.map(\.key) }.contains(OracleText("Character:6")))
        // The clock is set back after a fetch: a check under an expiration finds the fetch ahead.
        try oracle.commit(F.header("5", name: "Beth", status: "Alive"), "Header", ["id": .string("5")], now: 500)
        let setBack = oracle.check(operation: "Header", variables: ["id": .string("5")], expiration: 60, now: 400, hasImage: true)
        #expect(setBack.available && setBack.fetchTime == 500 && setBack.freshness == .stale)
        // A store with a default expiration: a check that brings none is judged by it.
        oracle.defaultExpiration = 60
        let byDefault = oracle.check(operation: "Header", variables: ["id": .string("5")], expiration: nil, now: 600, hasImage: true)
        #expect(byDefault.available && byDefault.freshness == .stale)
        oracle.defaultExpiration = nil

        // A layer of a query's predicted answer writes the query root; a collection with nothing
        // retained then sweeps a root field from under it, and the visible root loses it too.
        let eight: [String: JSONValue] = ["id": .string("8")]
        let predicted = try ModelResponse.from(F.header("8", name: "Tammy", status: "Alive"), operation: oracle.world.operation(named: "Header")!, schema: oracle.world.schema)
        oracle.optimistic(layer: 1, predicted, operation: "Header", variables: eight)
        try oracle.commit(F.header("9", name: "Birdperson", status: "Alive"), "Header", ["id": .string("9")])
        oracle.drainCommitted(synced: true)
        let underLayer = oracle.collect()
        #expect(!underLayer.sweptRootFields.isEmpty)
        #expect(oracle.visible(OracleText("client:root"))?.cells.keys.contains { $0.description.contains("\"9\"") } == false)

        // The server refuses a request: errors only, no data, and no fetch time stamped.
        let refused = try OracleFixture.text(#"{"errors":[{"message":"API rate limit exceeded"}]}"#, "Header", eight)
        let refusal = oracle.serverCommit(refused, operation: "Header", variables: eight, now: 700, answering: nil)
        #expect(refusal.changed.isEmpty && refusal.batch.fetch == nil)
        // A name renewed into its Unicode twin: equal by Swift's `==`, a change all the same.
        try oracle.commit(F.header("8", name: "Caf\u{E9}", status: "Alive"), "Header", eight)
        let twin = try oracle.commit(F.header("8", name: "Cafe\u{301}", status: "Alive"), "Header", eight)
        #expect(twin.changed == [OracleText("Character:8")])

        for (name, value) in oracle.coverage.counters {
            #expect(value > 0, "\(name) was never reached")
        }
    }
}

@Suite("Oracle: reading back what memory lacks")
struct OracleMissingReadTests {
    typealias F = OracleFixture

    @Test("a read of a partial record names the fields it lacks and the links whose records are gone, in order")
    func missingPlaces() throws {
        var oracle = try F.oracle()
        let one: [String: JSONValue] = ["id": .string("1")]
        try oracle.commit(F.header("1", name: "Rick", status: "Alive"), "Header", one)
        let partial = oracle.expectedRead(operation: "Screen", variables: one)
        #expect(!partial.isComplete)
        #expect(partial.missing == ["character.location", "character.episodes"])
        #expect(partial.data == .object(["character": .object(["id": .string("1"), "name": .string("Rick"), "status": .string("Alive")])]))

        try oracle.commit(F.screen("1", name: "Rick", status: "Alive", location: "Earth", episodes: [("10", "Pilot"), ("11", "Lawn")]), "Screen", one)
        let whole = oracle.expectedRead(operation: "Screen", variables: one)
        #expect(whole.isComplete && whole.missing.isEmpty)
        // Once written, collection with nothing retained sweeps the records and the root field.
        oracle.drainCommitted(synced: true)
        _ = oracle.collect()
        let swept = oracle.expectedRead(operation: "Screen", variables: one)
        #expect(swept.missing == ["character"])
    }
}
