import BatonSim

/// A campaign's text summary.
enum CampaignOutput {
    /// How many failures the summary lists before it says how many more there are.
    static let listed = 20

    /// The whole summary; with `failuresOnly` (`--quiet`), only what failed (failed regressions,
    /// determinism mismatches, failing seeds with their replays), and nothing when all passed.
    static func print(_ summary: Campaign.Summary, settings: CampaignSettings, failuresOnly: Bool = false) {
        if failuresOnly {
            let failed = failedRegressionLines(summary, settings: settings) + mismatchLines(summary)
                + (summary.failuresBySeed.isEmpty ? [] : failureLines(summary, settings: settings)) + faultLines(summary, settings: settings)
            if !failed.isEmpty { Swift.print(failed.joined(separator: "\n")) }
            return
        }
        var lines: [String] = []
        let range = settings.seeds.last == nil ? "from \(settings.seeds.first) on" : "\(settings.seeds.first)..\(settings.seeds.last!)"
        var header = "campaign: seeds \(range), shard \(settings.seeds.shard), \(settings.events) events per seed, \(settings.jobs) job" + (settings.jobs == 1 ? "" : "s")
        if let mutant = settings.mutant { header += ", mutant \(mutant.rawValue)" }
        lines.append(header)
        if let stopped = summary.stopped { lines.append("stopped early: \(stopped)") }
        if let regressions = summary.regressions, regressions.failures.isEmpty {
            lines.append("regressions: \(regressions.replayed) files in \(regressions.folder) replayed, all passed")
        }
        lines += failedRegressionLines(summary, settings: settings)
        lines.append("seeds \(summary.seeds), events \(summary.events), states checked \(summary.statesChecked)")
        lines.append("coverage: " + summary.coverage.counters.map { "\($0.name) \($0.value)" }.joined(separator: ", "))
        let c = summary.crashes
        lines.append("crashes: \(c.kill) kills, \(c.powerLoss) power losses, \(c.quit) quits, \(c.drainPartway) drains cut short, \(c.corruptions) files overwritten with garbage, \(c.openCrashes) opens cut short, \(c.quitCrashes) quits cut short; \(c.faults) disk faults")
        lines.append(String(format: "%.1f seeds/s, %.0f events/s over %.1f s", summary.seedsPerSecond, summary.eventsPerSecond, summary.seconds))
        lines.append("determinism: \(summary.determinismChecked) seeds run twice, \(summary.determinismMismatches.count) mismatches")
        lines += mismatchLines(summary)
        lines += failureLines(summary, settings: settings)
        lines += faultLines(summary, settings: settings)
        Swift.print(lines.joined(separator: "\n"))
    }

    /// The seeds that killed their job's process, each with the command whose run prints the
    /// backtrace (none when no process died).
    private static func faultLines(_ summary: Campaign.Summary, settings: CampaignSettings) -> [String] {
        guard !summary.processFaults.isEmpty else { return [] }
        var lines = ["process faults: \(summary.processFaults.count) seed\(summary.processFaults.count == 1 ? "" : "s") killed a job's process; the job's other seeds ran in a new one"]
        for fault in summary.processFaults.sorted(by: { $0.seed < $1.seed }).prefix(listed) {
            lines.append("  seed \(fault.seed): the process died of \(fault.signal) (a fault in the store or the simulator)")
            lines.append("    rerun it for its backtrace: " + CampaignReport.reproduceCommand(seed: fault.seed, events: settings.events, mutant: settings.mutant, world: settings.world.words))
        }
        if summary.processFaults.count > listed {
            lines.append("  … and \(summary.processFaults.count - listed) more" + (settings.jsonPath.map { ", all listed in \($0)" } ?? " (--json FILE lists them all)"))
        }
        return lines
    }

    /// The regressions that failed, each with its replay command (none when all passed).
    private static func failedRegressionLines(_ summary: Campaign.Summary, settings: CampaignSettings) -> [String] {
        guard let regressions = summary.regressions, !regressions.failures.isEmpty else { return [] }
        var lines = ["regressions: \(regressions.replayed) files in \(regressions.folder) replayed, \(regressions.failures.count) FAILED"]
        for failure in regressions.failures {
            lines.append("  \(failure.path): \(failure.violation.summary)")
            lines += details(failure.violation)
            lines.append("    replay: " + CampaignReport.replayCommand(path: failure.path, world: settings.world.words))
        }
        return lines
    }

    private static func mismatchLines(_ summary: Campaign.Summary) -> [String] {
        summary.determinismMismatches.map { "  NONDETERMINISTIC \($0)" }
    }

    /// `failures: N`, then the first ``listed`` failing seeds with their replays and reruns.
    private static func failureLines(_ summary: Campaign.Summary, settings: CampaignSettings) -> [String] {
        var lines: [String] = []
        let failures = summary.failuresBySeed
        lines.append("failures: \(failures.count)")
        for failure in failures.prefix(listed) {
            lines.append("  seed \(failure.seed): \(failure.violation.summary)")
            lines += details(failure.violation)
            if let path = failure.replayPath {
                lines.append("    shrunk to \(failure.shrunkLength ?? 0) events: " + CampaignReport.replayCommand(path: path, world: settings.world.words))
            }
            if let path = failure.timelinePath { lines.append("    timeline: \(path)") }
            if let path = failure.regressionPath { lines.append("    saved as a regression: \(path)") }
            if let error = failure.writeError { lines.append("    \(error)") }
            lines.append("    rerun: " + CampaignReport.reproduceCommand(seed: failure.seed, events: settings.events, mutant: settings.mutant, world: settings.world.words))
        }
        if failures.count > listed {
            let rest = failures.count - listed
            lines.append("  … and \(rest) more failure\(rest == 1 ? "" : "s")" + (settings.jsonPath.map { ", all listed in \($0)" } ?? " (--json FILE lists them all)"))
        }
        return lines
    }

    /// How many differing cells the summary lists per failure (the JSON and the replay list all).
    static let differencesListed = 8

    /// A failure's event and its first differences, indented under its summary line.
    static func details(_ violation: InvariantViolation) -> [String] {
        var lines: [String] = []
        if let event = violation.event { lines.append("    at " + event) }
        lines += FailureReport.differences(violation, indent: "    ", limit: differencesListed)
        return lines
    }
}
