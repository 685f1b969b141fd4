import Baton
import BatonSim
import Testing

/// The harsher disk's events (issue 9): read faults, a full disk for a stretch, the writer's bound,
/// bit rot, and the sweep over one schedule's disk operations.
@MainActor
@Suite("Faults the schedule injects")
struct ScheduleFaultTests {
    static let screen1 = #"{"data":{"character":{"id":"1","name":"Character 1 v0","status":"Alive","species":"Human","location":{"id":"1","name":"Location 1 v0","dimension":"Dimension C-137"},"episodes":[{"id":"1","name":"Episode 1 v0","airDate":"2010-01-01"}]}}}"#

    static func screen(_ id: Int) -> String {
        Self.screen1.replacingOccurrences(of: #""id":"1","name":"Character 1 v0""#, with: #""id":"\#(id)","name":"Character \#(id) v0""#)
    }

    static func response(_ id: Int) -> String {
        #"{"event":"response","operation":"CharacterScreen","variables":{"id":"\#(id)"},"response":\#(screen(id))}"#
    }

    static func replay(_ events: [String], writerBound: Int? = nil, mutant: Mutant? = nil) throws -> SimOutcome {
        let text = #"{"baton-replay":1,"events":["# + events.joined(separator: ",\n") + "]}"
        let file = try ReplayFile.parse(text)
        var options = Simulation.Options(events: file.events.count, mutant: mutant)
        options.writerBound = writerBound
        return Simulation.replay(file.events, options: options)
    }

    @Test("a full disk: drains fail and the work waits; when space returns one drain commits all of it")
    func fullDisk() throws {
        let outcome = try Self.replay([
            Self.response(1),
            #"{"event":"diskFull","events":3}"#,
            #"{"event":"drain"}"#,
            Self.response(2),
            #"{"event":"drain"}"#,
            #"{"event":"drain","expect":{"image":{"Character:1":{"name":"Character 1 v0"},"Character:2":{"name":"Character 2 v0"}}}}"#,
        ])
        #expect(outcome.failure == nil, "\(outcome.failure.map(String.init(describing:)) ?? "")")
        let lines = outcome.trace.filter { $0.hasPrefix("#") }
        #expect(lines.count == 6)
        #expect(lines[2].contains("failed"), "\(lines[2])")
        #expect(lines[4].contains("failed") && lines[4].hasSuffix("space returns"), "\(lines[4])")
        #expect(lines[5].contains("committed"), "\(lines[5])")
        #expect(outcome.coverage.model.fullDiskFailedDrains == 2)
    }

    @Test("over the writer's bound the queue is dropped, reads miss, and the drain that commits empties the image first")
    func writerBound() throws {
        // The first screen hands the writer 5 items (3 records, a root field, a fetch time), each
        // later one 3 (its character, a root field, a fetch time: the location and episode do not
        // change); the bound is 5, so the third screen overflows the queue.
        let outcome = try Self.replay([
            Self.response(1),
            #"{"event":"drain","expect":{"image":{"Character:1":{"name":"Character 1 v0"}}}}"#,
            #"{"event":"diskFull","events":4}"#,
            Self.response(2),
            Self.response(3),
            #"{"event":"check","operation":"CharacterScreen","variables":{"id":"2"},"expect":{"availability":"available","source":"memory"}}"#,
            #"{"event":"drain"}"#,
            #"{"event":"drain","expect":{"image":{"Character:1":null,"Character:2":null,"Character:3":{"name":"Character 3 v0"}}}}"#,
        ], writerBound: 5)
        #expect(outcome.failure == nil, "\(outcome.failure.map(String.init(describing:)) ?? "")")
        #expect(outcome.coverage.model.writerOverflows == 1)
    }

    @Test("a read fault during the check is a miss and leaves the record unhydrated; busy may be waited out")
    func readFaults() throws {
        let events = [
            Self.response(1), #"{"event":"quit"}"#, #"{"event":"relaunch"}"#,
            #"{"event":"readFault","code":"ioerr","skip":0}"#,
            #"{"event":"check","operation":"CharacterScreen","variables":{"id":"1"},"expect":{"availability":"missing"}}"#,
            #"{"event":"check","operation":"CharacterScreen","variables":{"id":"1"},"expect":{"availability":"available","source":"image"}}"#,
        ]
        let outcome = try Self.replay(events)
        #expect(outcome.failure == nil, "\(outcome.failure.map(String.init(describing:)) ?? "")")
        #expect(outcome.coverage.model.readFaultMisses == 1)
        #expect(outcome.trace.contains { $0.contains("record Character:1 (unreadable)") })
        #if BATON_MUTANTS
        let mutated = try Self.replay(events, mutant: .failedReadHydrates)
        #expect(mutated.failure != nil, "the mutant survived a failed row read")
        #endif
    }

    @Test("bit rot: a rotted row is a miss at the next launch, never other data")
    func bitRot() throws {
        var rotted = 0
        for seed in 1...6 {
            let outcome = try Self.replay([
                // After a quit the rows lie in the main file (a drain since would put their pages
                // in the WAL, whose checkpoint at the next open writes the rot over).
                Self.response(1), Self.response(2), #"{"event":"quit"}"#, #"{"event":"relaunch"}"#,
                #"{"event":"bitRot","seed":\#(seed)}"#, #"{"event":"relaunch"}"#,
                #"{"event":"check","operation":"CharacterScreen","variables":{"id":"1"}}"#,
                #"{"event":"check","operation":"CharacterScreen","variables":{"id":"2"}}"#,
                Self.response(1), #"{"event":"drain"}"#,
            ])
            #expect(outcome.failure == nil, "rot seed \(seed): \(outcome.failure.map(String.init(describing:)) ?? "")")
            rotted += outcome.coverage.model.rottedRowsMissed
        }
        #expect(rotted > 0, "no rotted row was ever found damaged")
    }

    @Test("the replay format reads and writes every new event, and refuses what does not fit")
    func replayFormat() throws {
        let events: [SimEvent] = [
            .readFault(code: "busy", skip: 2), .diskFull(events: 5), .fault(on: "truncate", code: "ioerr", skip: 3), .bitRot(seed: 9),
        ]
        let file = ReplayFile(events: events.map { ScheduledEvent($0) })
        #expect(try ReplayFile.parse(file.render(), checked: false) == file)
        #expect(throws: ReplayError.self) {
            _ = try ReplayFile.parse(#"{"baton-replay":1,"events":[{"event":"readFault","code":"full","skip":0}]}"#)
        }
        #expect(throws: ReplayError.self) {
            _ = try ReplayFile.parse(#"{"baton-replay":1,"events":[{"event":"diskFull","events":-1}]}"#)
        }
    }

    @Test("a quick sweep: every write, sync and truncation of a short schedule fails once, and nothing breaks")
    func sweepSlice() {
        let options = Simulation.Options(events: 24)
        let fail = Sweep.run(seed: 2, mode: .fail, options: options)
        #expect(fail.baselineFailure == nil)
        #expect(fail.runs + fail.insideCrashPoints == fail.operations.reduce(0) { $0 + $1.count })
        #expect(fail.runs > 10)
        #expect(fail.fired == fail.runs, "every placed fault fires")
        #expect(fail.failures.isEmpty, "\(fail.failures.map { "\($0.point): \($0.failure)" })")
        let crash = Sweep.run(seed: 2, mode: .crash, options: .init(events: 12))
        #expect(crash.runs > 0 && crash.failures.isEmpty, "\(crash.failures.map { "\($0.point): \($0.failure)" })")
    }

    #if BATON_MUTANTS
    @Test("the sweep has teeth: a drain committed as two transactions is found when its second half fails")
    func sweepFindsTwoTransactions() {
        let result = Sweep.run(seed: 2, mode: .fail, options: .init(events: 40, mutant: .drainInTwoTransactions))
        #expect(result.baselineFailure == nil)
        #expect(!result.failures.isEmpty)
        if let first = result.failures.first {
            var options = Simulation.Options(events: first.events.count, mutant: .drainInTwoTransactions)
            options.writerBound = result.writerBound
            let replayed = Simulation.replay(first.events, seed: 2, options: options)
            #expect(replayed.failure?.invariant == first.failure.invariant)
            options.mutant = nil
            let clean = Simulation.replay(first.events, seed: 2, options: options)
            #expect(clean.failure == nil)
        }
    }
    #endif
}
