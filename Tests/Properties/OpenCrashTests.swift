import Baton
@testable import BatonSim
import Testing

/// A process that dies inside its open, at every operation an open makes: the next launch finds a
/// state the open could have left (the model's, checked as any relaunch), the rows a quit made
/// durable survive it, and the replay file says where the crash struck.
@MainActor
@Suite("A process dying inside its open leaves the image whole")
struct OpenCrashTests {
    static let header = #"{"data":{"character":{"id":"1","name":"Rick Sanchez","status":"Alive"}}}"#
    static let variables: [String: JSONValue] = ["id": .string("1")]
    /// More operations than any open of these scenarios makes, so the last runs finish first.
    static let operationCounts = 0...40

    /// Rows written and made durable by a quit, a process of `build` dying in its open after
    /// `operations` disk changes, then the screen checked by the next launch (and once more after
    /// it, so the state found is used). What the checks find is the model's to say: the rows, or
    /// nothing when the dying open wiped them (an update) or counted a launch that read none of
    /// them (they are then unseen, as after any launch that did not read them).
    static func crashThenCheck(operations: Int, powerLossSeed: UInt64?, build: LaunchBuild) -> Scenario {
        var scenario = Scenario()
        scenario.respond("CharacterHeader", variables: variables, with: header)
        scenario.drain()
        scenario.quit()
        scenario.openCrash(operations: operations, powerLossSeed: powerLossSeed, build: build)
        scenario.check("CharacterHeader", variables: variables)
        scenario.kill()
        scenario.check("CharacterHeader", variables: variables)
        return scenario
    }

    @Test("every crash point, each build, killed or powered off: no failure, and some launches find what the dead open committed",
          arguments: LaunchBuild.allCases)
    func everyPoint(build: LaunchBuild) {
        var struck = 0
        var finished = 0
        var committed = 0
        var fromImage = 0
        for powerLossSeed in [nil, 11] as [UInt64?] {
            for operations in Self.operationCounts {
                let result = Self.crashThenCheck(operations: operations, powerLossSeed: powerLossSeed, build: build).run()
                #expect(result.failure == nil, "operations \(operations), seed \(String(describing: powerLossSeed)): \(result.failure.map(String.init(describing:)) ?? "")")
                if result.trace.contains(where: { $0.contains("inside the open") }) { struck += 1 }
                if result.trace.contains(where: { $0.contains("the open finished first") }) { finished += 1 }
                committed += result.coverage["openCrashesCommitted"] ?? 0
                if result.trace.contains(where: { $0.contains("check CharacterHeader") && $0.contains("from image") }) { fromImage += 1 }
            }
        }
        #expect(struck > 10, "struck \(struck)")
        #expect(finished > 0)
        #expect(committed > 0)
        // A crash before the count leaves the rows to be read; an update's wipe never does.
        if build == .appUpgrade { #expect(fromImage == 0) } else { #expect(fromImage > 0, "from image \(fromImage)") }
    }

    @Test("every crash point of a quit, killed or powered off: no failure, and both a crash inside and a quit that finished first")
    func everyQuitPoint() {
        var struck = 0
        var finished = 0
        for powerLossSeed in [nil, 13] as [UInt64?] {
            for operations in 0...24 {
                var scenario = Scenario()
                scenario.respond("CharacterHeader", variables: Self.variables, with: Self.header)
                scenario.drain()
                scenario.respond("CharacterHeader", variables: ["id": .string("2")], with: #"{"data":{"character":{"id":"2","name":"Morty Smith","status":"Alive"}}}"#)
                scenario.quitCrash(operations: operations, powerLossSeed: powerLossSeed)
                scenario.check("CharacterHeader", variables: Self.variables)
                scenario.check("CharacterHeader", variables: ["id": .string("2")])
                let result = scenario.run()
                #expect(result.failure == nil, "operations \(operations), seed \(String(describing: powerLossSeed)): \(result.failure.map(String.init(describing:)) ?? "")")
                if result.trace.contains(where: { $0.contains("inside the quit") }) { struck += 1 }
                if result.trace.contains(where: { $0.contains("the quit finished first") }) { finished += 1 }
                if operations == 3, powerLossSeed != nil {
                    #expect(scenario.replayFile.contains(#""event":"quitCrash""#))
                    #expect(scenario.replayFile.contains(#""powerLossSeed":13"#))
                }
            }
        }
        #expect(struck > 10, "struck \(struck)")
        #expect(finished > 0)
    }

    @Test("garbage written over the image after an open died in its checkpoint takes the WAL's copy with it: nothing of the old image comes back")
    func garbageTakesTheCopy() throws {
        for operations in [4, 5, 8, 12, 17] {
            let replay = #"{"baton-replay":1,"events":[{"event":"response","operation":"CharacterHeader","variables":{"id":"1"},"response":{"data":{"character":{"id":"1","name":"Rick","status":"Alive"}}}},{"event":"drain"},{"event":"kill"},{"event":"openCrash","operations":"# + "\(operations)" + #"},{"event":"corruptFile","seed":3},{"event":"relaunch"},{"event":"check","operation":"CharacterHeader","variables":{"id":"1"}}]}"#
            let result = try Simulator.replay(replay)
            #expect(result.failure == nil, "operations \(operations): \(result.failure.map(String.init(describing:)) ?? "")")
        }
    }

    @Test("the replay file names the crash point, the death and the build, and replays to the same trace")
    func replayFile() throws {
        let scenario = Self.crashThenCheck(operations: 3, powerLossSeed: 5, build: .formatUpgrade)
        let result = scenario.run()
        #expect(result.failure == nil)
        #expect(scenario.replayFile.contains(#""event":"openCrash""#))
        #expect(scenario.replayFile.contains(#""build":"format""#))
        #expect(scenario.replayFile.contains(#""powerLossSeed":5"#))
        let replayed = try Simulator.replay(scenario.replayFile)
        #expect(replayed.traceHash == result.traceHash)
        #expect(throws: ReplayError.self) {
            try ReplayFile.parse(#"{"baton-replay": 1, "events": [{"event": "openCrash", "operations": 1, "build": "nightly"}]}"#)
        }
        #expect(throws: ReplayError.self) {
            try ReplayFile.parse(#"{"baton-replay": 1, "events": [{"event": "openCrash", "operations": -1}]}"#)
        }
    }

    #if BATON_MUTANTS
    /// The first crash point at which `mutant` fails the scenario of `build`, if any.
    static func firstFailure(_ mutant: Mutant, build: LaunchBuild) throws -> (operations: Int, invariant: String)? {
        for operations in operationCounts {
            let scenario = crashThenCheck(operations: operations, powerLossSeed: nil, build: build)
            let file = try ReplayFile.parse(scenario.replayFile)
            let outcome = Simulation.replay(file.events, seed: file.seed, options: .init(events: file.events.count, mutant: mutant))
            if let failure = outcome.failure { return (operations, failure.invariant) }
        }
        return nil
    }

    @Test("an update's open that marks the new version before deleting the old rows fails at a crash between")
    func wipeMarksFirstCaught() throws {
        let caught = try Self.firstFailure(.wipeMarksFirst, build: .appUpgrade)
        #expect(caught != nil)
        #expect(caught?.invariant == "relaunch-allowed-state")
    }

    @Test("a format upgrade's open that moves the stamps after marking the file 7 fails at a crash between")
    func stampsMovedApartCaught() throws {
        let caught = try Self.firstFailure(.stampsMovedApart, build: .formatUpgrade)
        #expect(caught != nil)
        #expect(caught?.invariant == "relaunch-allowed-state")
    }
    #endif
}
