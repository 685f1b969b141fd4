import Baton
import BatonSim

/// `baton sim replay FILE`: a replay file, checked against every invariant and its expectations.
@MainActor
enum SimReplayCommand {
    static func run(_ words: [String]) throws -> Int32 {
        var arguments = try Arguments(words, flagNames: WorldOption.flagNames.union(["trace", "keep-going"]))
        let trace = arguments.flag("trace")
        let keepGoing = arguments.flag("keep-going")
        let mutantOption = try SimCommand.mutant(&arguments)
        let requests = try TimelineRequests(&arguments)
        guard let path = arguments.takePositional() else { throw CLIError.usage("baton sim replay needs a replay FILE") }
        let given = try WorldOption.parse(&arguments)
        try arguments.finish()
        let file: ReplayFile
        do {
            file = try ReplayFile.parse(try readSource(path), world: given.words.isEmpty ? nil : given.world)
        } catch let error as ReplayError {
            throw CLIError.input("\(path): \(error.message)")
        }
        if let mutant = file.mutant {
            guard Mutants.available else {
                throw CLIError.input("\(path) names mutant \(mutant.rawValue): mutants are compiled into debug builds only")
            }
        }
        let world: World
        do {
            world = try ReplayFile.resolveWorld(named: file.world, given: given.words.isEmpty ? nil : given.world)
        } catch {
            throw CLIError.input("\(path): \(error.message)")
        }
        let mutant = mutantOption ?? file.mutant
        var options = Simulation.Options(events: file.events.count, mutant: mutant, echo: trace, recordsTimeline: requests.wanted, world: world)
        options.keepGoing = keepGoing
        options.writerBound = file.writerBound
        options.store = file.store
        var outcome = Simulation.replay(file.events, seed: file.seed, disk: file.disk ?? DiskModel(), options: options)
        outcome.timeline?.title = path + (mutant.map { " under mutant \($0.rawValue)" } ?? "")
        print("replayed \(outcome.eventsRun) events, \(outcome.statesChecked) states checked, trace \(outcome.traceHash)")
        guard let failure = outcome.failure else {
            print("passed")
            try requests.show(outcome)
            return 0
        }
        // Under --keep-going: every expectation that failed, then the invariant that stopped the
        // run, if one did.
        var failures = outcome.expectationFailures
        if !failures.contains(failure) { failures.append(failure) }
        if failures.count > 1 { print("\(failures.count) failures:") }
        for shown in failures {
            print("FAILED: " + FailureReport.lines(shown).joined(separator: "\n"))
            if failures.count > 1, let event = shown.event { print("  at " + event) }
        }
        if !trace {
            print("events up to the failing one:")
            for line in FailureReport.eventsAround(failures.last!, trace: outcome.trace) { print("  " + line) }
        }
        try requests.show(outcome)
        return 1
    }
}
