import Baton
import BatonSim
import Testing

@Suite("Shrinking keeps only events that do something")
struct ShrinkerTests {
    @Test("every candidate is normalized before it is tried, and the result is normalized")
    func normalizesCandidates() {
        var shrinker = Shrinker<Int>(budget: 500)
        shrinker.normalize = { $0.filter { $0 % 2 == 1 } }
        var tried: [[Int]] = []
        let result = shrinker.shrink(Array(1...40), failingAt: 39) { candidate in
            tried.append(candidate)
            return candidate.contains(7) && candidate.contains(13)
        }
        #expect(result.reproduces)
        #expect(result.schedule == [7, 13])
        #expect(tried.allSatisfy { $0.allSatisfy { $0 % 2 == 1 } })
    }

    @Test("a stop ends the shrink with the smallest failing schedule found so far")
    func stops() {
        var shrinker = Shrinker<Int>(budget: 500)
        var replays = 0
        shrinker.shouldStop = { replays >= 3 }
        let result = shrinker.shrink(Array(1...64), failingAt: 63) { candidate in
            replays += 1
            return candidate.contains(50)
        }
        #expect(result.replays == 3)
        #expect(result.reproduces)
        #expect(result.schedule.contains(50))
        #expect(result.schedule.count < 64)
    }

    @Test("a stop before the first replay still verifies the failure, so a stopped campaign writes its file")
    func stopBeforeFirstReplay() {
        var shrinker = Shrinker<Int>(budget: 500)
        shrinker.shouldStop = { true }
        let result = shrinker.shrink(Array(1...10), failingAt: 9) { $0.contains(4) }
        #expect(result.reproduces)
        #expect(result.schedule == Array(1...10))
        #expect(result.replays == 1)
    }

    @Test("a failure that does not come back is reported, not written")
    func doesNotReproduce() {
        let result = Shrinker<Int>(budget: 50).shrink([1, 2, 3], failingAt: 1) { _ in false }
        #expect(!result.reproduces)
        #expect(result.schedule == [1, 2, 3])
    }

    #if BATON_MUTANTS
    /// Seeds whose shrink, cut short by its budget, kept a release of a token it no longer
    /// retains or a fail of a layer it no longer holds, before the shrinker dropped such events.
    @MainActor
    @Test("a shrink cut short by its budget still writes a file that reads back", arguments: [
        (Mutant.sweptKeepsHydrated, 16),
        (Mutant.deletedDroppedFromList, 2),
    ])
    func budgetCutShort(mutant: Mutant, budget: Int) throws {
        let options = Simulation.Options(events: 200, mutant: mutant)
        // The mutant's first failing seed (the generator decides which one it is).
        let found = (UInt64(0)..<40).lazy.map { Simulation.run(seed: $0, options: options) }.first { $0.failure != nil }
        let outcome = try #require(found)
        let seed = try #require(outcome.seed)
        let failure = try #require(outcome.failure)
        let shrunk = Campaign.shrink(outcome, options: options, budget: budget)
        #expect(shrunk.reproduces)
        #expect(ScheduleCheck.problems(shrunk.events).isEmpty, "\(ScheduleCheck.problems(shrunk.events).first.map(String.init(describing:)) ?? "")")
        let file = ReplayFile(
            seed: seed, mutant: mutant, invariant: failure.invariant, disk: Simulation.swarm(for: seed, world: .standard).disk,
            events: shrunk.events)
        let read = try ReplayFile.parse(file.render())
        #expect(read.disk == file.disk)
        #expect(Simulation.replay(read.events, seed: seed, disk: read.disk, options: options).failure?.invariant == failure.invariant)
    }
    #endif
}
