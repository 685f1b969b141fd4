import Baton
import BatonSim
import Foundation

/// `baton sim campaign`: the regressions folder, then a stream of seeds in this process or over
/// `--jobs` processes, until the range ends, the time budget runs out, `--max-failures` is
/// reached or a signal asks to stop; then the summary, the JSON report and the exit status.
@MainActor
enum CampaignCommand {
    static func run(_ words: [String]) throws -> Int32 {
        let settings = try CampaignSettings.parse(words, randomSeed: CampaignSettings.clockSeed, repository: CampaignSettings.repository())
        try checkOutputs(settings)
        let job = settings.progress == .job
        // A job ignores the terminal's SIGINT: its parent passes the stop on as SIGTERM.
        let signals = job ? StopSignals(catching: [SIGTERM], ignoring: [SIGINT]) : StopSignals(catching: [SIGINT, SIGTERM])
        let display = ProgressDisplay(style: settings.progress == .automatic ? ProgressDisplay.automaticStyle() : .none)
        if settings.randomStart, !job {
            print("seeds from \(settings.seeds.first) on, drawn from the clock: --seeds \(settings.seeds.first).. repeats them")
            fflush(nil)
        }
        let elapsed = Campaign.stopwatch()
        var summary: Campaign.Summary
        var problems: [String] = []
        if settings.jobs > 1 {
            CrashNote.install()
            CrashNote.set(CrashNote.duringRegressions)
            let regressions = settings.regressions.map { RegressionFolder(path: $0).replayAll(mutant: settings.mutant, world: settings.world.world) }
            CrashNote.set("baton: the campaign's own process died of a fault while its jobs ran; no report was written")
            let jobs = CampaignJobs(settings: settings, signals: signals, display: display, elapsed: elapsed,
                                    failuresBefore: regressions?.failures.count ?? 0)
            (summary, problems) = try jobs.run()
            summary.regressions = regressions
        } else {
            summary = runHere(settings, signals: signals, display: display, elapsed: elapsed)
        }
        display.finish()
        if let path = settings.jsonPath {
            do {
                try writeReport(summary, settings: settings, to: path)
            } catch {
                problems.append("no report: \(error)")
            }
        }
        if settings.progress == .automatic {
            CampaignOutput.print(summary, settings: settings)
        } else if settings.progress == .quiet {
            CampaignOutput.print(summary, settings: settings, failuresOnly: true)
        }
        for problem in problems { printError("baton: " + oneLine(problem)) }
        if !summary.passed || !problems.isEmpty { return 1 }
        if case .signal? = summary.stopped, let number = signals.signalNumber { return 128 + number }
        return 0
    }

    /// The campaign in this process (one job, or one job of a parent's `--jobs`).
    private static func runHere(_ settings: CampaignSettings, signals: StopSignals, display: ProgressDisplay,
                                elapsed: @escaping () -> Double) -> Campaign.Summary {
        var plan = Campaign.Plan(seeds: settings.seeds, options: Simulation.Options(events: settings.events, mutant: settings.mutant, world: settings.world.world))
        plan.replayDirectory = settings.replayDirectory
        plan.replayRegressions = settings.regressions.map(RegressionFolder.init)
        plan.saveRegressions = settings.saveRegressions.map(RegressionFolder.init)
        plan.maxFailures = settings.maxFailures
        let job = settings.progress == .job
        let parent = getppid()
        let stop: () -> Campaign.StopReason? = {
            if let reason = signals.reason { return reason }
            if let budget = settings.timeBudget, elapsed() >= budget { return .timeBudget }
            // A job whose parent is gone stops as a terminal's hang-up would stop it.
            if job, getppid() != parent { return .signal("SIGHUP") }
            return nil
        }
        var campaign = Campaign(plan: plan, elapsed: elapsed, stop: stop)
        CrashNote.install()
        if job {
            // The parent names the seed a death interrupts: the one after those the job's last
            // report counts.
            CrashNote.clear()
        } else {
            CrashNote.set(CrashNote.duringRegressions)
            campaign.starting = { seed in
                let rerun = CampaignReport.reproduceCommand(seed: seed, events: settings.events, mutant: settings.mutant, world: settings.world.words)
                CrashNote.set("baton: seed \(seed) crashed the process (a fault in the store or the simulator); no report was written; run the campaign with --jobs 2 to go on past it; rerun it for its backtrace: \(rerun)")
            }
        }
        return campaign.run { summary, _ in
            if job {
                // The report after every seed, so a job that dies keeps the seeds it ran.
                if let path = settings.jsonPath { try? writeReport(summary, settings: settings, to: path) }
                print("progress \(summary.seeds) \(summary.events) \(summary.failures.count)")
                fflush(nil)
            } else {
                let failures = summary.failures.count + (summary.regressions?.failures.count ?? 0)
                display.show(ProgressDisplay.line(seeds: summary.seeds, total: settings.seeds.count, events: summary.events,
                                                  failures: failures, seconds: summary.seconds, jobs: 1), at: summary.seconds)
            }
        }
    }

    /// Fails before any seed runs when the report, the replay files or the regressions could not
    /// be written: a campaign must not find a failure and then lose it.
    private static func checkOutputs(_ settings: CampaignSettings) throws {
        if let path = settings.jsonPath, let problem = FileWriting.problem(writing: path, isDirectory: false) {
            throw CLIError.usage("--json: \(problem)")
        }
        if let folder = settings.replayDirectory, let problem = FileWriting.problem(writing: folder, isDirectory: true) {
            throw CLIError.usage("--replays: \(problem)")
        }
        if let folder = settings.saveRegressions, let problem = FileWriting.problem(writing: folder, isDirectory: true) {
            throw CLIError.usage("--save-regressions: \(problem)")
        }
    }

    /// The JSON report of `summary`, written whole or not at all.
    private static func writeReport(_ summary: Campaign.Summary, settings: CampaignSettings, to path: String) throws {
        try FileWriting.write(Array((prettyJSON(CampaignReport.json(summary, setup: setup(settings))) + "\n").utf8), to: path)
    }

    private static func setup(_ settings: CampaignSettings) -> CampaignReport.Setup {
        var setup = CampaignReport.Setup(seeds: settings.seeds, eventsPerSeed: settings.events)
        setup.randomStart = settings.randomStart
        setup.jobs = settings.jobs
        setup.mutant = settings.mutant
        setup.timeBudget = settings.timeBudget
        setup.maxFailures = settings.maxFailures
        setup.worldWords = settings.world.words
        // A job's report is read by its parent only: it does not ask git.
        setup.build = settings.progress == .job ? [:] : BuildInfo.report()
        return setup
    }
}
