import Baton
import BatonSim
import Testing

@Suite("Oracle: the writer, the image and relaunches")
struct OracleWriterTests {
    typealias F = OracleFixture
    static let one: [String: JSONValue] = ["id": .string("1")]

    static func screen(_ oracle: inout Oracle, now: Double = 1) throws {
        try oracle.commit(F.screen("1", name: "Rick", status: "Alive", location: "Earth", episodes: [("10", "Pilot")]), "Screen", one, now: now)
    }

    @Test("a drain writes the queue in one commit: rows, root fields and fetch times, all stamped with the launch")
    func drain() throws {
        var oracle = try F.oracle()
        try Self.screen(&oracle, now: 9)
        #expect(oracle.hasWriterWork)
        let image = oracle.drainCommitted(synced: false)
        #expect(Set(image.records.keys) == ["Character:1", "Character:1:location", "Episode:10"])
        #expect(image.records.values.allSatisfy { $0.used == 1 })
        #expect(image.root[#"character(id:"1")"#] == OracleRootRow(used: 1, cell: OracleCell(.link("Character:1"))))
        #expect(image.fetches[#"Screen{"id":"1"}"#] == OracleFetchRow(used: 1, time: 9))
        #expect(!oracle.hasWriterWork && oracle.queue.isEmpty)
    }

    @Test("a crash may find a failed drain's commit until a drain commits (seed 978900508 of GitHub's world)")
    func failedDrainMayBeFound() throws {
        var oracle = try F.oracle()
        try Self.screen(&oracle)
        let first = oracle.drainCommitted(synced: true)
        try oracle.commit(F.header("1", name: "Rick", status: "Dead"), "Header", Self.one)
        oracle.drainFailed()
        // The process still reads the image as it was, and the work waits.
        #expect(oracle.image == first && oracle.hasWriterWork)
        let afterKill = oracle.allowedStates(after: .kill)
        #expect(afterKill.count == 2)
        #expect(afterKill[1].records["Character:1"]?.cells["status"]?.value == .string("Dead"))
        #expect(oracle.allowedStates(after: .powerLoss).contains(afterKill[1]))
        // A launch that lands on it keeps it in the states a later power loss may return to.
        var landed = oracle
        landed.relaunched(found: 1, generation: 2, after: .kill)
        #expect(landed.image.records["Character:1"]?.cells["status"]?.value == .string("Dead"))
        #expect(landed.coverage.failedDrainsFound == 1)
        #expect(landed.allowedStates(after: .kill).count == 1)
        // The next drain that commits writes over the failed one's frames.
        let second = oracle.drainCommitted(synced: false)
        #expect(oracle.allowedStates(after: .kill) == [second])
    }

    @Test("a snapshot of a record memory never read is merged over its row: its cells first, then the row's")
    func merge() throws {
        var oracle = try F.oracle()
        try Self.screen(&oracle)
        oracle.drainCommitted(synced: true)
        oracle.relaunched(found: 0, generation: 2, after: .quit)
        try oracle.commit(F.header("1", name: "Rick", status: "Dead"), "Header", Self.one)
        #expect(oracle.queue.last?.snapshots.first { $0.key == "Character:1" }?.hydrated == false)
        let image = oracle.drainCommitted(synced: true)
        let row = try #require(image.records["Character:1"])
        #expect(row.used == 2)
        #expect(row.cells["status"]?.value == .string("Dead"))
        #expect(row.cells["location"]?.value == .link("Character:1:location"))  // kept from the row
        #expect(row.cells["episodes"] != nil)
        #expect(oracle.coverage.partialRowMerges == 1)
    }

