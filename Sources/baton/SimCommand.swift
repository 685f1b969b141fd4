import Baton
import BatonSim

/// `baton sim run | campaign | replay | mutants | sweep`.
@MainActor
enum SimCommand {
    static func run(_ words: [String]) throws -> Int32 {
        guard let verb = words.first else { throw CLIError.usage("baton sim needs a command: run, campaign, replay, mutants or sweep") }
        let rest = Array(words.dropFirst())
        switch verb {
        case "run": return try SimRunCommand.run(rest)
        case "campaign": return try CampaignCommand.run(rest)
        case "replay": return try SimReplayCommand.run(rest)
        case "mutants": return try SimMutantsCommand.run(rest)
        case "sweep": return try SimSweepCommand.run(rest)
        default:
            throw CLIError.usage("unknown sim command \(verb); the commands are run, campaign, replay, mutants and sweep")
        }
    }

    /// `--mutant NAME`, checked: a known mutant, in a build that has mutants.
    nonisolated static func mutant(_ arguments: inout Arguments) throws -> Mutant? {
        guard let name = arguments.option("mutant") else { return nil }
        guard let mutant = Mutant(rawValue: name) else {
            throw CLIError.usage("unknown mutant \(name); `baton sim mutants` lists them")
        }
        try requireMutants(name)
        return mutant
    }

    /// Fails in a build without mutants (release builds).
    nonisolated static func requireMutants(_ name: String) throws {
        guard Mutants.available else {
            throw CLIError.usage("mutant \(name): mutants are compiled into debug builds only (`swift run baton …` without -c release)")
        }
    }

    /// `--events K`, checked: 1 to the simulator's limit; `fallback` when absent.
    nonisolated static func events(_ arguments: inout Arguments, fallback: Int = EnvironmentRun.campaignEvents) throws -> Int {
        try arguments.integer("events", in: 1...SimulationLimits.maxEvents) ?? fallback
    }

    /// Seeds `A..B`, closed.
    nonisolated static func closedSeeds(_ text: String, option: String) throws -> ClosedRange<UInt64> {
        let parts = text.components(separatedBy: "..")
        guard parts.count == 2, let low = UInt64(parts[0]), let high = UInt64(parts[1]), low <= high else {
            throw CLIError.usage("--\(option) takes A..B with A ≤ B, e.g. 0..39, not \(text)")
        }
        return low...high
    }
}
