import Baton
import Dispatch
import Foundation
import Synchronization

/// The simulator's writer executor: a drain runs only when the simulator asks for one, and a drain
/// begun by ``HeldDrain/start(_:executor:)`` is held on its own thread once it took its work.
///
/// Production's executor drains on a background queue while the main actor goes on; this one lets
/// the simulator choose the moment in between, and hand the one running thread back and forth
/// so that nothing runs at the same time and every run repeats.
package final class SimWriterExecutor: WriterExecutor {
    /// The drain to hold at its next `drainTookWork`, set only while that drain's thread runs.
    private let armed = Mutex<HeldDrain?>(nil)

    package init() {}

    package func writerHasWork(_ writer: ImageWriter) {}

    package func drainTookWork(_ writer: ImageWriter) {
        let drain = armed.withLock { armed in
            defer { armed = nil }
            return armed
        }
        drain?.hold()
    }

    fileprivate func arm(_ drain: HeldDrain?) {
        armed.withLock { $0 = drain }
    }
}

/// A drain running on a thread of its own, held right after it took its work until ``finish()``.
///
/// The thread that began it waits while the drain runs up to the hold, and waits again in
/// ``finish()`` while it runs to its end: only one thread ever runs, as the simulator needs.
package final class HeldDrain: Sendable {
    /// How the start ended.
    package enum Start: Sendable {
        /// The drain holds its work, in flight.
        case inFlight(HeldDrain)
        /// The drain ended before it took any work (a file it could not recreate, a halted
        /// image): its result, and the CPU time its thread spent.
        case ended(DrainResult, cpuSeconds: Double)
    }

    private struct State {
        var held = false
        var result: DrainResult?
        var watchdogFired = false
        /// The drain's thread's CPU time, once it ended.
        var cpuSeconds: Double = 0
    }

    private let state = Mutex(State())
    /// Signalled when the drain reaches its hold, or ends without one.
    private let stopped = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)

    /// How long a held drain waits for ``finish()`` before it goes on by itself. A simulated event
    /// takes milliseconds: the only way to wait this long is an event that reached for the
    /// image's lock while the drain holds it, which would otherwise hang the run for ever. The
    /// run then fails (`drain-held-alone`) instead; no passing run ever waits for it.
    static let watchdogSeconds = 120

    private init() {}

    /// Starts `writer`'s drain on a new thread and returns once it took its work (or ended
    /// without taking any).
    package static func start(_ writer: ImageWriter, executor: SimWriterExecutor) -> Start {
        let drain = HeldDrain()
        executor.arm(drain)
        let thread = Thread {
            let cpuStart = StoreWorkClock.threadCPUSeconds()
            let result = writer.drain()
            let cpuSeconds = StoreWorkClock.threadCPUSeconds() - cpuStart
            let wasHeld = drain.state.withLock { state in
                state.result = result
                state.cpuSeconds = cpuSeconds
                return state.held
            }
            if !wasHeld { drain.stopped.signal() }
            drain.ended.signal()
        }
        // SQLite's calls nest deeper than a secondary thread's default stack on some systems.
        thread.stackSize = 8 << 20
        thread.start()
        drain.stopped.wait()
        executor.arm(nil)
        if drain.state.withLock({ $0.held }) { return .inFlight(drain) }
        drain.ended.wait()
        return .ended(drain.result, cpuSeconds: drain.state.withLock { $0.cpuSeconds })
    }

    /// On the drain's thread, inside the drain: waits until ``finish()``.
    fileprivate func hold() {
        state.withLock { $0.held = true }
        stopped.signal()
        if released.wait(timeout: .now() + .seconds(Self.watchdogSeconds)) == .timedOut {
            state.withLock { $0.watchdogFired = true }
        }
    }

    /// Lets the drain go on, and waits for its end: its result, whether it had gone on by itself
    /// before (``watchdogSeconds``), and the CPU time its thread spent.
    package func finish() -> (result: DrainResult, watchdogFired: Bool, cpuSeconds: Double) {
        released.signal()
        ended.wait()
        return state.withLock { ($0.result ?? .unavailable, $0.watchdogFired, $0.cpuSeconds) }
    }

    private var result: DrainResult {
        state.withLock { $0.result } ?? .unavailable
    }
}

