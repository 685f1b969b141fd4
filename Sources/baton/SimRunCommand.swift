import Baton
import BatonSim

/// `baton sim run --seed N`: one seed, and on a failure its shrunk replay file.
@MainActor
enum SimRunCommand {
    static func run(_ words: [String]) throws -> Int32 {
        var arguments = try Arguments(words, flagNames: WorldOption.flagNames.union(["trace"]))
        let seedText = try arguments.required("seed")
        guard let seed = UInt64(seedText) else {
            throw CLIError.usage("--seed takes a whole number from 0 to \(UInt64.max), not \(seedText)")
        }
        let events = try SimCommand.events(&arguments)
        let trace = arguments.flag("trace")
        let mutant = try SimCommand.mutant(&arguments)
        let replayDirectory = arguments.option("replays") ?? "replays"
        let requests = try TimelineRequests(&arguments)
        let world = try WorldOption.parse(&arguments)
        try arguments.finish()
        if let problem = FileWriting.problem(writing: replayDirectory, isDirectory: true) {
            throw CLIError.usage("--replays: \(problem)")
        }
        let options = Simulation.Options(events: events, mutant: mutant, echo: trace, recordsTimeline: requests.wanted, world: world.world)
        var outcome = Simulation.run(seed: seed, options: options)
        if let mutant { outcome.timeline?.title += ", mutant \(mutant.rawValue)" }
        print("seed \(seed): \(outcome.eventsRun) events, \(outcome.statesChecked) states checked, crashes \(outcome.crashes.total), trace \(outcome.traceHash)")
        guard let failure = outcome.failure else {
            print("passed")
            try requests.show(outcome)
            return 0
        }
        print("FAILED: " + FailureReport.lines(failure).joined(separator: "\n"))
        print("swarm: \(Campaign.swarm(for: seed, world: options.world))")
        print("events up to the failing one:")
        for line in FailureReport.eventsAround(failure, trace: outcome.trace) { print("  " + line) }
        try requests.show(outcome)
        shrink(failure, outcome: outcome, options: options, worldWords: world.words, replayDirectory: replayDirectory)
        return 1
    }

    /// Shrinks the failing schedule and writes its replay file, with its timeline beside it.
    private static func shrink(_ failure: InvariantViolation, outcome: SimOutcome, options: Simulation.Options, worldWords: [String], replayDirectory: String) {
        let seed = outcome.seed ?? 0
        print("shrinking…")
        let shrunk = Campaign.shrink(outcome, options: options, budget: 400)
        let rerun = CampaignReport.reproduceCommand(seed: seed, events: options.events, mutant: options.mutant, world: worldWords)
        guard shrunk.reproduces else {
            printError("baton: " + Campaign.unreproduced(failure))
            // No replay file to draw from: the page shows the whole run from the seed instead.
            do {
                let page = try TimelineFile.write(
                    running: seed, options: options, into: replayDirectory,
                    besideReplay: ReplayFile.fileName(seed: seed, mutant: options.mutant))
                print("timeline:    \(page) (the whole run)")
            } catch {
                printError("baton: no timeline: \(error)")
            }
            print("rerun:       " + rerun)
            return
        }
        print("shrunk \(outcome.schedule.count) events to \(shrunk.events.count) in \(shrunk.replays) replays")
        let file = ReplayFile(
            seed: seed, mutant: options.mutant, invariant: failure.invariant, detail: failure.detail,
            world: options.world.name == World.defaultName ? nil : options.world.name,
            disk: Simulation.swarm(for: seed, world: options.world).disk, writerBound: outcome.writerBound, store: outcome.store, events: shrunk.events)
        do {
            let path = try file.write(into: replayDirectory, name: ReplayFile.fileName(seed: seed, mutant: options.mutant))
            print("replay file: \(path)")
            let page = TimelineFile.path(besideReplay: path)
            do {
                var timelineOptions = options
                timelineOptions.writerBound = outcome.writerBound
                timelineOptions.store = outcome.store
                try TimelineFile.write(replaying: shrunk.events, seed: seed, options: timelineOptions, to: page)
                print("timeline:    \(page)")
            } catch {
                printError("baton: no timeline: \(error)")
            }
            print("reproduce:   " + CampaignReport.replayCommand(path: path, world: worldWords))
        } catch {
            printError("baton: no replay file: \(error)")
        }
        print("or rerun:    " + rerun)
    }
}
