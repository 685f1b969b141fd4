import Baton

/// A schedule written by hand, step by step, run against the real store and image over the
/// simulated disk and checked against the model after every step, like a generated run.
///
/// ```swift
/// var scenario = Scenario(in: world)
/// scenario.respond("Screen", variables: ["id": .string("1")], with: #"{"data": {…}}"#)
/// scenario.drain()
/// scenario.kill()
/// scenario.relaunch()
/// scenario.check("Screen", variables: ["id": .string("1")], expect: .available(from: .image))
/// let result = scenario.run()   // on the main actor
/// #expect(result.failure == nil)
/// ```
///
/// Every step's effect is checked as in a campaign (memory, the image after each drain, the state
/// a relaunch finds after a kill or a power loss, what a check answers and reads back), and
/// ``ScenarioExpectation``s add what the scenario itself promises.
public struct Scenario: Sendable {
    let world: SimulationWorld
    private(set) var events: [ScheduledEvent] = []
    private var nextToken = 1
    private var nextLayer = 1

    /// An empty scenario in `world`; the first process is running before the first step.
    public init(in world: SimulationWorld = .rickAndMorty) {
        self.world = world
    }

    // MARK: The server and the store

    /// The server answers `operation` with `response` (its JSON text), which the store commits.
    public mutating func respond(_ operation: String, variables: [String: JSONValue] = [:], with response: String) {
        events.append(ScheduledEvent(.response(operation: operation, variables: variables, body: .text(response))))
    }

    /// A mutation's optimistic response is committed as a layer; returns the layer's number.
    @discardableResult
    public mutating func optimistic(_ operation: String, variables: [String: JSONValue] = [:], with response: String) -> Int {
        let layer = nextLayer
        nextLayer += 1
        events.append(ScheduledEvent(.optimistic(layer: layer, operation: operation, variables: variables, body: .text(response))))
        return layer
    }

    /// The server answers the mutation of `layer`: its layer goes, the answer is committed.
    public mutating func answer(layer: Int, _ operation: String, variables: [String: JSONValue] = [:], with response: String) {
        events.append(ScheduledEvent(.answer(layer: layer, operation: operation, variables: variables, body: .text(response))))
    }

    /// The mutation of `layer` failed: its layer is reverted.
    public mutating func fail(layer: Int) {
        events.append(ScheduledEvent(.fail(layer: layer)))
    }

    /// Retains `operation` (its records survive collection); returns the token to release.
    @discardableResult
    public mutating func retain(_ operation: String, variables: [String: JSONValue] = [:]) -> Int {
        let token = nextToken
        nextToken += 1
        events.append(ScheduledEvent(.retain(token: token, operation: operation, variables: variables)))
        return token
    }

    /// The screen that retained with `token` goes away: its records may be collected again.
    public mutating func release(token: Int) {
        events.append(ScheduledEvent(.release(token: token)))
    }

    /// The availability check of `operation` (it hydrates from the image), with what it must answer.
    public mutating func check(
        _ operation: String, variables: [String: JSONValue] = [:], expiration: Double? = nil, expect: ScenarioExpectation? = nil
    ) {
        events.append(ScheduledEvent(.check(operation: operation, variables: variables, expiration: expiration), expect: expect?.expectation))
    }

    /// The store collects: every record no retained or buffered operation, optimistic layer or
    /// record the writer still holds reaches is dropped from memory (the image keeps its rows).
    public mutating func collect() { events.append(ScheduledEvent(.collect)) }
    /// Every operation fetched so far is marked stale; a later fetch makes it fresh again.
    public mutating func invalidate() { events.append(ScheduledEvent(.invalidate)) }
    /// The user logs out: the store forgets every record, layer and fetch time, and the image
    /// is erased at the writer's next drain.
    public mutating func erase() { events.append(ScheduledEvent(.erase)) }
    /// Moves the device's clock by `seconds`; a negative value sets it back.
    public mutating func advanceClock(seconds: Double) { events.append(ScheduledEvent(.advanceClock(seconds: seconds))) }

    // MARK: The writer, the process and the disk

