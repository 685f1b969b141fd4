import Baton
@testable import BatonSim
import Testing

/// A drain held in flight on the writer's own thread (``SimEvent/drainBegins``): the main actor
/// commits, collects and erases while the drain holds its work, as it does beside production's
/// background writer, and every run still repeats exactly.
@MainActor
@Suite("A drain in flight: the main actor goes on while the writer holds its work")
struct HeldDrainTests {
    static let header = #"{"data":{"character":{"id":"1","name":"Rick Sanchez","status":"Alive"}}}"#
    static let variables: [String: JSONValue] = ["id": .string("1")]

    @Test("a record the drain holds survives a collection while the drain is in flight, and the drain's end writes it")
    func collectionKeepsWhatTheDrainHolds() throws {
        var scenario = Scenario()
        scenario.respond("CharacterHeader", variables: Self.variables, with: Self.header)
        scenario.beginDrain()
        scenario.collect()
        scenario.respond("CharacterHeader", variables: ["id": .string("2")],
                         with: #"{"data":{"character":{"id":"2","name":"Morty Smith","status":"Alive"}}}"#)
        scenario.endDrain()
        scenario.check("CharacterHeader", variables: Self.variables, expect: .available(from: .memory))
        scenario.kill()
        scenario.relaunch()
        scenario.check("CharacterHeader", variables: Self.variables, expect: .available(from: .image))
        // Morty came behind the drain: still queued when the process was killed.
        scenario.check("CharacterHeader", variables: ["id": .string("2")], expect: .missing)
        let result = scenario.run()
        #expect(result.failure == nil, "\(result.failure.map(String.init(describing:)) ?? "")")
        #expect(result.trace.contains { $0.contains("is held once it took its work → in flight with 1 batch") })
        #expect(result.trace.contains { $0.contains("collect → kept 2, swept 0 records") })
        #expect(result.trace.contains { $0.contains("the drain in flight finishes → the drain held since event 1: committed") })
        #expect(result.coverage["drainsHeld"] == 1)
        #expect(result.coverage["collectionsDuringDrains"] == 1)
        let replayed = try Simulator.replay(scenario.replayFile)
        #expect(replayed.traceHash == result.traceHash)
    }

    @Test("under the mutant that leaves a drain's work out of the pending keys, that collection sweeps the record")
    func pendingKeysMutantIsCaught() throws {
        #if BATON_MUTANTS
        let events = [
            ScheduledEvent(.response(operation: "CharacterHeader", variables: Self.variables, body: .text(Self.header))),
            ScheduledEvent(.drainBegins), ScheduledEvent(.collect), ScheduledEvent(.drainEnds),
        ]
        let clean = Simulation.replay(events, options: .init(events: events.count))
        #expect(clean.failure == nil)
        let caught = Simulation.replay(events, options: .init(events: events.count, mutant: .pendingKeysSkipInFlight))
        #expect(caught.failure?.invariant == "collection-sweeps-model")
        #expect(caught.failure?.eventIndex == 2)
        #endif
    }

    @Test("an event that needs the image's lock finishes the drain in flight first; a drainEnds after it does nothing")
    func checkFinishesTheDrainFirst() {
        let events = [
            ScheduledEvent(.response(operation: "CharacterHeader", variables: Self.variables, body: .text(Self.header))),
            ScheduledEvent(.drainBegins),
            ScheduledEvent(.check(operation: "CharacterHeader", variables: Self.variables, expiration: nil)),
            ScheduledEvent(.drainEnds),
        ]
        let outcome = Simulation.replay(events, options: .init(events: events.count))
        #expect(outcome.failure == nil)
        #expect(outcome.trace.contains { $0.hasPrefix("#2 check") && $0.contains("→ the drain held since event 1: committed") && $0.contains("; then ") })
        #expect(outcome.trace.contains { $0.hasPrefix("#3 the drain in flight finishes → skipped: no drain in flight") })
        let problems = ScheduleCheck.problems(events)
        #expect(problems.map(\.description) == ["event 3: drainEnds does nothing: no drain is in flight (event 2 (check) finished the drain first)"])
        #expect(problems.allSatisfy { $0.isNoOp })
        #expect(ScheduleCheck.problems([ScheduledEvent(.drainEnds)]).map(\.description) == ["event 0: drainEnds does nothing: no drain is in flight"])
    }

    @Test("a process that ends while a drain is in flight lets the drain finish first, and a run that ends with one in flight releases it")
    func endsWithADrainInFlight() {
        let events = [
            ScheduledEvent(.response(operation: "CharacterHeader", variables: Self.variables, body: .text(Self.header))),
            ScheduledEvent(.drainBegins), ScheduledEvent(.kill), ScheduledEvent(.relaunch),
            ScheduledEvent(.check(operation: "CharacterHeader", variables: Self.variables, expiration: nil)),
            ScheduledEvent(.drainBegins),
        ]
        let outcome = Simulation.replay(events, options: .init(events: events.count))
        #expect(outcome.failure == nil, "\(outcome.failure.map(String.init(describing:)) ?? "")")
        #expect(outcome.trace.contains { $0.hasPrefix("#2 kill → the drain held since event 1: committed") })
        // Killed after the drain committed: the relaunch reads the row.
        #expect(outcome.trace.contains { $0.hasPrefix("#4 check") && $0.contains("available") })
    }

    @Test("generated runs hold drains, collect and fail drains in flight, and repeat exactly")
    func generatedRuns() {
        var total = Coverage()
        for seed: UInt64 in 0..<6 {
            let first = Simulation.run(seed: seed, options: .init(events: 200))
            #expect(first.failure == nil, "seed \(seed): \(first.failure.map(String.init(describing:)) ?? "")")
            let second = Simulation.run(seed: seed, options: .init(events: 200))
            #expect(first.traceHash == second.traceHash, "seed \(seed) ran differently twice")
            total = total + first.coverage
        }
        let counted = Dictionary(uniqueKeysWithValues: total.counters.map { ($0.name, $0.value) })
        #expect(counted["drainsHeld", default: 0] > 0)
        #expect(counted["collectionsDuringDrains", default: 0] > 0)
    }
}
