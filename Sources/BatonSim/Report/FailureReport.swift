/// A failure as a person reads it: what broke and after which event, the failing event's own
/// trace line with the events before it, and each differing cell on a line of its own.
///
/// `sim run`, `sim replay` and campaigns print failures through it, so every path shows the same.
package enum FailureReport {
    /// The trace line of the event numbered `index` (`#N summary → outcome`), the last one noted.
    package static func eventLine(_ index: Int, in trace: [String]) -> String? {
        let prefix = "#\(index) "
        return trace.last { $0.hasPrefix(prefix) }
    }

    /// The events' trace lines up to and including the failing one: `before` events before it.
    package static func eventsAround(_ failure: InvariantViolation, trace: [String], before: Int = 5) -> [String] {
        let lines = trace.filter { $0.hasPrefix("#") }
        guard !lines.isEmpty else { return [] }
        let prefix = "#\(failure.eventIndex) "
        let at = lines.lastIndex { $0.hasPrefix(prefix) } ?? lines.count - 1
        return Array(lines[max(0, at - before)...at])
    }

    /// The failure's summary, then its differences one per line under `indent` (at most
    /// `limit`, then how many more there are).
    package static func lines(_ failure: InvariantViolation, indent: String = "  ", limit: Int = 40) -> [String] {
        var lines = [failure.summary]
        lines += differences(failure, indent: indent, limit: limit)
        return lines
    }

    /// The failure's differences, one per line under `indent`, at most `limit`.
    package static func differences(_ failure: InvariantViolation, indent: String = "  ", limit: Int = 40) -> [String] {
        var lines = failure.differences.prefix(limit).map { indent + $0 }
        let more = failure.differences.count - limit
        if more > 0 { lines.append(indent + "… and \(more) more difference\(more == 1 ? "" : "s")") }
        return lines
    }
}
