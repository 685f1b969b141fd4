import Baton
import BatonSim

/// `baton sim replay FILE`: a replay file, checked against every invariant and its expectations.
@MainActor
enum SimReplayCommand {
    static func run(_ words: [String]) throws -> Int32 {
        var arguments = try Arguments(words, flagNames: ["trace"])
        let trace = arguments.flag("trace")
        let html = arguments.option("html")
        guard let path = arguments.takePositional() else { throw CLIError.usage("baton sim replay needs a replay FILE") }
        let given = try WorldOption.parse(&arguments)
        try arguments.finish()
        let file: ReplayFile
        do {
            file = try ReplayFile.parse(try readText(path), world: given.words.isEmpty ? nil : given.world)
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
        let options = Simulation.Options(events: file.events.count, mutant: file.mutant, echo: trace, recordsTimeline: html != nil, world: world)
        let outcome = Simulation.replay(file.events, seed: file.seed, options: options)
        print("replayed \(outcome.eventsRun) events, \(outcome.statesChecked) states checked, trace \(outcome.traceHash)")
        if let html, let timeline = outcome.timeline {
            do {
                try TimelinePage.render(timeline).write(toFile: html, atomically: true, encoding: .utf8)
            } catch {
                throw CLIError.failed("cannot write the timeline to \(html): \(error.localizedDescription)")
            }
            print("timeline: \(html)")
        }
        guard let failure = outcome.failure else {
            print("passed")
            return 0
        }
        print("FAILED: \(failure)")
        if !trace {
            for line in outcome.trace.filter({ $0.hasPrefix("#") }).suffix(6) { print("  " + line) }
        }
        return 1
    }
}
