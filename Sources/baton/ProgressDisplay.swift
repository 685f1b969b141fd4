import Foundation

/// A campaign's progress: one line redrawn in place on a terminal, a plain line every few
/// seconds in a pipe (a CI log), nothing when quiet.
final class ProgressDisplay {
    enum Style: Equatable {
        /// Redrawn in place, at most ten times a second.
        case terminal
        /// A new line at most every `seconds`.
        case lines(every: Double)
        case none
    }

    /// How often a pipe gets a line.
    static let pipeInterval = 5.0

    let style: Style
    private let write: (String) -> Void
    private var lastShown = -Double.infinity
    private var drawn = false

    init(style: Style, write: @escaping (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
        self.style = style
        self.write = write
    }

    /// The style for standard error: a terminal redraws, anything else gets lines.
    static func automaticStyle() -> Style {
        isatty(STDERR_FILENO) == 1 ? .terminal : .lines(every: pipeInterval)
    }

    /// Shows `line` if it is time to (`now` in seconds since the campaign began).
    func show(_ line: String, at now: Double) {
        switch style {
        case .none:
            return
        case .terminal:
            guard now - lastShown >= 0.1 else { return }
            write("\r\u{1B}[K" + line)
            drawn = true
        case .lines(let every):
            guard now - lastShown >= every else { return }
            write("progress: " + line + "\n")
        }
        lastShown = now
    }

    /// Ends the redrawn line, so what follows starts on its own.
    func finish() {
        if drawn { write("\n") }
        drawn = false
    }

    /// The progress line: seeds (of how many), events, failures, throughput, time.
    static func line(seeds: Int, total: UInt64?, events: Int, failures: Int, seconds: Double, jobs: Int) -> String {
        let of = total.map { "/\($0)" } ?? ""
        let rate = seconds > 0 && seeds > 0 ? String(format: "%.1f seeds/s, %.0f events/s", Double(seeds) / seconds, Double(events) / seconds) : "starting"
        let jobsText = jobs > 1 ? ", \(jobs) jobs" : ""
        return "\(seeds)\(of) seeds, \(events) events, \(failures) failures, \(rate), \(String(format: "%.0f", seconds)) s\(jobsText)"
    }
}
