import Baton
import BatonSim
import Foundation

/// The jobs of `--jobs N`: N processes of this executable, each running one slice of the
/// campaign's seeds. Their progress lines are gathered as they come; a stop (a signal, enough
/// failures) is passed on to them as SIGTERM, and their reports are merged once they exit. Their
/// folder of reports is removed in every case, a second signal included.
@MainActor
struct CampaignJobs {
    let settings: CampaignSettings
    let signals: StopSignals
    let display: ProgressDisplay
    let elapsed: () -> Double
    /// Failures already found (the regressions replayed before the jobs started).
    let failuresBefore: Int

    /// The merged summary, and what went wrong with the jobs themselves.
    func run() throws -> (summary: Campaign.Summary, problems: [String]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-campaign-\(getpid())").path
        try? FileManager.default.removeItem(atPath: folder)
        do {
            try FileWriting.makeDirectory(folder)
        } catch {
            throw CLIError.failed("cannot make a folder for the jobs' reports: \(error)")
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let children = ChildProcesses()
        signals.onSecondSignal {
            children.killAll()
            try? FileManager.default.removeItem(atPath: folder)
        }
        var reports: [String] = []
        // A range shorter than the jobs leaves some slices empty: they get no job.
        let slices = settings.seeds.shard.split(into: settings.jobs).filter { settings.seeds.sharded($0).count != 0 }
        for (job, shard) in slices.enumerated() {
            let report = folder + "/job-\(job + 1).json"
            reports.append(report)
            do {
                try children.start(arguments: jobArguments(shard: shard, report: report), job: job)
            } catch {
                children.terminateAll()
                children.waitAll()
                throw CLIError.failed("cannot start job \(job + 1): \(error)")
            }
        }
        var stopped: Campaign.StopReason?
        while children.anyRunning {
            Thread.sleep(forTimeInterval: 0.2)
            let progress = children.progress
            if stopped == nil, let reason = signals.reason {
                stopped = reason
                children.terminateAll()
            }
            if stopped == nil, let limit = settings.maxFailures, failuresBefore + progress.failures >= limit {
                stopped = .maxFailures
                children.terminateAll()
            }
            display.show(ProgressDisplay.line(seeds: progress.seeds, total: settings.seeds.count, events: progress.events,
                                              failures: failuresBefore + progress.failures, seconds: elapsed(), jobs: settings.jobs), at: elapsed())
        }
        children.waitAll()
        var summary = Campaign.Summary()
        var problems: [String] = []
        for (job, report) in reports.enumerated() {
            guard let data = FileManager.default.contents(atPath: report), let value = try? JSONValue.parse(Array(data)),
                  let shard = CampaignReport.summary(value) else {
                problems.append("job \(job + 1) of \(reports.count) exited with status \(children.status(of: job)) and left no report: its seeds are not counted")
                continue
            }
            summary.merge(shard)
        }
        if let stopped { summary.stopped = stopped }
        summary.seconds = elapsed()
        return (summary, problems)
    }

    private func jobArguments(shard: Shard, report: String) -> [String] {
        var words = ["sim", "campaign", "--seeds", settings.seeds.description, "--shard", shard.description,
                     "--events", "\(settings.events)", "--json", report, "--progress-lines", "--regressions", "none"]
        if let mutant = settings.mutant { words += ["--mutant", mutant.rawValue] }
        words += settings.world.words
        if let replays = settings.replayDirectory { words += ["--replays", replays] } else { words.append("--no-shrink") }
        if let folder = settings.saveRegressions { words += ["--save-regressions", folder] }
        if let budget = settings.timeBudget { words += ["--for", String(format: "%.3fs", max(budget - elapsed(), 0.001))] }
        if let limit = settings.maxFailures { words += ["--max-failures", "\(max(limit - failuresBefore, 1))"] }
        return words
    }
}

/// The child processes of a campaign and what their output says so far. Unchecked `Sendable`:
/// every stored property is read and written under `lock` (output arrives on Foundation's
/// threads, a second signal on the signal queue).
private final class ChildProcesses: @unchecked Sendable {
    private struct State {
        var processes: [Process] = []
        /// Per job: seeds, events and failures of its last progress line, and unread output.
        var progress: [Int: (seeds: Int, events: Int, failures: Int)] = [:]
        var pending: [Int: String] = [:]
    }

    private let lock = NSLock()
    private var unlockedState = State()

    private func withState<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&unlockedState)
    }

    /// This executable, as the jobs run it.
    private static var executable: URL {
        if FileManager.default.fileExists(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0])
    }

    func start(arguments: [String], job: Int) throws {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        pipe.fileHandleForReading.readabilityHandler = { [self] handle in
            self.read(String(decoding: handle.availableData, as: UTF8.self), job: job)
        }
        try process.run()
        withState { $0.processes.append(process) }
    }

    /// Takes the complete `progress SEEDS EVENTS FAILURES` lines of a job's output.
    private func read(_ text: String, job: Int) {
        withState { state in
            var buffer = state.pending[job, default: ""] + text
            while let newline = buffer.firstIndex(of: "\n") {
                let line = buffer[..<newline]
                buffer = String(buffer[buffer.index(after: newline)...])
                let numbers = line.split(separator: " ").dropFirst().compactMap { Int($0) }
                if line.hasPrefix("progress "), numbers.count == 3 {
                    state.progress[job] = (numbers[0], numbers[1], numbers[2])
                }
            }
            state.pending[job] = buffer
        }
    }

    var anyRunning: Bool {
        withState { $0.processes.contains { $0.isRunning } }
    }

    /// The jobs' progress added up.
    var progress: (seeds: Int, events: Int, failures: Int) {
        withState { state in
            state.progress.values.reduce((0, 0, 0)) { ($0.0 + $1.seeds, $0.1 + $1.events, $0.2 + $1.failures) }
        }
    }

    func status(of job: Int) -> Int32 {
        withState { state in
            guard job < state.processes.count, !state.processes[job].isRunning else { return -1 }
            return state.processes[job].terminationStatus
        }
    }

    /// Asks every running job to stop after its seed in flight.
    func terminateAll() {
        signalAll(SIGTERM)
    }

    /// Stops every running job at once.
    func killAll() {
        signalAll(SIGKILL)
    }

    private func signalAll(_ number: Int32) {
        let ids = withState { $0.processes.filter { $0.isRunning }.map(\.processIdentifier) }
        for id in ids { kill(id, number) }
    }

    func waitAll() {
        let processes = withState { $0.processes }
        for process in processes {
            process.waitUntilExit()
            // The last output may still be on its way to the handler.
            (process.standardOutput as? Pipe)?.fileHandleForReading.readabilityHandler = nil
        }
    }
}
