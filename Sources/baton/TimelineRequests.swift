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
            // Keys compare by bytes: a key typed in another Unicode normalization names another
            // record. Say so, with the touched key's spelling made visible.
            let twins = keys.filter { $0 == key }
            if !twins.isEmpty {
                let spelled = twins.map(Self.visible).joined(separator: ", ")
                throw CLIError.input(
                    "--key \(Self.visible(key)): no record has that key byte for byte; the run touched \(spelled), the same text in another Unicode normalization (keys compare by bytes)")
            }
            let shown = keys.prefix(12).map(Legible.text).joined(separator: ", ") + (keys.count > 12 ? ", and \(keys.count - 12) more" : "")
            throw CLIError.input("--key \(key): no event of this run touched that record (records it touched: \(keys.isEmpty ? "none" : shown))")
        }
        print(lines.joined(separator: "\n"))
    }

    /// `text` with every scalar outside printable ASCII written as `\u{…}`, so two spellings of
    /// one text that look alike read differently.
    static func visible(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x20 && scalar.value < 0x7F {
                result.unicodeScalars.append(scalar)
            } else {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return result
    }
}