    /// The writer drains everything queued in one transaction. Its commit survives a kill, but
    /// not surely a power loss: the WAL is synced at checkpoints (and a quit), not at every
    /// commit, so a `powerLoss` right after may find the image as it was before the drain.
    public mutating func drain() { events.append(ScheduledEvent(.drain)) }
    /// The writer begins a drain on a thread of its own, as production's background writer does,
    /// and the drain is held once it took its work: the steps after it run while it is in
    /// flight, until ``endDrain()`` or a step that waits for the image (a check, a drain, a quit,
    /// a crash) lets it finish first. Commits, collection, an erase and the disk's faults run
    /// meanwhile.
    public mutating func beginDrain() { events.append(ScheduledEvent(.drainBegins)) }
    /// The drain ``beginDrain()`` holds goes on to its end.
    public mutating func endDrain() { events.append(ScheduledEvent(.drainEnds)) }
    /// The process dies after `writes` row writes of a drain, before its commit.
    public mutating func drainPartway(writes: Int) { events.append(ScheduledEvent(.drainPartway(steps: writes))) }
    /// A clean quit: the writer drains, the image closes.
    public mutating func quit() { events.append(ScheduledEvent(.quit)) }
    /// The process is killed: the OS keeps everything written, synced or not.
    public mutating func kill() { events.append(ScheduledEvent(.kill)) }
    /// The power goes: each unsynced write is kept, dropped or torn, chosen by `seed`.
    public mutating func powerLoss(seed: UInt64 = 1) { events.append(ScheduledEvent(.powerLoss(seed: seed))) }
    /// A new process opens the image and makes a new store.
    public mutating func relaunch() { events.append(ScheduledEvent(.relaunch)) }
    /// A new process makes its store at once and opens the image in the background, as an app
    /// with `OpeningImage` does: commits buffer until an event needs the image (a check, a
    /// drain, a quit), and a kill before then ends a process that never touched the file.
    /// `build` names the process: the same build, the app's next version (its open wipes another
    /// version's rows), or a build one image format newer (the file made the format before first).
    public mutating func relaunchOpeningLater(build: LaunchBuild = .same) { events.append(ScheduledEvent(.relaunchOpeningLater(build: build))) }
    /// A new process on a locked device: no file can be opened while it opens, so its store
    /// runs without an image and the file stays as it was.
    public mutating func relaunchLocked() { events.append(ScheduledEvent(.relaunchLocked)) }
    /// The disk is full for the next `events` events of this process (or until it ends): writes,
    /// syncs and truncations fail. An image still opening in the background then fails to open,
    /// and the store runs without one.
    public mutating func diskFull(events count: Int) { events.append(ScheduledEvent(.diskFull(events: count))) }
    /// The app is updated: the process quits, and the next app version launches, which must find
    /// the image wiped (every row an older version wrote is gone; the file and its generation stay).
    public mutating func upgrade() { events.append(ScheduledEvent(.upgrade)) }
    /// The app's next build, same version, one image format newer: the process quits, the file is
    /// made the previous format, and the new build opens it (``SimEvent/formatUpgrade``).
    public mutating func formatUpgrade() { events.append(ScheduledEvent(.formatUpgrade)) }
    /// A new process dies while it opens the image, after `operations` of its disk-changing
    /// operations: killed, or with `powerLossSeed` a power loss; `build` is the app's next
    /// version or a Baton one image format newer (``SimEvent/openCrash(operations:powerLossSeed:build:)``).
    public mutating func openCrash(operations: Int, powerLossSeed: UInt64? = nil, build: LaunchBuild = .same) {
        events.append(ScheduledEvent(.openCrash(operations: operations, powerLossSeed: powerLossSeed, build: build)))
    }

    /// The process quits and dies part way, after `operations` disk changes of its last drain
    /// and its close: killed, or with `powerLossSeed` a power loss (``SimEvent/quitCrash(operations:powerLossSeed:)``).
    public mutating func quitCrash(operations: Int, powerLossSeed: UInt64? = nil) {
        events.append(ScheduledEvent(.quitCrash(operations: operations, powerLossSeed: powerLossSeed)))
    }

    /// The scenario as a replay file (for `baton sim replay` and for keeping it as a regression).
    public var replayFile: String {
        ReplayFile(world: world.name == World.defaultName ? nil : world.name, events: events).render()
    }

    /// Runs the scenario; the result's failure names the first invariant or expectation it broke.
    ///
    /// A step that would do nothing fails the run before it starts (invariant `scenario-steps`):
    /// an operation the world does not have (a misspelt name), a release of a token no running
    /// process holds, a kill with no process up. Such a scenario would test less than it says,
    /// and its ``replayFile`` would not replay.
    @MainActor
    public func run() -> SimulationResult {
        let options = Simulation.Options(events: events.count, world: world.world)
        if let problem = ScheduleCheck.problems(events, world: world.world).first {
            return SimulationResult(refusing: problem, replayFile: replayFile)
        }
        return SimulationResult(Simulation.replay(events, options: options), options: options, shrinks: false)
    }
}

/// What a check in a scenario must answer.
public struct ScenarioExpectation: Sendable {
    /// Where an available answer came from.
    public enum Source: String, Sendable {
        case memory, image
    }

    let expectation: Expectation

    /// Available (from `source`, when given), and reading back `data` when given.
    public static func available(from source: Source? = nil, data: JSONValue? = nil) -> ScenarioExpectation {
        ScenarioExpectation(expectation: Expectation(availability: "available", source: source?.rawValue, data: data))
    }

    /// Missing: something the operation selects is neither in memory nor in the image.
    public static var missing: ScenarioExpectation {
        ScenarioExpectation(expectation: Expectation(availability: "missing"))
    }

    /// Available and fresh (or stale) for the check's expiration.
    public static func fresh(_ fresh: Bool) -> ScenarioExpectation {
        ScenarioExpectation(expectation: Expectation(availability: fresh ? "fresh" : "stale"))
    }
}