    @Test("a snapshot of a hydrated record replaces its row; so does a deleted one")
    func replace() throws {
        var oracle = try F.oracle()
        try Self.screen(&oracle)
        oracle.drainCommitted(synced: true)
        oracle.relaunched(found: 0, generation: 2, after: .quit)
        _ = oracle.check(operation: "Header", variables: Self.one, expiration: nil, now: 1, hasImage: true)
        #expect(oracle.isHydrated("Character:1"))
        try oracle.commit(F.header("1", name: "Rick", status: "Dead"), "Header", Self.one)
        var image = oracle.drainCommitted(synced: true)
        #expect(oracle.coverage.partialRowMerges == 0)
        #expect(image.records["Character:1"]?.record == oracle.record("Character:1"))
        let deletion = try F.text(#"{"data":{"deleteCharacter":{"deletedId":"1"}}}"#, "DeleteCharacter", Self.one)
        oracle.serverCommit(deletion, operation: "DeleteCharacter", variables: Self.one, now: 2, answering: nil)
        image = oracle.drainCommitted(synced: true)
        #expect(image.records["Character:1"] == OracleRow(used: 2, typename: "Character", deleted: true))
    }

    @Test("a deleted row's cells never come back into a record a later payload names again")
    func deletedRowGivesNothing() throws {
        var oracle = try F.oracle()
        try Self.screen(&oracle)
        let deletion = try F.text(#"{"data":{"deleteCharacter":{"deletedId":"1"}}}"#, "DeleteCharacter", Self.one)
        oracle.serverCommit(deletion, operation: "DeleteCharacter", variables: Self.one, now: 2, answering: nil)
        oracle.drainCommitted(synced: true)
        oracle.relaunched(found: 0, generation: 2, after: .quit)
        try oracle.commit(F.header("1", name: "Rick", status: "Back"), "Header", Self.one)
        let image = oracle.drainCommitted(synced: true)
        #expect(image.records["Character:1"]?.cells.keys.sorted() == ["id", "name", "status"])
        #expect(image.records["Character:1"]?.deleted == false)
    }

    @Test("rows read are stamped at the next drain; a row read in a launch survives the next, unread ones age out")
    func evictionAcrossLaunches() throws {
        var oracle = try F.oracle()
        try Self.screen(&oracle)
        try oracle.commit(F.header("2", name: "Morty", status: "Alive"), "Header", ["id": .string("2")])
        oracle.drainCommitted(synced: true)
        oracle.relaunched(found: 0, generation: 2, after: .quit)
        _ = oracle.check(operation: "Header", variables: Self.one, expiration: nil, now: 0, hasImage: true)
        #expect(oracle.touches.records == ["Character:1"])
        var image = oracle.drainCommitted(synced: true)
        #expect(image.records["Character:1"]?.used == 2 && image.records["Character:2"]?.used == 1)
        #expect(image.root[#"character(id:"1")"#]?.used == 2 && image.fetches[#"Header{"id":"1"}"#] == nil)
        #expect(!oracle.hasWriterWork)
        oracle.relaunched(found: 0, generation: 3, after: .quit)
        image = oracle.drainCommitted(synced: true)
        #expect(image.records["Character:1"] != nil)  // read in launch 2: still here in launch 3
        #expect(image.records["Character:2"] == nil)  // unread in launch 2: gone
        #expect(image.records["Episode:10"] == nil && image.fetches[#"Screen{"id":"1"}"#] == nil)
        oracle.relaunched(found: 0, generation: 4, after: .quit)
        image = oracle.drainCommitted(synced: true)
        #expect(image.records.isEmpty)
    }

    @Test("the first drain of a launch always commits; later ones only with work; a failed drain keeps its work")
    func work() throws {
        var oracle = try F.oracle()
        #expect(oracle.hasWriterWork)
        oracle.drainCommitted(synced: true)
        #expect(!oracle.hasWriterWork)
        try oracle.commit(F.header("1", name: "Rick", status: "Alive"), "Header", Self.one)
        let before = oracle.image
        oracle.drainFailed()
        #expect(oracle.hasWriterWork && oracle.image == before && oracle.queue.count == 1)
        #expect(oracle.drainCommitted(synced: true).records["Character:1"] != nil)
    }

    @Test("allowed states: the last commit after a quit or kill, any since the durable one after a power loss, empty after garbage")
    func allowedStates() throws {
        var oracle = try F.oracle()
        oracle.drainCommitted(synced: true)
        let durable = oracle.image
        try oracle.commit(F.header("1", name: "Rick", status: "Alive"), "Header", Self.one)
        let first = oracle.drainCommitted(synced: false)
        try oracle.commit(F.header("2", name: "Morty", status: "Alive"), "Header", ["id": .string("2")])
        let second = oracle.drainCommitted(synced: false)
        #expect(oracle.allowedStates(after: .kill) == [second])
        #expect(oracle.allowedStates(after: .quit) == [second])
        #expect(oracle.allowedStates(after: .powerLoss) == [durable, first, second])
        #expect(oracle.allowedStates(after: .corruption) == [.empty(generation: 0)])

        oracle.relaunched(found: 1, generation: 2, after: .powerLoss)
        #expect(oracle.coverage.powerLossesOntoOlderCommit == 1)
        #expect(oracle.image.generation == 2 && oracle.image.sameRows(as: first))
        #expect(oracle.base.isEmpty && oracle.queue.isEmpty && oracle.hasWriterWork)
        // Before anything is known durable again, a power loss may land before or after the open.
        #expect(oracle.allowedStates(after: .powerLoss).map(\.generation) == [1, 2])
        oracle.noteSynced()
        #expect(oracle.allowedStates(after: .powerLoss).map(\.generation) == [2])
    }

    @Test("the first launch: a power loss before anything was synced may find the file empty")
    func firstLaunch() throws {
        var oracle = try F.oracle()
        // The file held no image before the open; the open created one for the running version
        // (a transaction of its own), then counted the launch.
        #expect(oracle.allowedStates(after: .powerLoss) == [
            .empty(generation: 0), OracleImage(generation: 0, appVersion: Oracle.firstAppVersion),
            OracleImage(generation: 1, appVersion: Oracle.firstAppVersion),
        ])
        oracle.relaunched(found: 0, generation: 1, after: .powerLoss)
        #expect(oracle.image == OracleImage(generation: 1, appVersion: Oracle.firstAppVersion))
    }

    @Test("a kill keeps what the last drain wrote even when unsynced, and a later power loss may still lose it")
    func killThenPowerLoss() throws {
        var oracle = try F.oracle()
        oracle.drainCommitted(synced: true)
        try oracle.commit(F.header("1", name: "Rick", status: "Alive"), "Header", Self.one)
        let unsynced = oracle.drainCommitted(synced: false)
        oracle.relaunched(found: 0, generation: 2, after: .kill)
        #expect(oracle.image.sameRows(as: unsynced))
        let allowed = oracle.allowedStates(after: .powerLoss)
        #expect(allowed.count == 3 && allowed[0].records.isEmpty && allowed[2].generation == 2)
    }
}
