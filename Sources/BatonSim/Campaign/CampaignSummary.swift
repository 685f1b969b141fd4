import Baton

extension Campaign {
    /// Why a campaign ended before its last seed.
    package enum StopReason: Hashable, Sendable, CustomStringConvertible {
        /// A signal asked it to stop (`SIGINT`, `SIGTERM`).
        case signal(String)
        /// Its time budget (`--for`) ran out.
        case timeBudget
        /// It found as many failures as `--max-failures` allows.
        case maxFailures

        package var description: String {
            switch self {
            case .signal(let name): name
            case .timeBudget: "time budget"
            case .maxFailures: "max failures"
            }
        }

        /// Reads back ``description``.
        package init?(_ text: String) {
            switch text {
            case "time budget": self = .timeBudget
            case "max failures": self = .maxFailures
            case let name where name.hasPrefix("SIG"): self = .signal(name)
            default: return nil
            }
        }
    }

    /// One failing seed, shrunk.
    package struct Failure: Sendable {
        package var seed: UInt64
        package var violation: InvariantViolation
        /// The seed's swarm configuration, as JSON (see ``Campaign/swarm(for:)``).
        package var swarm: JSONValue?
        package var shrunkLength: Int?
        package var replayPath: String?
        /// The shrunk schedule's timeline page, beside its replay file.
        package var timelinePath: String?
        /// Where the failure was saved as a regression, if it was.
        package var regressionPath: String?
        /// Why no replay file (or regression) was written, when one should have been.
        package var writeError: String?
        package var replays: Int = 0

        package init(seed: UInt64, violation: InvariantViolation) {
            self.seed = seed
            self.violation = violation
        }
    }

    /// A regression file that failed when the campaign replayed its folder first.
    package struct RegressionFailure: Sendable {
        package var path: String
        /// The broken invariant, or the reason the file does not read.
        package var violation: InvariantViolation
    }

    /// What replaying the regressions folder found.
    package struct RegressionReport: Sendable {
        package var folder: String
        package var replayed = 0
        package var failures: [RegressionFailure] = []

        package init(folder: String) {
            self.folder = folder
        }
    }

    /// A seed whose run killed its job's process (a trap or a bad memory access in the store or
    /// the simulator): a failure with no replay, since nothing of the run survived but its seed.
    /// Only a campaign with `--jobs` lives through one; the parent records it and runs the job's
    /// remaining seeds in a new process.
    package struct ProcessFault: Hashable, Sendable {
        package var seed: UInt64
        /// The signal that ended the process (`SIGILL` for Swift's traps).
        package var signal: String

        package init(seed: UInt64, signal: String) {
            self.seed = seed
            self.signal = signal
        }
    }

    /// What a campaign found.
    package struct Summary: Sendable {
        package var seeds = 0
        package var events = 0
        package var failures: [Failure] = []
        /// Seeds that killed their process, in the order the parent met them.
        package var processFaults: [ProcessFault] = []
        package var crashes = CrashCounts()
        package var statesChecked = 0
        /// The paths the seeds' rules took, added up.
        package var coverage = Coverage()
        package var seconds: Double = 0
        package var determinismChecked = 0
        package var determinismMismatches: [String] = []
        /// Why the campaign ended early (nil: it ran every seed of its range).
        package var stopped: StopReason?
        package var regressions: RegressionReport?

        package init() {}

        package var seedsPerSecond: Double { seconds > 0 ? Double(seeds) / seconds : 0 }
        package var eventsPerSecond: Double { seconds > 0 ? Double(events) / seconds : 0 }

        /// True when nothing failed: no seed, no process, no regression, no determinism check.
        package var passed: Bool {
            failures.isEmpty && processFaults.isEmpty && determinismMismatches.isEmpty && (regressions?.failures.isEmpty ?? true)
        }

        /// The failures in seed order.
        package var failuresBySeed: [Failure] {
            failures.sorted { $0.seed < $1.seed }
        }

        /// Adds another shard's summary (its time runs alongside, so seconds are not added).
        package mutating func merge(_ other: Summary) {
            seeds += other.seeds
            events += other.events
            failures += other.failures
            processFaults += other.processFaults
            crashes = crashes + other.crashes
            statesChecked += other.statesChecked
            coverage = coverage + other.coverage
            determinismChecked += other.determinismChecked
            determinismMismatches += other.determinismMismatches
            stopped = stopped ?? other.stopped
        }
    }
}

extension InvariantViolation {
    /// A violation as a report reads it back (outside BatonSim, where the memberwise one is not seen).
    package init(named invariant: String, detail: String, at eventIndex: Int) {
        self.invariant = invariant
        self.detail = detail
        self.eventIndex = eventIndex
    }
}
