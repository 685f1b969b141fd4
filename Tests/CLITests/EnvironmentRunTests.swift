import Baton
import BatonSim
import Testing
@testable import baton

/// `BATON_SEED=N swift test --filter SimulationProperties` runs what a campaign runs for seed N.
@Suite("BATON_SEED runs the seed as a campaign does")
struct EnvironmentRunTests {
    @Test("a seed alone: the campaign's 200 events, no mutant")
    func seed() throws {
        let run = try #require(try EnvironmentRun.from(["BATON_SEED": "42"]))
        #expect(run == EnvironmentRun(seed: 42, mutant: nil, events: 200))
        #expect(run.reproduceCommand == "swift run baton sim run --seed 42 --events 200")
        #expect(run.testCommand == "BATON_SEED=42 swift test --filter SimulationProperties")
    }

    @Test("nothing set: nothing to run")
    func unset() throws {
        #expect(try EnvironmentRun.from([:]) == nil)
        #expect(try EnvironmentRun.from(["PATH": "/bin"]) == nil)
    }

    @Test("values that do not read are errors, never a silent run of every seed", arguments: [
        (["BATON_SEED": "abc"], "BATON_SEED=abc is not a seed"),
        (["BATON_SEED": "-1"], "BATON_SEED=-1 is not a seed"),
        (["BATON_SEED": ""], "BATON_SEED= is not a seed"),
        (["BATON_SEED": "1", "BATON_MUTANT": "noSuchBug"], "BATON_MUTANT=noSuchBug is not a mutant"),
        (["BATON_SEED": "1", "BATON_EVENTS": "0"], "BATON_EVENTS=0"),
        (["BATON_MUTANT": "evictNever"], "BATON_MUTANT is set but BATON_SEED is not"),
    ])
    func refused(_ environment: [String: String], _ says: String) {
        #expect {
            _ = try EnvironmentRun.from(environment)
        } throws: { error in
            "\(error)".contains(says)
        }
    }

    #if BATON_MUTANTS
    @Test("the mutant is honoured and named in the commands that reproduce the run")
    func mutant() throws {
        let run = try #require(try EnvironmentRun.from(["BATON_SEED": "0", "BATON_MUTANT": "partialSnapshotReplaces"]))
        #expect(run.mutant == .partialSnapshotReplaces)
        #expect(run.reproduceCommand == "swift run baton sim run --seed 0 --events 200 --mutant partialSnapshotReplaces")
        #expect(run.testCommand == "BATON_MUTANT=partialSnapshotReplaces BATON_SEED=0 swift test --filter SimulationProperties")
    }

    @MainActor
    @Test("the environment's run is the campaign's run of that seed: same events, same mutant, same trace")
    func sameAsCampaign() throws {
        let run = try #require(try EnvironmentRun.from(["BATON_SEED": "3", "BATON_MUTANT": "evictNever"]))
        let settings = try CampaignSettings.parse(["--seeds", "3..3", "--mutant", "evictNever"], randomSeed: { 0 }, repository: nil)
        #expect(settings.events == run.events)
        #expect(settings.mutant == run.mutant)
        let alone = Simulation.run(seed: 3, options: run.options)
        let inCampaign = Simulation.run(seed: 3, options: Simulation.Options(events: settings.events, mutant: settings.mutant))
        #expect(alone.traceHash == inCampaign.traceHash)
    }
    #endif
}
