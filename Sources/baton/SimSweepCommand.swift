import Baton
import BatonSim

/// `baton sim sweep --seed N [--events E] [--world W] [--mode fail|crash]`: one seed's schedule,
/// run again with each of the disk's writes, syncs and truncations failing in turn (and in
/// `crash` mode the process dying right after); a line per failure with its replay file, and a
/// total.
@MainActor
enum SimSweepCommand {
    static func run(_ words: [String]) throws -> Int32 {
        var arguments = try Arguments(words, flagNames: WorldOption.flagNames)
        let seedText = try arguments.required("seed")
        guard let seed = UInt64(seedText) else {
            throw CLIError.usage("--seed takes a whole number from 0 to \(UInt64.max), not \(seedText)")
        }
        let events = try SimCommand.events(&arguments, fallback: 60)
        let modeText = arguments.option("mode") ?? "fail"
        guard let mode = Sweep.Mode(rawValue: modeText) else {
            throw CLIError.usage("--mode takes fail or crash, not \(modeText)")
        }
        let replayDirectory = arguments.option("replays") ?? "replays"
        let mutant = try SimCommand.mutant(&arguments)
        let world = try WorldOption.parse(&arguments)
        try arguments.finish()
        if let problem = FileWriting.problem(writing: replayDirectory, isDirectory: true) {
            throw CLIError.usage("--replays: \(problem)")
        }
        let options = Simulation.Options(events: events, mutant: mutant, world: world.world)
        let worldName = options.world.name == World.defaultName ? nil : options.world.name
        let result = Sweep.run(seed: seed, mode: mode, options: options) { run, point, failure in
            guard let failure else { return }
            print("FAILED run \(run), \(point): \(failure.invariant) at event \(failure.eventIndex): \(failure.headline ?? failure.detail)")
        }
        let counted = result.operations.map { "\($0.count) \($0.kind)s" }.joined(separator: ", ")
        if let failure = result.baselineFailure {
            print("seed \(seed) fails before any fault (\(failure.invariant)); run `baton sim run --seed \(seed) --events \(events)` first")
            return 1
        }
        for (number, failure) in result.failures.enumerated() {
            let file = ReplayFile(
                seed: seed, mutant: mutant, invariant: failure.failure.invariant, detail: failure.failure.detail, world: worldName,
                writerBound: result.writerBound, store: result.store, events: failure.events)
            let name = "sweep-seed-\(seed)-\(mode.rawValue)-" + (mutant.map { $0.rawValue + "-" } ?? "") + "\(failure.point.kind)-\(failure.point.nth)"
                + (failure.point.crash.map { "-" + $0 } ?? "") + ".json"
            do {
                let path = try file.write(into: replayDirectory, name: name)
                print("failure \(number + 1): \(failure.point) → \(failure.failure.invariant); replay: " + CampaignReport.replayCommand(path: path, world: world.words))
            } catch {
                print("failure \(number + 1): \(failure.point) → \(failure.failure.invariant); no replay file: \(error)")
            }
        }
        print("sweep of seed \(seed) (\(events) events, world \(options.world.name), mode \(mode.rawValue)): \(counted) after the first launch; \(result.runs) runs (the fault fired in \(result.fired))" + (result.insideCrashPoints > 0 ? ", \(result.insideCrashPoints) points inside a crash point left out" : "") + ", \(result.failures.count) failures")
        return result.failures.isEmpty ? 0 : 1
    }
}
