/// One record's history through a run, as `baton sim replay FILE --key KEY` (and `sim run
/// --key`) prints it: after each event that touched the record, its cells in memory, in the
/// writer's queue, in the image and in the model, with the cells where the store or the image
/// differs from the model. It reads the run's ``Timeline``.
package enum KeyHistory {
    /// The history's lines, or nil when no event touched `key`. The key may be given as reports
    /// print it, with ``Legible``'s escapes (`Character:\u{1}7\t`), or as it is.
    package static func lines(of key: String, in timeline: Timeline) -> [String]? {
        let resolved = timeline.histories[OracleText(key)] != nil ? key : Legible.unescaped(key)
        guard let states = timeline.histories[OracleText(resolved)], !states.isEmpty else { return nil }
        var summaries: [Int: String] = [:]
        for event in timeline.events { summaries[event.index] = event.summary }
        let failing = timeline.failure?.eventIndex
        var lines = ["history of \(Legible.text(resolved)): \(states.count) event\(states.count == 1 ? "" : "s") touched it"]
        for state in states {
            let mark = state.eventIndex == failing ? "   ← the failure" : ""
            lines.append("#\(state.eventIndex) \(summaries[state.eventIndex] ?? "")" + mark)
            lines.append("    memory  " + (state.memory ?? "—"))
            lines.append("    queue   " + (state.queue ?? "—"))
            lines.append("    image   " + (state.image ?? "—"))
            lines.append("    model   " + (state.model ?? "—"))
            if state.image != state.modelImage {
                lines.append("    model's image  " + (state.modelImage ?? "no row"))
            }
            for difference in state.differences { lines.append("    ≠ " + difference) }
        }
        return lines
    }

    /// The keys of the records some event touched, sorted: what `--key` can name.
    package static func keys(in timeline: Timeline) -> [String] {
        timeline.histories.keys.sorted().map(\.string)
    }
}
