import Baton
import CSQLite

/// One simulated run: the real store, image and writer over a simulated disk, driven event by
/// event in one world, and checked after every event against the reference model (the oracle),
/// which learns only what the server sent and keeps its own keys, rules and row reader.
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
        /// The world the run happens in.
        package var world: World
        /// Check every expectation of a replay: a failed one is kept and the run goes on
        /// (``SimOutcome/expectationFailures``); only an invariant stops it.
        package var keepGoing = false
        /// The writer's bound on queued items; `nil`: production's (a generated run takes its
        /// swarm's, and a replay file's header may name one).
        package var writerBound: Int?
        /// The store's release buffer and compaction slack; `nil`: production's (a generated run
        /// takes its swarm's, and a replay file's header may name them).
        package var store: StoreSettings?
        /// Count the disk's operations before each event (``SimOutcome/operations``).
        package var countsOperations = false
        /// Add up the CPU time spent inside the store and its image (``SimOutcome/storeCPUSeconds``).
        package var timesStoreWork = false

        package init(events: Int = 200, mutant: Mutant? = nil, echo: Bool = false, recordsTimeline: Bool = false, world: World = .standard) {
            self.events = events
            self.mutant = mutant
            self.echo = echo
            self.recordsTimeline = recordsTimeline
            self.world = world
        }
    }

    /// One launch of the simulated app.
    struct Process {
        let store: Store
        /// Production's image that opens off the main actor, which the store writes to: it
        /// buffers commits until the simulator hands it the image it opened.
        let opening: OpeningImage
        let recorder: RecordingImage
        /// The open production's `OpeningImage` is waiting for, held until the simulator runs it.
        let heldOpen: HeldOpen
        /// The image, once open; `nil` while it opens in the background
        /// (``SimEvent/relaunchOpeningLater``).
        var openedImage: Image?
        /// True while the background open waits for an event that needs the image.
        var opensLater: Bool { heldOpen.isHeld }
        /// True when the open ran and failed (a full disk): the store runs without an image.
        var imageless: Bool { openedImage == nil && !heldOpen.isHeld }
        /// The open image; only events that ``SimEvent/runsBeforeTheOpen`` run without it, and
        /// ``Simulation/execute(_:index:execution:)`` finishes the open before any other.
        var image: Image {
            guard let openedImage else { preconditionFailure("the image is used before its background open finished") }
            return openedImage
        }
        /// Retained operations by the schedule's token number.
        var tokens: [Int: RetainToken] = [:]
        /// Live optimistic layers by the schedule's layer number.
        var layers: [Int: OptimisticLayerID] = [:]
        /// True once the store was erased while its image opened: the image the open hands
        /// over is erased again, which writes the erase's mark once more.
        var erasedWhileOpening = false
    }

    nonisolated static let imagePath = "app.image"

    /// The app version running, counted from 1: each upgrade launches the next.
    var appVersionNumber = 1
    /// The version string the running app opens the image with.
    var appVersion: String { Oracle.appVersion(appVersionNumber) }

    let options: Options
    let world: World
    let plans: WorldPlans
    let seed: UInt64?
    let disk: SimulatedDisk
    let clock = SimClock()
    var oracle: Oracle
    /// Field errors the read-backs of available checks gave (for the coverage).
    var errorsReadBack = 0
    /// Format upgrades that made the image the previous format (for the coverage).
    var formatUpgrades = 0
    /// Quits a crash struck inside (for the coverage).
    var quitCrashes = 0
    /// Checkpoints drains ran inside a process, and those behind a copy of the WAL (for the coverage).
    var processCheckpoints = 0
    /// Commits buffered while an image opened in the background, and processes that died before
    /// their background open (``Coverage``).
    var commitsBufferedBeforeTheOpen = 0
    var deathsBeforeTheOpen = 0
    /// Processes whose background open failed on a full disk, so their store ran without an image.
    var imagelessProcesses = 0
    var opensRetried = 0
    var lockedLaunches = 0
    /// Erases, and the drains that committed one and were searched for its texts (``Coverage``).
    var erases = 0
    /// Erases that reached this process's image (its own, or one an open found the mark of):
    /// only while one has, may the writer owe an erase's checkpoint (`writer-owes-only-erases`).
    var erasesInProcess = 0
    var erasesSearched = 0
    var erasesAtOpen = 0
    /// The texts the erases since the last erase's drain must leave no byte of (``checkErasedBytes(after:index:)``).
    var erasedTexts = Set<OracleText>()
    /// True once the drain that committed the erase of ``erasedTexts`` returned: every later drain
    /// of the process that the disk did not fail searches for them, until one has.
    var eraseCommitted = false
    /// The texts of every image the model committed since the erase, joined: a text written again
    /// after the erase and replaced since may stay in an older copy of its page.
    var textsWrittenSinceErase: [UInt8] = []
    var guardedCheckpoints = 0
    var fieldsWithSeveralErrorsReadBack = 0
    var errorsAtNulledElementsReadBack = 0
    var errorsWithExtensionsReadBack = 0
    var errorsWithOtherMembersReadBack = 0
    var partialReadsMissing = 0
    /// Lookups of checks that met a rotted row (found it damaged, so absent).
    var rottedRowsRead = 0
    /// Responses without provenance that the store and the model both refused.
    var refusedResponses = 0
    /// Responses the world recorded from its real server that the schedule delivered.
    var recordedResponses = 0
    /// Rows the last committed drain brought back by writing the damaged name they use.
    var revivedByLastDrain = 0
    /// The record rows checks found lately, oldest first (at most ``recentReadLimit``): the rows
    /// the schedule's screens read, which bit rot prefers so that a later check meets it.
    var recentlyReadRows: [OracleText] = []
    static let recentReadLimit = 48
    var process: Process?
    /// How the last process ended (`nil` before the first launch).
    var lastEnd: ProcessEnd?
    var launched = false
    /// Launches so far in this run (each seeds SQLite's randomness anew).
    var launches = 0
    var schedule: [ScheduledEvent] = []
    var trace: [String] = []
    var hasher = TraceHasher()
    var crashes = CrashCounts()
    var statesChecked = 0
    var lastCheck: Availability?
    /// A read fault armed for the next check that reads the disk far enough.
    var readFault: ArmedReadFault?
    /// Events left in a full disk's stretch (0: the disk has space).
    var fullDiskEventsLeft = 0
    /// The writer's bound on queued items in this run.
    let writerBound: Int
    /// How many pages the WAL holds before the store checkpoints it (the disk model's).
    var checkpointPages = ImageSchema.defaultCheckpointPages
    /// The WAL's log after the last drain that committed while the disk failed nothing, in this
    /// process (``checkWALLength(clean:index:)``).
    var lastDrainLog: WALLog?
    /// The drain held in flight (``SimEvent/drainBegins``), until it finishes.
    var heldDrain: HeldDrainInFlight?
    /// The writer executor of every image the run opens: it drains only when asked, and holds a
    /// drain begun by ``SimEvent/drainBegins`` once it took its work.
    let writerExecutor = SimWriterExecutor()
    /// How each launch's store is configured: collection by the schedule only, the mutant, and
    /// the swarm's release buffer and compaction slack.
    let storeConfiguration: Store.Configuration
    /// Watches the observable records of the running process.
    var observers = ObserverAudit()
    /// The run's timeline, when the options ask for one.
    var timeline: Timeline?
    /// Each record's state after the last recorded event.
    var lastKeyStates: [OracleText: Timeline.KeyState] = [:]
    /// Where the timeline's recording stands between two events.
    var timelineMarks = TimelineMarks()
    /// Slot names as the model spells them, by slot number (the runner compares memory often).
    var slotTexts = SlotTexts()
    /// Store records found equal to the model's, with the model's record then (see
    /// ``checkMemory(_:index:)``): a pair compares equal again without walking its cells.
    /// Image rows the model's reader decoded before (see ``OracleRowMemo``).
    let rowMemo = OracleRowMemo()
    var matchedRecords: [RecordKey: (data: RecordData, model: OracleRecord)] = [:]
    /// The same for what the UI sees while layers are live.
    var matchedVisible: [RecordKey: (data: RecordData, model: OracleRecord)] = [:]
    /// Expectations that failed under `keepGoing`, in order.
    var expectationFailures: [InvariantViolation] = []
    /// The disk's operations before each event, when the options count them.
    var operations: [DiskOperationCount] = []
    /// The CPU time spent inside the store and its image, when the options ask for it.
    var storeWork: StoreWorkClock

    init(seed: UInt64?, diskSeed: UInt64, options: Options, plans: WorldPlans) {
        self.seed = seed
        self.options = options
        self.world = options.world
        self.plans = plans
        storeWork = StoreWorkClock(enabled: options.timesStoreWork)
        oracle = Oracle(world: options.world)
        writerBound = options.writerBound ?? WriterLimits().maxQueuedItems
        oracle.writerBound = writerBound
        storeConfiguration = (options.store ?? StoreSettings()).configuration(mutant: options.mutant)
        oracle.releaseBufferSize = storeConfiguration.releaseBufferSize
        oracle.defaultExpiration = options.store?.defaultExpiration
        disk = SimulatedDisk(seed: diskSeed)
        disk.setTime(milliseconds: Int64(clock.now() * 1000))
        if options.recordsTimeline { timeline = Timeline(title: seed.map { "seed \($0), world \(options.world.name)" } ?? "replay, world \(options.world.name)") }
    }

    // MARK: - Entry points

    /// The swarm the run of `seed` draws first (its event kinds, screens and server).
    package nonisolated static func swarm(for seed: UInt64, world: World) -> Swarm {
        var random = SimRandom(seed: seed).split("swarm")
        return Swarm(world: world, random: &random)
    }

    /// Runs the seed's generated schedule.
    package static func run(seed: UInt64, options given: Options) -> SimOutcome {
        let random = SimRandom(seed: seed)
        let swarm = swarm(for: seed, world: given.world)
        var options = given
        if options.writerBound == nil { options.writerBound = swarm.writerBound }
        if options.store == nil { options.store = swarm.store }
        var generator = EventGenerator(world: options.world, swarm: swarm, random: random)
        guard let simulation = make(seed: seed, diskSeed: diskSeed(for: seed), options: options) else {
            return worldFailure(seed: seed, options: options)
        }
        simulation.adopt(swarm.disk)
        simulation.note("seed \(seed) world \(options.world.name) swarm \(swarm)")
        var failure: InvariantViolation?
        do {
            try simulation.firstLaunch()
            for index in 0..<options.events {
                let generated = generator.next(simulation.generationContext())
                for line in generated.drift { simulation.note("  server: \(line)") }
                if let recorded = generated.recorded {
                    simulation.note("  recorded: the response in \(Legible.text(recorded))")
                    simulation.recordedResponses += 1
                }
                if let garbled = generated.garbled { simulation.note("  network: the response \(Legible.text(garbled))") }
                let scheduled = ScheduledEvent(generated.event)
                simulation.schedule.append(scheduled)
                try simulation.execute(scheduled, index: index, execution: generated.execution)
            }
        } catch let violation as InvariantViolation {
            failure = violation
        } catch {
            failure = InvariantViolation(invariant: "unexpected-error", detail: "\(error)", eventIndex: simulation.schedule.count - 1)
        }
        return simulation.finish(failure)
    }

    /// Sets the run's disk up as `model` says, before anything is opened on it.
    func adopt(_ model: DiskModel) {
        model.apply(to: disk)
        checkpointPages = model.checkpointPages
    }

    /// The seed of a run's disk (SQLite's randomness), derived from the run's seed.
    package nonisolated static func diskSeed(for seed: UInt64) -> UInt64 {
        var random = SimRandom(seed: seed).split("disk")
        return random.next()
    }

    /// Runs a recorded or hand-written schedule on the disk of `seed`'s run when given (its
    /// seed, which drives SQLite's randomness), set up as `disk` says (nil: the careful default
    /// disk, 512-byte sectors and failed syncs that keep their writes). Replaying a generated
    /// run's schedule passes that run's ``Swarm/disk``; a replay file passes its `disk` header.
    package static func replay(_ events: [ScheduledEvent], seed: UInt64? = nil, disk: DiskModel? = nil, options: Options) -> SimOutcome {
        guard let simulation = make(seed: seed, diskSeed: seed.map(diskSeed(for:)) ?? 0, options: options) else {
            return worldFailure(seed: seed, options: options)
        }
        simulation.adopt(disk ?? DiskModel())
        simulation.note("replay of \(events.count) events in world \(options.world.name)")
        var failure: InvariantViolation?
        do {
            try simulation.firstLaunch()
            for (index, scheduled) in events.enumerated() {
                if options.countsOperations { simulation.operations.append(DiskOperationCount(simulation.disk.counters)) }
                simulation.schedule.append(scheduled)
                try simulation.execute(scheduled, index: index, execution: nil)
            }
        } catch let violation as InvariantViolation {
            failure = violation
        } catch {
            failure = InvariantViolation(invariant: "unexpected-error", detail: "\(error)", eventIndex: simulation.schedule.count - 1)
        }
        return simulation.finish(failure)
    }

    /// A simulation over the options' world, or nil when the store cannot build its plans.
    private static func make(seed: UInt64?, diskSeed: UInt64, options: Options) -> Simulation? {
        guard let plans = try? WorldPlans(world: options.world, mutant: options.mutant) else { return nil }
        return Simulation(seed: seed, diskSeed: diskSeed, options: options, plans: plans)
    }

    /// The outcome of a run whose world the store cannot build plans for.
    private static func worldFailure(seed: UInt64?, options: Options) -> SimOutcome {
        let detail: String
        do {
            _ = try WorldPlans(world: options.world)
            detail = "the world's plans do not build"
        } catch {
            detail = "\(error)"
        }
        let failure = InvariantViolation(invariant: "world-builds", detail: detail, eventIndex: -1)
        return SimOutcome(
            seed: seed, schedule: [], failure: failure, trace: ["FAILED \(failure)"], traceHash: "", crashes: CrashCounts(),
            statesChecked: 0, eventsRun: 0, timeline: nil, coverage: Coverage())
    }

    private func finish(_ found: InvariantViolation?) -> SimOutcome {
        releaseHeldDrain()
        var failure = found
        if let found {
            note("FAILED \(found)")
            failure?.event = FailureReport.eventLine(found.eventIndex, in: trace)
        }
        // Under keepGoing a run whose expectations failed fails, with the first of them.
        failure = failure ?? expectationFailures.first
        if let failure { recordTimelineFailure(failure) }
        if let process {
            process.heldOpen.abandon()
            if let image = process.openedImage { storeWork.time { image.abandon() } }
        }
        process = nil
        if options.countsOperations { operations.append(DiskOperationCount(disk.counters)) }
        hasher.combine("disk \(disk.contentHash)")
        var coverage = Coverage(model: oracle.coverage, tornWrites: Int(disk.counters.writesTorn), faultsInjected: Int(disk.counters.injectedFaults))
        coverage.directoryEntriesLost = Int(disk.counters.entriesLost)
        coverage.failedSyncsDroppingWrites = Int(disk.counters.failedSyncsDropping)
        coverage.seedsWith4096Sectors = disk.device.sectorSize == 4096 ? 1 : 0
        coverage.errorsReadBack = errorsReadBack
        coverage.fieldsWithSeveralErrorsReadBack = fieldsWithSeveralErrorsReadBack
        coverage.errorsAtNulledElementsReadBack = errorsAtNulledElementsReadBack
        coverage.errorsWithExtensionsReadBack = errorsWithExtensionsReadBack
        coverage.errorsWithOtherMembersReadBack = errorsWithOtherMembersReadBack
        coverage.partialReadsMissing = partialReadsMissing
        coverage.rottedRowsRead = rottedRowsRead
        coverage.formatUpgrades = formatUpgrades
        coverage.quitCrashes = quitCrashes
        coverage.processCheckpoints = processCheckpoints
        coverage.commitsBufferedBeforeTheOpen = commitsBufferedBeforeTheOpen
        coverage.deathsBeforeTheOpen = deathsBeforeTheOpen
        coverage.imagelessProcesses = imagelessProcesses
        coverage.opensRetried = opensRetried
        coverage.lockedLaunches = lockedLaunches
        coverage.erases = erases
        coverage.erasesSearched = erasesSearched
        coverage.erasesAtOpen = erasesAtOpen
        coverage.guardedCheckpoints = guardedCheckpoints
        coverage.refusedResponses = refusedResponses
        coverage.recordedResponses = recordedResponses
        return SimOutcome(
            seed: seed, schedule: schedule, failure: failure, trace: trace, traceHash: hasher.hex,
            crashes: crashes, statesChecked: statesChecked, eventsRun: schedule.count, timeline: timeline,
            coverage: coverage,
            expectationFailures: expectationFailures, operations: operations,
            writerBound: writerBound == WriterLimits().maxQueuedItems ? nil : writerBound,
            store: options.store == StoreSettings() ? nil : options.store,
            storeCPUSeconds: options.timesStoreWork ? storeWork.seconds : nil)
    }

    func generationContext() -> GenerationContext {
        GenerationContext(
            processUp: process != nil,
            drainInFlight: heldDrain != nil,
            liveLayers: (process?.layers.keys.sorted()) ?? [],
            retainedTokens: (process?.tokens.keys.sorted()) ?? [])
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
