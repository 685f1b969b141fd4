import Baton

/// Runs BatonSim from a user's own tests: one seed, a range of seeds, or a replay file, in a
/// world of the user's app.
///
/// Everything runs on the main actor (the store's records are main-actor state), in this
/// process, deterministically: the same seed gives the same run anywhere.
@MainActor
public enum Simulator {
    /// Runs one seed: a generated schedule of `events` events (responses, mutations, pages,
    /// checks, collections, drains, kills, power losses, relaunches, disk faults) over the world,
    /// every event checked against the model. A failure is shrunk to a short replay file.
    public static func run(seed: UInt64, in world: SimulationWorld = .rickAndMorty, events: Int = 200) -> SimulationResult {
        let options = Simulation.Options(events: events, world: world.world)
        return SimulationResult(Simulation.run(seed: seed, options: options), options: options)
    }

    /// Runs every seed of `seeds` and returns their results, failing ones shrunk.
    public static func campaign(
        seeds: ClosedRange<UInt64>, in world: SimulationWorld = .rickAndMorty, events: Int = 200
    ) -> [SimulationResult] {
        seeds.map { run(seed: $0, in: world, events: events) }
    }

    /// Replays a replay file (one a failure wrote, or a scenario written by hand), checking every
    /// invariant and the file's expectations. A file that names another world needs it given.
    ///
    /// - Throws: ``SimulationReplayError`` when the file does not read.
    public static func replay(_ text: String, in world: SimulationWorld? = nil) throws(SimulationReplayError) -> SimulationResult {
        let file: ReplayFile
        let resolved: World
        do {
            file = try ReplayFile.parse(text, world: world?.world)
            resolved = try ReplayFile.resolveWorld(named: file.world, given: world?.world)
        } catch {
            throw SimulationReplayError(description: error.message)
        }
        var options = Simulation.Options(events: file.events.count, mutant: file.mutant, world: resolved)
        options.writerBound = file.writerBound
        options.store = file.store
        return SimulationResult(
            Simulation.replay(file.events, seed: file.seed, disk: file.disk ?? DiskModel(), options: options), options: options, shrinks: false)
    }
}

/// What one run did, and how it failed if it did.
public struct SimulationResult: Sendable {
    /// The seed of a generated run (`nil` for a replay).
    public let seed: UInt64?
    /// The events the run got through.
    public let events: Int
    /// The invariant it broke, if any.
    public let failure: SimulationFailure?
    /// One line per event (and a first line with the seed's swarm).
    public let trace: [String]
    /// A hash of the trace and the final disk: the same in every process for the same run.
    public let traceHash: String
    /// The paths the store's rules took (merges, hydrations, evictions, connection pages, …).
    public let coverage: [String: Int]

    @MainActor
    init(_ outcome: SimOutcome, options: Simulation.Options, shrinks: Bool = true) {
        seed = outcome.seed
        events = outcome.eventsRun
        trace = outcome.trace
        traceHash = outcome.traceHash
        var coverage: [String: Int] = [:]
        for (name, value) in outcome.coverage.counters { coverage[name] = value }
        self.coverage = coverage
        guard let violation = outcome.failure else {
            failure = nil
            return
        }
        var events = outcome.schedule
        if shrinks, outcome.seed != nil {
            let shrunk = Campaign.shrink(outcome, options: options, budget: 300)
            if shrunk.reproduces { events = shrunk.events }
        }
        let world = options.world.name == World.defaultName ? nil : options.world.name
        let file = ReplayFile(
            seed: outcome.seed, mutant: options.mutant, invariant: violation.invariant, detail: violation.detail,
            world: world, disk: outcome.seed.map { Simulation.swarm(for: $0, world: options.world).disk }, writerBound: outcome.writerBound, store: outcome.store, events: events)
        failure = SimulationFailure(
            invariant: violation.invariant, eventIndex: violation.eventIndex, detail: violation.detail, replayFile: file.render())
    }
}

extension SimulationResult {
    /// A scenario that did not run: `problem` is a step that would do nothing.
    init(refusing problem: ScheduleCheck.Problem, replayFile: String) {
        seed = nil
        events = 0
        trace = []
        traceHash = ""
        coverage = [:]
        failure = SimulationFailure(
            invariant: "scenario-steps", eventIndex: problem.index, detail: problem.message + "; the scenario did not run", replayFile: replayFile)
    }
}

/// A broken invariant: which, after which event, what was seen, and a replay file that
/// reproduces it (shrunk for a generated run).
public struct SimulationFailure: Error, Sendable, CustomStringConvertible {
    /// The invariant's name (`image-equals-model`, `memory-agrees-with-model`, …; see the guide).
    public let invariant: String
    /// The event after which it broke.
    public let eventIndex: Int
    /// What was seen, cell by cell where it can say.
    public let detail: String
    /// A replay file for `Simulator.replay` or `baton sim replay`.
    public let replayFile: String

    public var description: String { "\(invariant) after event #\(eventIndex): \(detail)" }
}

/// A replay file that does not read, with what is wrong.
public struct SimulationReplayError: Error, Sendable, CustomStringConvertible {
    /// What is wrong with the file, naming the event where it can.
    public let description: String
}
