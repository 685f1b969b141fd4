/// Delta debugging over a recorded schedule: the smallest schedule found (by removing chunks of
/// events, then single events) that still breaks the same invariant.
///
/// Every candidate is replayed for real; events are self-contained, so any subsequence is a valid
/// run (an event that no longer makes sense does nothing).
package struct Shrinker {
    /// The most replays one shrink may spend.
    package var budget: Int

    package init(budget: Int = 400) {
        self.budget = budget
    }

    /// Shrinks `schedule`; `fails` replays a candidate and says whether it breaks the invariant.
    package func shrink<Event>(_ schedule: [Event], failingAt index: Int, fails: ([Event]) -> Bool) -> (schedule: [Event], replays: Int) {
        var replays = 0
        var current = Array(schedule.prefix(index + 1))
        func attempt(_ candidate: [Event]) -> Bool {
            guard replays < budget else { return false }
            replays += 1
            return fails(candidate)
        }
        if current.count < schedule.count, !attempt(current) {
            current = schedule
        }
        var granularity = 2
        while current.count >= 2, replays < budget {
            let chunk = Int((Double(current.count) / Double(granularity)).rounded(.up))
            var reduced = false
            var start = 0
            while start < current.count {
                let end = min(current.count, start + chunk)
                var candidate = current
                candidate.removeSubrange(start..<end)
                if !candidate.isEmpty, attempt(candidate) {
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
        return (current, replays)
    }
}
