import Baton
import BatonSim

/// `baton sim mutants [--check]`: the known bugs a campaign must catch.
@MainActor
enum SimMutantsCommand {
    /// Lists the mutants; with `--check`, runs seeds for each until one fails and reports how
    /// many seeds that took, which invariant broke and how short the shrunk schedule is. A mutant
    /// whose bug the world cannot show (a feature its operations never use) is reported as not
    /// applicable, and is no survivor.
    static func run(_ words: [String]) throws -> Int32 {
        var arguments = try Arguments(words, flagNames: ["check"])
        let check = arguments.flag("check")
        let seeds = try SimCommand.closedSeeds(arguments.option("seeds") ?? "0..199", option: "seeds")
        let events = try SimCommand.events(&arguments)
        let world = try WorldOption.parse(&arguments)
        let only = try arguments.option("mutant").map { name in
            guard let mutant = Mutant(rawValue: name) else { throw CLIError.usage("unknown mutant \(name); `baton sim mutants` lists them") }
            return mutant
        }
        try arguments.finish()
        guard check else {
            for mutant in Mutant.allCases {
                print("\(mutant.rawValue)\t\(mutant.summary)")
            }
            if !Mutants.available {
                print("(this is a release build: mutants are compiled into debug builds only; use `swift run baton sim …` without -c release)")
            }
            return 0
        }
        try SimCommand.requireMutants("--check")
        var survivors = 0
        print("mutant\tfirst failing seed\tseeds run\tinvariant\tevents\tshrunk to\t(world \(world.world.name))")
        for mutant in Mutant.allCases where only == nil || only == mutant {
            if let reason = world.world.cannotShow(mutant) {
                print("\(mutant.rawValue)\tn/a\t0\tnot applicable: \(reason)\t-\t-")
                continue
            }
            let options = Simulation.Options(events: events, mutant: mutant, world: world.world)
            var found: SimOutcome?
            var ran = 0
            for seed in seeds {
                ran += 1
                let outcome = Simulation.run(seed: seed, options: options)
                if outcome.failure != nil {
                    found = outcome
                    break
                }
            }
            guard let found, let failure = found.failure else {
                survivors += 1
                print("\(mutant.rawValue)\tnone\t\(ran)\tSURVIVED\t-\t-")
                continue
            }
            let shrunk = Campaign.shrink(found, options: options, budget: 400)
            print("\(mutant.rawValue)\t\(found.seed ?? 0)\t\(ran)\t\(failure.invariant)\t\(failure.eventIndex + 1)\t\(shrunk.events.count)")
        }
        return survivors == 0 ? 0 : 1
    }
}