/// What the model held when a drain began: what its end is checked against.
struct DrainStart {
    var queue: [OracleBatch]
    var touches: OracleTouches
    var image: OracleImage
    var evicts: Bool
    var erasing: Bool
    /// The disk's count of injected faults.
    var faults: UInt64

    init(_ oracle: Oracle, faults: UInt64) {
        queue = oracle.queue
        touches = oracle.touches
        image = oracle.image
        evicts = !oracle.evictionDone
        erasing = oracle.eraseMustWipe
        self.faults = faults
    }
}

/// A drain held in flight, with what the model held when it began.
struct HeldDrainInFlight {
    var drain: HeldDrain
    var start: DrainStart
    /// The `drainBegins` event's index.
    var beganAt: Int
}

extension Simulation {
    /// ``SimEvent/drainBegins``: the writer's drain starts on its own thread and is held once it
    /// took its work; the model takes the same work into flight. A drain that ends before it
    /// takes any is checked as any drain.
    func beginHeldDrain(index: Int) throws -> String {
        guard let process else { return "skipped" }
        guard !process.imageless else { return "skipped: no image" }
        let start = DrainStart(oracle, faults: disk.counters.injectedFaults)
        let begun = storeWork.time { HeldDrain.start(process.image.writer, executor: writerExecutor) }
        switch begun {
        case .ended(let result, let cpuSeconds):
            storeWork.add(cpuSeconds)
            return try "ended before it took any work: "
                + checkDrain(result, start: start, process: process, readsImageAfter: true, index: index)
        case .inFlight(let drain):
            oracle.drainBegan()
            heldDrain = HeldDrainInFlight(drain: drain, start: start, beganAt: index)
            let items = start.queue.reduce(0) { $0 + $1.itemCount }
            return "in flight with \(start.queue.count) batch\(start.queue.count == 1 ? "" : "es") (\(Self.count(items, "item")))"
                + (start.erasing ? " and an erase's wipe" : start.queue.isEmpty && oracle.writerMustWipe ? " and a wipe" : "")
        }
    }

    /// ``SimEvent/drainEnds``, or an event that waits for the image's lock: the drain in flight
    /// goes on to its end, checked as a drain is against what it took when it began; what came
    /// behind it stays queued.
    func finishHeldDrain(index: Int) throws -> String {
        guard let held = heldDrain else { return "skipped: no drain in flight" }
        heldDrain = nil
        let (result, watchdogFired, cpuSeconds) = storeWork.time { held.drain.finish() }
        storeWork.add(cpuSeconds)
        guard let process else { return "the drain held since event \(held.beganAt) ended with no process to check it" }
        if watchdogFired {
            throw violation(
                "drain-held-alone",
                "the drain held since event \(held.beganAt) waited \(HeldDrain.watchdogSeconds) s for the simulator: an event reached for the image's lock while the drain held it (a bug of the simulator's: that event must finish the drain first)",
                at: index)
        }
        oracle.enterDrainInFlight()
        var committed = false
        switch result {
        case .committed: committed = true
        case .failed: oracle.heldDrainFailed()
        default: break
        }
        let line = try checkDrain(result, start: held.start, process: process, readsImageAfter: true, index: index)
        oracle.leaveDrainInFlight(committed: committed)
        return "the drain held since event \(held.beganAt): " + line
    }

    /// Lets a held drain run to its end unchecked: the run ended (or failed) while it was in flight.
    func releaseHeldDrain() {
        guard let held = heldDrain else { return }
        heldDrain = nil
        _ = held.drain.finish()
    }
}
