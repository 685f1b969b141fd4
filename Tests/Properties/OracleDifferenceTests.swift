import Baton
import BatonSim
import Testing

@Suite("Oracle: readable differences, per-key views and coverage")
struct OracleDifferenceTests {
    @Test("one line per differing cell: key.cell: expected … ≠ actual …")
    func records() {
        let expected = OracleRecord(typename: "Character", cells: [
            "name": OracleCell(.string("Rick")), "status": OracleCell(.string("Alive")), "location": OracleCell(.link("L:1")),
        ])
        let actual = OracleRecord(typename: "Character", cells: [
            "name": OracleCell(.string("Rick")), "status": OracleCell(.null, errors: [OracleFieldError(message: "gone", path: "character.status")]),
            "episodes": OracleCell(.links(["Episode:1", nil])),
        ])
        #expect(OracleDifference.records(key: "Character:1", expected: expected, actual: actual) == [
            "Character:1.episodes: expected nothing ≠ actual [@Episode:1, null]",
            "Character:1.location: expected @L:1 ≠ actual nothing",
            #"Character:1.status: expected "Alive" ≠ actual null (error "gone" at character.status)"#,
        ])
        #expect(OracleDifference.records(key: "Character:1", expected: expected, actual: expected).isEmpty)
        #expect(OracleDifference.records(key: "X:1", expected: nil, actual: .deleted("X")) == ["X:1: expected no record ≠ actual X (deleted)"])
    }

    @Test("an integer and a number kept as decimal text read apart though their digits agree")
    func integerBesideDecimalText() {
        let expected = OracleRecord(typename: "Note", cells: ["meta": OracleCell(.int(-621_058_133_375_578_131))])
        let actual = OracleRecord(typename: "Note", cells: ["meta": OracleCell(.number("-621058133375578131"))])
        // Until 2026-12-06 both printed -621058133375578131, a difference that showed none.
        #expect(OracleDifference.records(key: "Note:7", expected: expected, actual: actual) == [
            "Note:7.meta: expected -621058133375578131 ≠ actual decimal(-621058133375578131)",
        ])
    }

    @Test("rows: a deleted row that kept cells, and used stamps, show; images list every table")
    func rows() {
        let expected = OracleImage(generation: 2, records: ["A:1": OracleRow(used: 2, typename: "A", deleted: true)],
                                   root: ["a": OracleRootRow(used: 2, cell: OracleCell(.int(1)))])
        let actual = OracleImage(generation: 2, records: ["A:1": OracleRow(used: 1, typename: "A", deleted: true, cells: ["x": OracleCell(.bool(true))])],
                                 fetches: ["Q{}": OracleFetchRow(used: 2, time: 5)])
        #expect(OracleDifference.images(expected: expected, actual: actual) == [
            "A:1.x: expected nothing ≠ actual true",
            "A:1.used: expected 2 ≠ actual 1",
            "root.a: expected 1 ≠ actual nothing",
            "fetches.Q{}: expected nothing ≠ actual 5.0 (used 2)",
        ])
    }

    @Test("a key's history: memory, the writer's queue and the image side by side")
    func history() throws {
        var oracle = try OracleFixture.oracle()
        try oracle.commit(OracleFixture.header("1", name: "Rick", status: "Alive"), "Header", ["id": .string("1")])
        var view = oracle.history(of: "Character:1")
        #expect(view.memory != nil && view.queued.count == 1 && view.row == nil && !view.hydrated)
        oracle.drainCommitted(synced: true)
        view = oracle.history(of: "Character:1")
        #expect(view.queued.isEmpty && view.row?.record == view.memory)
    }

    @Test("coverage adds up counter by counter")
    func coverageSum() {
        var a = OracleCoverage()
        a.revivals = 2
        a.deduplicatedEdges = 1
        var b = OracleCoverage()
        b.revivals = 3
        b.powerLossesOntoOlderCommit = 4
        b.bulkDeletions = 6
        a.fetchesAheadOfClock = 1
        b.fetchesAheadOfClock = 2
        a.rootFieldsSweptUnderLayers = 1
        b.queryRootLayers = 2
        b.checksUnderDefaultExpiration = 1
        a.responsesWithoutData = 2
        b.twinRenewals = 1
        let sum = a + b
        #expect(sum.revivals == 5 && sum.deduplicatedEdges == 1 && sum.powerLossesOntoOlderCommit == 4 && sum.bulkDeletions == 6)
        #expect(sum.fetchesAheadOfClock == 3)
        #expect(sum.queryRootLayers == 2 && sum.rootFieldsSweptUnderLayers == 1)
        #expect(sum.responsesWithoutData == 2 && sum.twinRenewals == 1)
        #expect(sum.counters.count == 38 && sum.counters.map(\.value).reduce(0, +) == 26)
    }

    @Test("a campaign shard's coverage reads back from its JSON counter by counter")
    func coverageJSONRoundTrip() {
        let names = Coverage().counters.map(\.name)
        var object: [String: JSONValue] = [:]
        for (number, name) in names.enumerated() { object[name] = .int(number + 1) }
        let read = Coverage(json: .object(object))
        for (number, counter) in read.counters.enumerated() {
            #expect(counter.value == number + 1, "\(counter.name) read back as \(counter.value)")
        }
        #expect(read.json == .object(object))
    }
}
