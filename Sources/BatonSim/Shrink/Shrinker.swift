/// Delta debugging over a recorded schedule: the smallest schedule found (by removing chunks of
/// events, then single events) that still breaks the same invariant.
///
/// Every candidate is first passed through ``normalize`` (the campaign drops events that would
/// do nothing, so every schedule it keeps is one a replay file can hold), then replayed for real.
package struct Shrinker<Event> {
    /// The most replays one shrink may spend.
    package var budget: Int
    /// Applied to every candidate before it is tried; the result is what the shrinker keeps.
    package var normalize: ([Event]) -> [Event] = { $0 }
    /// Asked before each replay after the first that reproduces the failure; true ends the shrink
    /// with the smallest failing schedule so far.
    package var shouldStop: () -> Bool = { false }

    package init(budget: Int = 400) {
        self.budget = budget
    }

    /// What a shrink found.
    package struct Result {
        /// The smallest normalized schedule that failed, or the original when none did.
        package var schedule: [Event]
        package var replays: Int
        /// False when no normalized candidate reproduced the failure: `schedule` is then the
        /// original, untested and not normalized.
        package var reproduces: Bool
    }

    /// Shrinks `schedule`; `fails` replays a candidate and says whether it breaks the invariant.
    package func shrink(_ schedule: [Event], failingAt index: Int, fails: ([Event]) -> Bool) -> Result {
        var replays = 0
        func attempt(_ candidate: [Event]) -> Bool {
            guard replays < budget, !shouldStop() else { return false }
            replays += 1
            return fails(candidate)
        }
        // The events up to the failing one, then the whole schedule: the first that fails once
        // normalized is where shrinking starts. These replays run even when asked to stop, so a
        // stopped campaign still writes a file it has seen fail.
        var current: [Event]
        let prefix = normalize(Array(schedule.prefix(index + 1)))
        replays += 1
        if fails(prefix) {
            current = prefix
        } else {
            let whole = normalize(schedule)
            guard index + 1 < schedule.count else { return Result(schedule: schedule, replays: replays, reproduces: false) }
            replays += 1
            guard fails(whole) else { return Result(schedule: schedule, replays: replays, reproduces: false) }
            current = whole
        }
        var granularity = 2
        while current.count >= 2, replays < budget, !shouldStop() {
            let chunk = Int((Double(current.count) / Double(granularity)).rounded(.up))
            var reduced = false
            var start = 0
            while start < current.count {
                let end = min(current.count, start + chunk)
                var candidate = current
                candidate.removeSubrange(start..<end)
                candidate = normalize(candidate)
                if !candidate.isEmpty, candidate.count < current.count, attempt(candidate) {
                    current = candidate
                    granularity = max(granularity - 1, 2)
                    reduced = true
                    break
                }
                start = end
            }
            if !reduced {
                if granularity >= current.count { break }
                granularity = min(granularity * 2, current.count)
            }
        }
        return Result(schedule: current, replays: replays, reproduces: true)
    }
}
