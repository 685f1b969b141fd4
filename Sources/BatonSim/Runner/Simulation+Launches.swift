import Baton

/// The launches no event asks for, noted on the trace so that a failure at one names it: the
/// first process, the process an event needs after the last one ended, and the background open
/// an event needs finished.
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
        try noting(event, index: index, step: "launch") {
            let found = try launch(index: index)
            return "launched generation \(process?.image.generation ?? -1), \(found); "
        }
    }

    /// The running process's background open, finished because `event` needs the image (a
    /// check waits for it; a drain or a quit runs after it); a failure there is noted as the
    /// event's. Returns what the open found, for the event's trace line.
    func finishOpen(before event: SimEvent, index: Int) throws -> String {
        let buffered = oracle.queue.count
        return try noting(event, index: index, step: "background open") {
            let found = try finishOpen(index: index)
            guard let image = process?.openedImage else { return found + "; " }
            commitsBufferedBeforeTheOpen += buffered
            let handed = buffered > 0 ? ", \(Self.count(buffered, "buffered commit")) handed over" : ""
            return "the image opened: generation \(image.generation), \(found)\(handed); "
        }
    }

    /// The drain in flight, finished because `event` waits for the image's lock (or ends the
    /// process); a failure there is noted as the event's.
    func finishHeldDrain(before event: SimEvent, index: Int) throws -> String {
        try noting(event, index: index, step: "drain in flight") {
            try finishHeldDrain(index: index) + "; then "
        }
    }

    /// Runs `step`, which comes before `event`; a failure there goes on the trace and the timeline
    /// as the event's, naming the step.
    private func noting(_ event: SimEvent, index: Int, step: String, _ body: () throws -> String) throws -> String {
        do {
            return try body()
        } catch {
            let failure = error as? InvariantViolation ?? violation("unexpected-error", "\(error)", at: index)
            note("#\(index) \(event.summary) → FAILED \(failure.invariant) (at the \(step) before it)")
            recordTimeline(event, index: index, outcome: "FAILED \(failure.invariant) at the \(step) before it")
            throw failure
        }
    }
}
