import BatonSim

/// What `sim run` and `sim replay` are asked to show of a run's timeline: `--html FILE` writes
/// its page, `--key KEY` prints one record's history through it.
struct TimelineRequests {
    var html: String?
    var key: String?

    /// Reads `--html` and `--key`; a page that could not be written is refused before the run.
    init(_ arguments: inout Arguments) throws {
        html = arguments.option("html")
        key = arguments.option("key")
        if let html, let problem = FileWriting.problem(writing: html, isDirectory: false) {
            throw CLIError.usage("--html: \(problem)")
        }
        if let key, key.isEmpty { throw CLIError.usage("--key names a record, such as Character:1") }
    }

    /// True when the run must record its timeline.
    var wanted: Bool { html != nil || key != nil }

    /// Writes the page and prints the record's history; a key no event touched is an input error
    /// that lists the keys the run touched.
    @MainActor
    func show(_ outcome: SimOutcome) throws {
        guard let timeline = outcome.timeline else { return }
        if let html {
            do {
                try TimelineFile.write(timeline, to: html)
            } catch {
                throw CLIError.failed("cannot write the timeline: \(error)")
            }
            print("timeline: \(html)")
        }
        guard let key else { return }
        guard let lines = KeyHistory.lines(of: key, in: timeline) else {
            let keys = KeyHistory.keys(in: timeline)
            let shown = keys.prefix(12).joined(separator: ", ") + (keys.count > 12 ? ", and \(keys.count - 12) more" : "")
            throw CLIError.input("--key \(key): no event of this run touched that record (records it touched: \(keys.isEmpty ? "none" : shown))")
        }
        print(lines.joined(separator: "\n"))
    }
}
