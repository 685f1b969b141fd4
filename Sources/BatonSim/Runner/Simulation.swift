import Baton
import CSQLite

/// One simulated run: the real store, image and writer over a simulated disk, driven event by
/// event and checked after every event against the reference model.
@MainActor
package final class Simulation {
    /// How a run is made.
    package struct Options: Sendable {
        /// How many events a generated run draws.
        package var events: Int
        package var mutant: Mutant?
        /// Print each trace line as it happens.
        package var echo: Bool
        /// Record a ``Timeline`` of the run (costly: replays and single runs only).
        package var recordsTimeline: Bool

        package init(events: Int = 200, mutant: Mutant? = nil, echo: Bool = false, recordsTimeline: Bool = false) {
            self.events = events
            self.mutant = mutant
            self.echo = echo
            self.recordsTimeline = recordsTimeline
        }
    }

    /// One launch of the simulated app.
    struct Process {
        let store: Store
        let image: Image
        let recorder: RecordingImage
        /// Retained operations by the schedule's token number: the store's token and what it retains.
        var tokens: [Int: (token: RetainToken, operation: String, variables: [String: JSONValue])] = [:]
        var layers: [Int: OptimisticLayerID] = [:]
    }

    static let imagePath = "app.image"
    static let appVersion = "sim-1"

    let options: Options
    let seed: UInt64?
    let disk: SimulatedDisk
    let clock = SimClock()
    let plans = SimPlans.shared
    var model = ReferenceModel()
    var process: Process?
    /// How the last process ended (`nil` before the first launch).
    var lastEnd: CrashKind?
    var launched = false
    var schedule: [ScheduledEvent] = []
    var trace: [String] = []
    var hasher = TraceHasher()
    var crashes = CrashCounts()
    var statesChecked = 0
    var lastCheck: Availability?
    /// A read fault armed by a `fault` event for the next check's reads (its result code).
    var readFaultForNextCheck: Int32?
    /// Watches the observable records of the running process.
    var observers = ObserverAudit()
    /// The run's timeline, when the options ask for one.
    var timeline: Timeline?
    /// Each record's state after the last recorded event.
    var lastKeyStates: [String: Timeline.KeyState] = [:]

    init(seed: UInt64?, diskSeed: UInt64, options: Options) {
        self.seed = seed
        self.options = options
        disk = SimulatedDisk(seed: diskSeed)
        disk.setTime(milliseconds: Int64(clock.now() * 1000))
        if options.recordsTimeline { timeline = Timeline(title: seed.map { "seed \($0)" } ?? "replay") }
    }

    // MARK: - Entry points

    /// Runs the seed's generated schedule.
    package static func run(seed: UInt64, options: Options) -> SimOutcome {
        let random = SimRandom(seed: seed)
        var swarmRandom = random.split("swarm")
        let configuration = SwarmConfiguration(random: &swarmRandom)
        var generator = EventGenerator(configuration: configuration, random: random)
        let simulation = Simulation(seed: seed, diskSeed: diskSeed(for: seed), options: options)
        simulation.note("seed \(seed) swarm \(configuration)")
        var failure: InvariantViolation?
        do {
            try simulation.launch(index: -1)
            for index in 0..<options.events {
                let event = generator.next(simulation.generationContext())
                simulation.schedule.append(ScheduledEvent(event))
                try simulation.execute(ScheduledEvent(event), index: index)
            }
        } catch let violation as InvariantViolation {
            failure = violation
        } catch {
            failure = InvariantViolation(invariant: "unexpected-error", detail: "\(error)", eventIndex: simulation.schedule.count - 1)
        }
        return simulation.finish(failure)
    }

    /// The seed of a run's disk (SQLite's randomness), derived from the run's seed.
    package static func diskSeed(for seed: UInt64) -> UInt64 {
        var random = SimRandom(seed: seed).split("disk")
        return random.next()
    }

    /// Runs a recorded or hand-written schedule (with the disk of `seed`'s run, when given).
    package static func replay(_ events: [ScheduledEvent], seed: UInt64? = nil, options: Options) -> SimOutcome {
        let simulation = Simulation(seed: seed, diskSeed: seed.map(diskSeed(for:)) ?? 0, options: options)
        simulation.note("replay of \(events.count) events")
        var failure: InvariantViolation?
        do {
            try simulation.launch(index: -1)
            for (index, scheduled) in events.enumerated() {
                simulation.schedule.append(scheduled)
                try simulation.execute(scheduled, index: index)
            }
        } catch let violation as InvariantViolation {
            failure = violation
        } catch {
            failure = InvariantViolation(invariant: "unexpected-error", detail: "\(error)", eventIndex: simulation.schedule.count - 1)
        }
        return simulation.finish(failure)
    }

    private func finish(_ failure: InvariantViolation?) -> SimOutcome {
        if let failure {
            note("FAILED \(failure)")
            recordTimelineFailure(failure)
        }
        process?.image.abandon()
        process = nil
        hasher.combine("disk \(disk.contentHash)")
        return SimOutcome(
            seed: seed, schedule: schedule, failure: failure, trace: trace, traceHash: hasher.hex,
            crashes: crashes, statesChecked: statesChecked, eventsRun: schedule.count, timeline: timeline)
    }

    func generationContext() -> GenerationContext {
        let model = self.model
        return GenerationContext(
            processUp: process != nil,
            liveLayers: model.layers.map { layer in
                let name = layer.changeSet.operation?.rawValue ?? ""
                return (layer.id, "Rename", Self.variables(fromIdentity: name))
            },
            retainedTokens: (process?.tokens.keys.sorted()) ?? [],
            noteCursors: { c in
                let key = RecordKey("client:Character:\(c + 1):__Notes_notes_connection")
                guard case .link(let info)? = model.logical.records[key]?.cells["pageInfo"]?.value,
                      let pageInfo = model.logical.records[info] else { return nil }
                func text(_ name: String) -> String? {
                    if case .string(let s)? = pageInfo.cells[name]?.value { return s }
                    return nil
                }
                return (text("startCursor"), text("endCursor"))
            })
    }

    /// The variables inside an operation identity `Name{json}`.
    static func variables(fromIdentity identity: String) -> [String: JSONValue] {
        guard let brace = identity.firstIndex(of: "{"),
              case .object(let object)? = try? JSONValue.parse(String(identity[brace...])) else { return [:] }
        return object
    }

    // MARK: - Trace

    func note(_ line: String) {
        trace.append(line)
        hasher.combine(line)
        if options.echo { print(line) }
    }

    func violation(_ invariant: String, _ detail: String, at index: Int) -> InvariantViolation {
        InvariantViolation(invariant: invariant, detail: detail, eventIndex: index)
    }
}
