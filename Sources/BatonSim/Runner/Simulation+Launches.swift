import Baton

/// The launches no event asks for, noted on the trace so that a failure at one names it: the
/// first process, and the process an event needs after the last one ended.
extension Simulation {
    /// The first process, before event 0; a failure there is noted as the event `#-1`.
    func firstLaunch() throws {
        if timeline != nil { timelineMarks = TimelineMarks(traceLines: trace.count, counters: disk.counters) }
        do {
            try launch(index: -1)
        } catch {
            let failure = error as? InvariantViolation ?? violation("unexpected-error", "\(error)", at: -1)
            note("#-1 first launch → FAILED \(failure.invariant)")
            throw failure
        }
    }

    /// The process `event` needs; a failure there is noted as the event's. Returns what the
    /// launch found, for the event's own trace line (a line of its own would shift the trace's
    /// length, which seeds SQLite's randomness at the next launch).
    func launch(before event: SimEvent, index: Int) throws -> String {
        do {
            let found = try launch(index: index)
            return "launched generation \(process?.image.generation ?? -1), \(found); "
        } catch {
            let failure = error as? InvariantViolation ?? violation("unexpected-error", "\(error)", at: index)
            note("#\(index) \(event.summary) → FAILED \(failure.invariant) (at the launch before it)")
            recordTimeline(event, index: index, outcome: "FAILED \(failure.invariant) at the launch before it")
            throw failure
        }
    }
}
