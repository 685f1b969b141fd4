import Baton
import BatonSim
import Foundation

/// `baton sim mutants [--check]`: the known bugs a campaign must catch.
@MainActor
enum SimMutantsCommand {
    /// Lists the mutants; with `--check`, runs seeds for each until one fails and reports how
    /// many seeds that took, which invariant broke and how short the shrunk schedule is. A mutant
    /// whose bug the world cannot show (a feature its operations never use) is reported as not
    /// applicable, and is no survivor; neither is one too rare for the seeds that a scenario of
    /// the repository guarding it catches (reported with that scenario).
    static func run(_ words: [String]) throws -> Int32 {
        var arguments = try Arguments(words, flagNames: WorldOption.flagNames.union(["check"]))
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
                // Too rare for the seeds: a scenario of the repository that guards it may catch it.
                if let (scenario, invariant) = caughtByScenario(mutant, world: world.world) {
                    print("\(mutant.rawValue)\tnone\t\(ran)\t\(invariant) (scenario \(scenario))\t-\t-")
                    continue
                }
                survivors += 1
                print("\(mutant.rawValue)\tnone\t\(ran)\tSURVIVED\t-\t-")
                continue
            }
            let shrunk = Campaign.shrink(found, options: options, budget: 400)
            print("\(mutant.rawValue)\t\(found.seed ?? 0)\t\(ran)\t\(failure.invariant)\t\(failure.eventIndex + 1)\t\(shrunk.events.count)")
        }
        return survivors == 0 ? 0 : 1
    }

    /// The first scenario in the repository's `Fixtures/scenarios` that guards `mutant` in
    /// `world` and fails under it, with the invariant it broke.
    static func caughtByScenario(_ mutant: Mutant, world: World) -> (file: String, invariant: String)? {
        guard let repository = CampaignSettings.repository() else { return nil }
        let scenarios = RegressionFolder(path: repository == "." ? "Fixtures/scenarios" : repository + "/Fixtures/scenarios")
        for path in (try? scenarios.files()) ?? [] {
            guard let data = FileManager.default.contents(atPath: path),
                  let file = try? ReplayFile.parse(String(decoding: data, as: UTF8.self), world: nil, checked: false),
                  file.guards == mutant, (file.world ?? World.standard.name) == world.name,
                  let violation = RegressionFolder.replay(path, mutant: mutant, world: world)
            else { continue }
            return ((path as NSString).lastPathComponent, violation.invariant)
        }
        return nil
    }
}
