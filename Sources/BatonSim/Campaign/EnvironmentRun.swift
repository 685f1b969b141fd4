import Baton

/// One seed named by the environment (`BATON_SEED`, with `BATON_MUTANT` and `BATON_EVENTS`), run
/// by the property tests exactly as a campaign runs it.
package struct EnvironmentRun: Hashable, Sendable {
    /// Events per seed in a campaign (`--events`' default), and so in an environment run.
    package static let campaignEvents = 200

    package var seed: UInt64
    package var mutant: Mutant?
    package var events: Int

    package init(seed: UInt64, mutant: Mutant?, events: Int) {
        self.seed = seed
        self.mutant = mutant
        self.events = events
    }

    /// The run's options: the campaign's.
    package var options: Simulation.Options {
        Simulation.Options(events: events, mutant: mutant)
    }

    /// The command that reruns it outside the tests.
    package var reproduceCommand: String {
        "swift run baton sim run --seed \(seed) --events \(events)" + (mutant.map { " --mutant \($0.rawValue)" } ?? "")
    }

    /// How to run it again in the tests.
    package var testCommand: String {
        (mutant.map { "BATON_MUTANT=\($0.rawValue) " } ?? "") + (events == Self.campaignEvents ? "" : "BATON_EVENTS=\(events) ")
            + "BATON_SEED=\(seed) swift test --filter SimulationProperties"
    }

    /// The run `environment` names; nil when `BATON_SEED` is not set. A value that is not what it
    /// should be is an error that says so, never a silent run of something else.
    package static func from(_ environment: [String: String]) throws(EnvironmentError) -> EnvironmentRun? {
        guard let text = environment["BATON_SEED"] else {
            for name in ["BATON_MUTANT", "BATON_EVENTS"] where environment[name] != nil {
                throw EnvironmentError("\(name) is set but BATON_SEED is not: set BATON_SEED=N to run one seed")
            }
            return nil
        }
        guard let seed = UInt64(text.trimmingWhitespace) else {
            throw EnvironmentError("BATON_SEED=\(text) is not a seed: it takes a whole number from 0 to \(UInt64.max), e.g. BATON_SEED=42")
        }
        var run = EnvironmentRun(seed: seed, mutant: nil, events: campaignEvents)
        if let name = environment["BATON_MUTANT"], !name.isEmpty {
            guard let mutant = Mutant(rawValue: name) else {
                let names = Mutant.allCases.map(\.rawValue).joined(separator: ", ")
                throw EnvironmentError("BATON_MUTANT=\(name) is not a mutant; the mutants are \(names)")
            }
            guard Mutants.available else {
                throw EnvironmentError("BATON_MUTANT=\(name): mutants are compiled into debug builds only (swift test without -c release)")
            }
            run.mutant = mutant
        }
        if let text = environment["BATON_EVENTS"] {
            guard let events = Int(text.trimmingWhitespace), (1...SimulationLimits.maxEvents).contains(events) else {
                throw EnvironmentError("BATON_EVENTS=\(text): it takes a whole number from 1 to \(SimulationLimits.maxEvents)")
            }
            run.events = events
        }
        return run
    }
}

/// An environment variable that does not say what it should.
package struct EnvironmentError: Error, CustomStringConvertible {
    package let message: String
    init(_ message: String) { self.message = message }
    package var description: String { message }
}

private extension String {
    var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
