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

    /// One process of a job: the seeds it runs and where it writes its report. A job's first
    /// process runs its whole slice; one that dies of a fault is followed by another for the seeds
    /// after the one it died in.
    private struct Part {
        let job: Int
        let seeds: SeedStream
        let report: String
    }

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
        var parts: [Part] = []
        var faults: [Campaign.ProcessFault] = []
        var problems: [String] = []
        func start(_ part: Part) throws {
            parts.append(part)
            try children.start(arguments: jobArguments(part.seeds, report: part.report, faults: faults.count), part: parts.count - 1)
        }
        // A range shorter than the jobs leaves some slices empty: they get no job.
        let slices = settings.seeds.shard.split(into: settings.jobs).filter { settings.seeds.sharded($0).count != 0 }
        for (job, shard) in slices.enumerated() {
            do {
                try start(Part(job: job, seeds: settings.seeds.sharded(shard), report: folder + "/job-\(job + 1).json"))
            } catch {
                children.terminateAll()
                children.waitAll()
                throw CLIError.failed("cannot start job \(job + 1): \(error)")
            }
        }
        var stopped: Campaign.StopReason?
        var handled = Set<Int>()
        while true {
            Thread.sleep(forTimeInterval: 0.2)
            let progress = children.progress
            let failures = failuresBefore + progress.failures + faults.count
            if stopped == nil, let reason = signals.reason {
                stopped = reason
                children.terminateAll()
            }
            if stopped == nil, let limit = settings.maxFailures, failures >= limit {
                stopped = .maxFailures
                children.terminateAll()
            }
            display.show(ProgressDisplay.line(seeds: progress.seeds, total: settings.seeds.count, events: progress.events,
                                              failures: failures, seconds: elapsed(), jobs: settings.jobs), at: elapsed())
            let allExited = !children.anyRunning
            var startedAnother = false
            for index in parts.indices where !handled.contains(index) && !children.isRunning(index) {
                handled.insert(index)
                guard let signal = children.faultSignal(of: index) else { continue }
                let part = parts[index]
                // The job died in the seed after those its last report counts.
                let ran = Self.report(part.report)?.seeds ?? 0
                guard let seed = part.seeds.seed(at: UInt64(ran)) else {
                    problems.append("job \(part.job + 1) died of \(signal) after its last seed")
                    continue
                }
                faults.append(Campaign.ProcessFault(seed: seed, signal: signal))
                guard stopped == nil, let next = part.seeds.seed(at: UInt64(ran) + 1), let step = Shard(index: 0, count: part.seeds.shard.count) else { continue }
                let rest = Part(job: part.job, seeds: SeedStream(first: next, last: part.seeds.last, shard: step),
                                report: folder + "/job-\(part.job + 1)-\(parts.count + 1).json")
                do {
                    try start(rest)
                    startedAnother = true
                } catch {
                    problems.append("cannot start job \(part.job + 1) again after seed \(seed): \(error); its seeds from \(next) on did not run")
                }
            }
            if allExited && !startedAnother { break }
        }
        children.waitAll()
        var summary = Campaign.Summary()
        for (index, part) in parts.enumerated() {
            guard let shard = Self.report(part.report) else {
                if children.faultSignal(of: index) == nil {
                    problems.append("job \(part.job + 1) of \(slices.count) exited with status \(children.status(of: index)) and left no report: its seeds are not counted")
                }
                continue
            }
            summary.merge(shard)
        }
        summary.processFaults = faults
        if let stopped { summary.stopped = stopped }
        summary.seconds = elapsed()
        return (summary, problems)
    }

    /// The summary in a job's report, nil when there is none (a job that died before its first
    /// seed ended) or it does not read.
    private static func report(_ path: String) -> Campaign.Summary? {
        guard let data = FileManager.default.contents(atPath: path), let value = try? JSONValue.parse(Array(data)) else { return nil }
        return CampaignReport.summary(value)
    }

    private func jobArguments(_ seeds: SeedStream, report: String, faults: Int) -> [String] {
        var words = ["sim", "campaign", "--seeds", seeds.description, "--shard", seeds.shard.description,
                     "--events", "\(settings.events)", "--json", report, "--progress-lines", "--regressions", "none"]
        if let mutant = settings.mutant { words += ["--mutant", mutant.rawValue] }
        words += settings.world.words
        if let replays = settings.replayDirectory { words += ["--replays", replays] } else { words.append("--no-shrink") }
        if let folder = settings.saveRegressions { words += ["--save-regressions", folder] }
        if let budget = settings.timeBudget { words += ["--for", String(format: "%.3fs", max(budget - elapsed(), 0.001))] }
        if let limit = settings.maxFailures { words += ["--max-failures", "\(max(limit - failuresBefore - faults, 1))"] }
        return words
    }
}

