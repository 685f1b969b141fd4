import Baton
import Foundation
import Testing

@testable import BatonSim

/// Failures a person can read: each differing cell on a line of its own, the failing event's
/// trace line on every path, trace lines that name keys, and one record's history.
@MainActor
@Suite("Failures a person can read")
struct FailureReportTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func file(_ folder: String, _ name: String) throws -> ReplayFile {
        try ReplayFile.parse(String(contentsOf: repository.appendingPathComponent(folder).appendingPathComponent(name), encoding: .utf8))
    }

    static func replay(_ file: ReplayFile, mutant: Mutant? = nil, timeline: Bool = false) -> SimOutcome {
        Simulation.replay(file.events, seed: file.seed, options: .init(events: file.events.count, mutant: mutant, recordsTimeline: timeline))
    }

    /// A simulation with its first process up, and a response committed through the runner.
    static func simulation(committing response: String) throws -> Simulation {
        let simulation = Simulation(seed: nil, diskSeed: 0, options: .init(), plans: try WorldPlans(world: .standard))
        try simulation.firstLaunch()
        let event = SimEvent.response(operation: "CharacterHeader", variables: ["id": .string("1")], body: .text(response))
        simulation.schedule.append(ScheduledEvent(event))
        try simulation.execute(ScheduledEvent(event), index: 0, execution: nil)
        return simulation
    }

    static func header(name: String) throws -> ChangeSet {
        let plan = try #require(try WorldPlans(world: .standard).plan("CharacterHeader"))
        let text = #"{"data":{"character":{"id":"1","name":"\#(name)","status":"Alive"}}}"#
        return try Ingest.normalize(plan: plan, variables: plan.variables(["id": .string("1")]), response: Array(text.utf8))
    }

    // MARK: Cell-level differences

    @Test("memory-agrees-with-model names the record and each differing cell, one per line; detail keeps them on one line")
    func memoryCells() throws {
        let simulation = try Self.simulation(committing: #"{"data":{"character":{"id":"1","name":"Rick","status":"Alive"}}}"#)
        let process = try #require(simulation.process)
        // The store hears of a new name the model never received.
        process.store.commit(try Self.header(name: "Morty"))
        let violation = try #require(throws: InvariantViolation.self) { try simulation.checkMemory(process, index: 1) }
        #expect(violation.invariant == "memory-agrees-with-model")
        #expect(violation.differences == [#"Character:1.name: expected "Rick" ≠ actual "Morty""#])
        #expect(violation.headline == "model vs memory")
        #expect(violation.detail == #"model vs memory: Character:1.name: expected "Rick" ≠ actual "Morty""#)
        #expect(violation.summary == "memory-agrees-with-model after event #1: model vs memory")
    }

    @Test("visible-agrees-with-model lists each record the UI sees differently")
    func visibleCells() throws {
        let simulation = try Self.simulation(committing: #"{"data":{"character":{"id":"1","name":"Rick","status":"Alive"}}}"#)
        let process = try #require(simulation.process)
        // A layer the model never saw: the base agrees, what the UI sees does not.
        _ = process.store.commitOptimistic(try Self.header(name: "Morty"))
        let violation = try #require(throws: InvariantViolation.self) { try simulation.checkMemory(process, index: 1) }
        #expect(violation.invariant == "visible-agrees-with-model")
        #expect(violation.differences == [#"Character:1.name: expected "Rick" ≠ actual "Morty""#])
    }

    @Test("a collection's keys: what the store and the model disagree on, record by record and field by field")
    func collectionKeys() {
        let swept = SweptKeys.Swept(records: ["A:1", "B:1"], rootFields: ["hero"])
        let expected = ExpectedCollection(swept: ["A:1", "C:1"], sweptRootFields: ["hero", "villain"], kept: 0)
        #expect(swept.differences(expected: expected) == [
            "B:1 swept: expected false ≠ actual true (the model keeps it)",
            "C:1 swept: expected true ≠ actual false (the store kept it)",
            "root.villain swept: expected true ≠ actual false (the store kept it)",
        ])
    }

    @Test("the check's rows, position by position, and every place read-back data differs")
    func checkLines() {
        let expected: [OracleRead] = [.record("Character:1", .present), .rootField("hero", true)]
        let actual: [OracleRead] = [.record("Character:1", .absent)]
        #expect(Simulation.readDifferences(expected: expected, actual: actual) == [
            "read 1: expected record Character:1 (present) ≠ actual record Character:1 (absent)",
            "read 2: expected root hero (present) ≠ actual no read",
        ])
        let model: JSONValue = .object(["a": .int(1), "b": .array([.string("x")]), "c": .null])
        let read: JSONValue = .object(["a": .int(2), "b": .array([]), "d": .bool(true)])
        #expect(JSONDifference.all(model, read) == [
            "$.a: expected 1 ≠ actual 2",
            "$.b: expected 1 elements ≠ actual 0",
            "$.c: expected null ≠ actual absent",
            "$.d: expected absent ≠ actual true",
        ])
        #expect(JSONDifference.all(model, model).isEmpty)
    }

    #if BATON_MUTANTS
    @Test("image-equals-model, check-reads-model-data, relaunch-allowed-state and memory (hydrated flags): a line per cell, and the failing event")
    func invariantsUnderMutants() throws {
        let cases: [(String, Mutant, String, String)] = [
            ("seed-0-image-equals-model-partialSnapshotReplaces.json", .partialSnapshotReplaces, #"Character:3.species: expected "Robot" ≠ actual nothing"#,
             "#4 drain → FAILED image-equals-model"),
            ("seed-0-check-reads-model-data-deletedDroppedFromList.json", .deletedDroppedFromList,
             "read back $.episode.characters: expected 1 elements ≠ actual 0", "#2 check EpisodeCast{\"id\":\"1\"} → FAILED check-reads-model-data"),
            ("seed-0-memory-agrees-with-model-sweptKeepsHydrated.json", .sweptKeepsHydrated, "Character:1 hydrated: expected false ≠ actual true", "#4 "),
            ("seed-0-relaunch-allowed-state-drainInTwoTransactions.json", .drainInTwoTransactions, "Character:1: expected no record ≠ actual Character {",
             "#4 relaunch → FAILED relaunch-allowed-state"),
        ]
        for (name, mutant, line, event) in cases {
            let failure = try #require(Self.replay(try Self.file("Fixtures/regressions", name), mutant: mutant).failure, "\(name)")
            #expect(failure.differences.contains { $0.hasPrefix(line) }, "\(name): \(failure.differences)")
            #expect(failure.differences.allSatisfy { $0.contains(" ≠ actual ") }, "\(name)")
            #expect(failure.event?.hasPrefix(event) == true, "\(name): \(failure.event ?? "no event")")
            #expect(!failure.detail.contains("\n"))
        }
    }

    @Test("a failure at the launch an event needs is noted as that event's, and printed with the events before it")
    func implicitLaunch() throws {
        var file = try Self.file("Fixtures/regressions", "seed-0-relaunch-allowed-state-drainInTwoTransactions.json")
        #expect(file.events.last?.event == .relaunch)
        file.events[file.events.count - 1] = ScheduledEvent(.collect)
        let outcome = Self.replay(file, mutant: .drainInTwoTransactions)
        let failure = try #require(outcome.failure)
        #expect(failure.invariant == "relaunch-allowed-state")
        #expect(failure.event == "#4 collect → FAILED relaunch-allowed-state (at the launch before it)")
        let around = FailureReport.eventsAround(failure, trace: outcome.trace)
        #expect(around.last == failure.event)
        #expect(around.count == 5)
    }
    #endif

    @Test("an expectation that fails is the failing event, with each mismatch on a line")
    func expectationEvent() throws {
        var file = try Self.file("Fixtures/scenarios", "header-before-screen-writer-first.json")
        file.events[4].expect = Expectation(image: ImageExpectation(records: ["Character:1": RowExpectation(cells: ["species": .string("Cat")])]))
        let failure = try #require(Self.replay(file).failure)
        #expect(failure.invariant == "expectation")
        #expect(failure.differences == [#"image Character:1.species: expected "Cat" ≠ actual "Human""#])
        #expect(failure.event?.hasPrefix("#4 drain → committed 1 row (Character:1)") == true)
    }

    // MARK: Trace lines name keys

    @Test("trace lines name the records a commit changed, the rows a drain wrote, what a launch found and the rows a check read")
    func traceNamesKeys() throws {
        let trace = Self.replay(try Self.file("Fixtures/scenarios", "header-before-screen-writer-first.json")).trace
        let lines = trace.filter { $0.hasPrefix("#") }
        #expect(lines[0] == #"#0 response CharacterScreen{"id":"1"} → 4 records, 0 deletions, 0 pages; changed 4 (Character:1, Episode:1, Location:1, client:root)"#)
        #expect(lines[1] == #"#1 quit → quit (committed 3 rows (Character:1, Episode:1, Location:1), 1 root field (character(id:"1")), 1 fetch time (CharacterScreen{"id":"1"}))"#)
        #expect(lines[2] == "#2 relaunch → launched generation 2, found 3 rows, 1 root field, 1 fetch time (Character:1, Episode:1, Location:1)")
        #expect(lines[5].hasSuffix(#"read 4 rows (record Character:1 (present), record Location:1 (present), record Episode:1 (present), fetch CharacterScreen{"id":"1"} (present))"#))
    }

    @Test("a collection names the records and root fields it swept")
    func collectionNamesKeys() throws {
        let file = try Self.file("Fixtures/regressions", "seed-0-memory-agrees-with-model-sweptKeepsHydrated.json")
        let line = try #require(Self.replay(file).trace.first { $0.contains(" collect → ") })
        #expect(line == #"#3 collect → kept 1, swept 3 records (Character:1, Character:3, Location:1) and 1 root field (location(id:"1"))"#)
    }

    @Test("key lists say how many more there are past eight")
    func keyLists() {
        #expect(Simulation.keyList([String]()) == "")
        #expect(Simulation.keyList(["a", "b"]) == " (a, b)")
        #expect(Simulation.keyList((1...10).map(String.init)) == " (1, 2, 3, 4, 5, 6, 7, 8, and 2 more)")
    }

    // MARK: A record's history

    @Test("a record's history: after each event that touched it, memory, the writer's queue, the image and the model")
    func keyHistory() throws {
        let outcome = Self.replay(try Self.file("Fixtures/scenarios", "header-before-screen-writer-first.json"), timeline: true)
        let timeline = try #require(outcome.timeline)
        let lines = try #require(KeyHistory.lines(of: "Character:1", in: timeline))
        #expect(lines[0] == "history of Character:1: 7 events touched it")
        let drain = try #require(lines.firstIndex { $0.hasPrefix("#4 drain → ") })
        #expect(lines[drain + 1] == #"    memory  Character {id: "1", name: "Character 1 v1", status: "Alive"}"#)
        #expect(lines[drain + 2] == "    queue   —")
        #expect(lines[drain + 3].hasPrefix(#"    image   used 2 Character {episodes: [@Episode:1], id: "1", location: @Location:1, name: "Character 1 v1", species: "Human""#))
        #expect(lines[drain + 4] == #"    model   Character {id: "1", name: "Character 1 v1", status: "Alive"}"#)
        #expect(KeyHistory.lines(of: "Character:99", in: timeline) == nil)
        #expect(KeyHistory.keys(in: timeline).contains("Episode:1"))
    }

    #if BATON_MUTANTS
    @Test("the history marks the failure, and the image's cells that differ from the model's image")
    func keyHistoryAtFailure() throws {
        let file = try Self.file("Fixtures/scenarios", "header-before-screen-writer-first.json")
        let timeline = try #require(Self.replay(file, mutant: .partialSnapshotReplaces, timeline: true).timeline)
        let lines = try #require(KeyHistory.lines(of: "Character:1", in: timeline))
        let at = try #require(lines.firstIndex { $0.hasSuffix("← the failure") })
        #expect(lines[at].hasPrefix("#4 drain → FAILED image-equals-model"))
        #expect(lines[(at + 1)...].contains(#"    ≠ image Character:1.species: expected "Human" ≠ actual nothing"#))
        #expect(lines[(at + 1)...].contains { $0.hasPrefix("    model's image  used 2 Character {") })
    }
    #endif

    @Test("two keys that differ only in how a character is composed keep two histories")
    func composedKeys() throws {
        func response(_ id: String) -> ScheduledEvent {
            ScheduledEvent(.response(operation: "CharacterHeader", variables: ["id": .string(id)],
                                     body: .json(.object(["data": .object(["character": .object([
                                         "id": .string(id), "name": .string("n"), "status": .string("s")])])]))))
        }
        let composed = "\u{E9}", decomposed = "e\u{301}"
        let outcome = Simulation.replay([response(composed), response(decomposed)], options: .init(events: 2, recordsTimeline: true))
        #expect(outcome.failure == nil)
        let timeline = try #require(outcome.timeline)
        #expect(timeline.histories[OracleText("Character:" + composed)] != nil)
        #expect(timeline.histories[OracleText("Character:" + decomposed)] != nil)
        guard case .object(let page) = TimelinePage.json(timeline), case .array(let histories)? = page["histories"] else {
            Issue.record("the page's data holds a list of histories")
            return
        }
        #expect(histories.count == timeline.histories.count)
    }

    @Test("recording a timeline changes nothing in the run", arguments: [3, 13] as [UInt64])
    func timelineChangesNothing(seed: UInt64) {
        let plain = Simulation.run(seed: seed, options: .init(events: 60))
        let recorded = Simulation.run(seed: seed, options: .init(events: 60, recordsTimeline: true))
        #expect(plain.traceHash == recorded.traceHash)
        #expect(recorded.timeline?.events.count == recorded.eventsRun)
    }
}
