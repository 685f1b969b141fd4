import Baton
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `baton stress`: children that run the real store with the production background writer on one
/// real file, killed with SIGKILL at seeded moments; after each kill the file is checked against
/// the states the reference model allows (``StressCheck``).
///
/// Everything a child does is drawn from the seed: its workload (``StressWorkloadDrawer``) and
/// where the kill comes (after which report line, then how many microseconds later). The moment
/// itself is wall time, so two runs of one seed kill at nearby but not equal points; a violation
/// names the seed and the kill to rerun, and the file is kept.
package enum StressRun {
    package struct Options: Sendable {
        package var kills: Int
        package var seed: UInt64
        /// The image; every kill of the run uses it, so it grows and ages across kills.
        package var imagePath: String
        /// Where the workload file and the children's standard error go.
        package var directory: String
        /// The `baton` to run as the child (`baton stress --child …`).
        package var executable: URL
        /// A bug class switched on in every child (debug builds), to watch the check fail.
        package var mutant: Mutant?
        /// How many WAL pages the children's writer checkpoints at (production's 1,000 unless
        /// set): a few pages make kills land inside the writer's checkpoints.
        package var checkpointPages: Int

        package init(
            kills: Int, seed: UInt64, imagePath: String, directory: String, executable: URL, mutant: Mutant? = nil,
            checkpointPages: Int = ImageSchema.defaultCheckpointPages
        ) {
            self.kills = kills
            self.seed = seed
            self.imagePath = imagePath
            self.directory = directory
            self.executable = executable
            self.mutant = mutant
            self.checkpointPages = checkpointPages
        }
    }

    /// What a run found.
    package struct Outcome: Sendable {
        package var kills = 0
        /// At most one: the run stops at the first (the model no longer knows the file).
        package var violations: [String] = []
        /// Commits that returned in a child before its kill, each checked by the state found after.
        package var commitsChecked = 0
        /// Steps a completed drain covered (each had to be in the file).
        package var drainedChecked = 0
        /// Erases among those commits (``StressWorkload/eraseOperation``).
        package var erasesChecked = 0
        /// Kills that came before the child reported its open.
        package var killsDuringOpen = 0
        /// Kills that found the file holding more steps than a drain had reported.
        package var killsAheadOfReport = 0
        package var seconds = 0.0
    }

    /// The longest a child may take to reach the line the kill waits for.
    static let childTimeoutSeconds = 60.0

    /// Runs `options.kills` kills on one file; `progress` after each.
    package static func run(_ options: Options, progress: ((Int, Outcome) -> Void)? = nil) throws(StressError) -> Outcome {
        let world = World.standard
        var drawer = StressWorkloadDrawer(world: world, seed: options.seed)
        var random = SimRandom(seed: options.seed).split("kills")
        var check = StressCheck(world: world)
        var outcome = Outcome()
        let started = Date()
        let workloadPath = options.directory + "/workload"
        for number in 0..<options.kills {
            let count = random.int(4...48)
            let workload = drawer.next(count: count)
            let moment = KillMoment.draw(&random, steps: workload.steps.count)
            guard FileManager.default.createFile(atPath: workloadPath, contents: Data(workload.encoded())) else {
                throw StressError("cannot write \(workloadPath)")
            }
            let report = try runChild(options, workloadPath: workloadPath, moment: moment, kill: number)
            if let failure = report.failure { throw StressError("kill \(number): the child failed: \(failure)") }
            outcome.kills += 1
            if report.opened == nil { outcome.killsDuringOpen += 1 }
            outcome.commitsChecked += report.committed + 1
            outcome.erasesChecked += workload.steps.prefix(report.committed + 1).filter(\.isErase).count
            outcome.drainedChecked += report.drained + 1
            let verdict: StressCheck.Verdict
            switch StressCheck.observe(path: options.imagePath) {
            case .success(let observed):
                verdict = try check.check(
                    observed, workload: workload, report: report, eraseMarkBeside: EraseMark.isBeside(path: options.imagePath))
            case .failure(let problem):
                verdict = StressCheck.Verdict(violation: problem.description)
            }
            if let violation = verdict.violation {
                outcome.violations.append("kill \(number) (seed \(options.seed), \(moment)): \(violation)")
                break
            }
            if let landed = verdict.landedSteps, landed > report.drained + 1 { outcome.killsAheadOfReport += 1 }
            outcome.seconds = Date().timeIntervalSince(started)
            progress?(number + 1, outcome)
        }
        outcome.seconds = Date().timeIntervalSince(started)
        return outcome
    }

    /// When a child is killed, drawn from the seed.
    struct KillMoment: CustomStringConvertible {
        /// The report line to wait for (`nil`: none, kill `delay` after the start: during the open).
        var after: String?
        /// For `committed I`: wait for `opened` too (commits made while the image opens are
        /// buffered, so without it most kills would come before the open returned).
        var afterOpen = false
        var delayMicroseconds: Int

        static func draw(_ random: inout SimRandom, steps: Int) -> KillMoment {
            switch random.int(0...19) {
            case 0, 1: return KillMoment(after: nil, delayMicroseconds: random.int(0...60_000))
            case 2: return KillMoment(after: "opened", delayMicroseconds: random.int(0...2_000))
            case 3, 4: return KillMoment(after: "idle", delayMicroseconds: random.int(0...2_000))
            default:
                let step = random.int(0...(steps - 1))
                return KillMoment(after: "committed \(step)", afterOpen: random.chance(0.7), delayMicroseconds: random.int(0...3_000))
            }
        }

        /// True once the child's report has come as far as the line this moment waits for.
        func isReached(by report: StressChildReport) -> Bool {
            guard let after else { return true }
            if after == "opened" { return report.opened != nil }
            if after == "idle" { return report.idle }
            let step = Int(after.dropFirst("committed ".count)) ?? 0
            return (report.committed >= step && (!afterOpen || report.opened != nil)) || report.idle
        }

        var description: String {
            "killed \(delayMicroseconds) µs after " + (after.map { "`\($0)`" + (afterOpen ? " and `opened`" : "") } ?? "the start")
        }
    }

    /// Starts a child on the workload, kills it at `moment`, and collects its report.
    private static func runChild(_ options: Options, workloadPath: String, moment: KillMoment, kill index: Int) throws(StressError) -> StressChildReport {
        let process = Process()
        process.executableURL = options.executable
        var arguments = ["stress", "--child", "--image", options.imagePath, "--workload", workloadPath]
        if let mutant = options.mutant { arguments += ["--mutant", mutant.rawValue] }
        if options.checkpointPages != ImageSchema.defaultCheckpointPages { arguments += ["--checkpoint-pages", "\(options.checkpointPages)"] }
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        let errorsPath = options.directory + "/child-stderr.log"
        _ = FileManager.default.createFile(atPath: errorsPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: errorsPath)
        do {
            try process.run()
        } catch {
            throw StressError("kill \(index): cannot start \(options.executable.path): \(error)")
        }
        var reader = StressLineReader(descriptor: output.fileHandleForReading.fileDescriptor)
        var report = StressChildReport()
        let deadline = Date().addingTimeInterval(childTimeoutSeconds)
        if let target = moment.after {
            var reached = false
            while !reached, let line = reader.next(until: deadline) {
                report.take(line)
                reached = moment.isReached(by: report) || report.failure != nil
            }
            if !reached, process.isRunning {
                _ = kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw StressError(
                    "kill \(index): the child did not report `\(target)` within \(Int(childTimeoutSeconds)) s: a hang; its stderr: "
                        + lastLines(errorsPath))
            }
        }
        if moment.delayMicroseconds > 0 { usleep(UInt32(moment.delayMicroseconds)) }
        _ = kill(process.processIdentifier, SIGKILL)
        while let line = reader.next(until: deadline) { report.take(line) }
        process.waitUntilExit()
        if report.failure == nil, process.terminationReason == .exit {
            report.failure = "exited with status \(process.terminationStatus) before the kill: " + lastLines(errorsPath)
        }
        return report
    }

    /// The last lines a child wrote on standard error, on one line (a sanitizer's summary, a trap).
    private static func lastLines(_ path: String) -> String {
        let errors = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let lines = errors.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        let summary = lines.filter { $0.hasPrefix("SUMMARY:") }
        return (summary.isEmpty ? lines.suffix(3) : summary.prefix(3)).joined(separator: " / ")
    }
}

/// Lines from a pipe, read with `poll(2)` so a silent child cannot block the parent past a deadline.
struct StressLineReader {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    private var ended = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The next whole line, or `nil` at the end of the pipe or past `deadline`.
    mutating func next(until deadline: Date) -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            if ended { return nil }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left * 1000, 1000)))
            if ready < 0 && errno != EINTR { ended = true; continue }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { ended = true; continue }
            buffer += chunk[..<count]
        }
    }
}