/// The child processes of a campaign and what their output says so far. Unchecked `Sendable`:
/// every stored property is read and written under `lock` (output arrives on Foundation's
/// threads, a second signal on the signal queue).
private final class ChildProcesses: @unchecked Sendable {
    private struct State {
        var processes: [Int: Process] = [:]
        /// Per process: seeds, events and failures of its last progress line, and unread output.
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

    func start(arguments: [String], part: Int) throws {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        pipe.fileHandleForReading.readabilityHandler = { [self] handle in
            self.read(String(decoding: handle.availableData, as: UTF8.self), part: part)
        }
        try process.run()
        withState { $0.processes[part] = process }
    }

    /// Takes the complete `progress SEEDS EVENTS FAILURES` lines of a process's output.
    private func read(_ text: String, part: Int) {
        withState { state in
            var buffer = state.pending[part, default: ""] + text
            while let newline = buffer.firstIndex(of: "\n") {
                let line = buffer[..<newline]
                buffer = String(buffer[buffer.index(after: newline)...])
                let numbers = line.split(separator: " ").dropFirst().compactMap { Int($0) }
                if line.hasPrefix("progress "), numbers.count == 3 {
                    state.progress[part] = (numbers[0], numbers[1], numbers[2])
                }
            }
            state.pending[part] = buffer
        }
    }

    var anyRunning: Bool {
        withState { $0.processes.values.contains { $0.isRunning } }
    }

    /// The jobs' progress added up.
    var progress: (seeds: Int, events: Int, failures: Int) {
        withState { state in
            state.progress.values.reduce((0, 0, 0)) { ($0.0 + $1.seeds, $0.1 + $1.events, $0.2 + $1.failures) }
        }
    }

    func isRunning(_ part: Int) -> Bool {
        withState { $0.processes[part]?.isRunning ?? false }
    }

    func status(of part: Int) -> Int32 {
        withState { state in
            guard let process = state.processes[part], !process.isRunning else { return -1 }
            return process.terminationStatus
        }
    }

    /// The fault signal that ended a process (a trap, a bad memory access), nil when it exited or
    /// was stopped.
    func faultSignal(of part: Int) -> String? {
        withState { state in
            guard let process = state.processes[part], !process.isRunning, process.terminationReason == .uncaughtSignal else { return nil }
            return Self.faultSignals[process.terminationStatus]
        }
    }

    /// The signals a fault raises, by name.
    private static let faultSignals: [Int32: String] = [
        SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE",
    ]

    /// Asks every running job to stop after its seed in flight.
    func terminateAll() {
        signalAll(SIGTERM)
    }

    /// Stops every running job at once.
    func killAll() {
        signalAll(SIGKILL)
    }

    private func signalAll(_ number: Int32) {
        let ids = withState { $0.processes.values.filter { $0.isRunning }.map(\.processIdentifier) }
        for id in ids { kill(id, number) }
    }

    func waitAll() {
        let processes = withState { Array($0.processes.values) }
        for process in processes {
            process.waitUntilExit()
            // The last output may still be on its way to the handler.
            (process.standardOutput as? Pipe)?.fileHandleForReading.readabilityHandler = nil
        }
    }
}
