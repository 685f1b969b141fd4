import Baton
import Foundation

/// A range of seeds, run one after another in this process, with the results a campaign reports.
@MainActor
package struct Campaign {
    /// What a campaign was asked to do.
    package struct Plan: Sendable {
        package var seeds: ClosedRange<UInt64>
        /// This process runs the seeds whose offset from the first is `shard.index` modulo `shard.count`.
        package var shard: (index: Int, count: Int) = (0, 1)
        package var options: Simulation.Options
        /// Every how many seeds the determinism self-check reruns one (0: never; failures always).
        package var determinismSample: Int = 25
        /// Shrink failures and write replay files here (nil: do not shrink).
        package var replayDirectory: String?
        package var shrinkBudget = 300

        package init(seeds: ClosedRange<UInt64>, options: Simulation.Options) {
            self.seeds = seeds
            self.options = options
        }

        /// The seeds this shard runs.
        package var mySeeds: [UInt64] {
            seeds.filter { Int(($0 - seeds.lowerBound) % UInt64(shard.count)) == shard.index }
        }
    }

    /// One failing seed, shrunk.
    package struct Failure: Sendable {
        package var seed: UInt64
        package var violation: InvariantViolation
        package var shrunkLength: Int?
        package var replayPath: String?
        package var replays: Int = 0
    }

    /// What a campaign found.
    package struct Summary: Sendable {
        package var seeds = 0
        package var events = 0
        package var failures: [Failure] = []
        package var crashes = CrashCounts()
        package var statesChecked = 0
        package var seconds: Double = 0
        package var determinismChecked = 0
        package var determinismMismatches: [String] = []

        package init() {}

        package var seedsPerSecond: Double { seconds > 0 ? Double(seeds) / seconds : 0 }
        package var eventsPerSecond: Double { seconds > 0 ? Double(events) / seconds : 0 }

        /// Adds another shard's summary.
        package mutating func merge(_ other: Summary) {
            seeds += other.seeds
            events += other.events
            failures += other.failures
            crashes = crashes + other.crashes
            statesChecked += other.statesChecked
            determinismChecked += other.determinismChecked
            determinismMismatches += other.determinismMismatches
        }
    }

    package let plan: Plan

    package init(plan: Plan) {
        self.plan = plan
    }

    /// Runs the shard's seeds; `progress` is called after each seed.
    package func run(progress: (Summary, UInt64) -> Void = { _, _ in }) -> Summary {
        var summary = Summary()
        let start = Date()
        for (position, seed) in plan.mySeeds.enumerated() {
            let outcome = Simulation.run(seed: seed, options: plan.options)
            summary.seeds += 1
            summary.events += outcome.eventsRun
            summary.crashes = summary.crashes + outcome.crashes
            summary.statesChecked += outcome.statesChecked
            let sampled = plan.determinismSample > 0 && position % plan.determinismSample == 0
            if sampled || outcome.failure != nil {
                summary.determinismChecked += 1
                if let mismatch = Determinism.compare(outcome, Simulation.run(seed: seed, options: plan.options)) {
                    summary.determinismMismatches.append("seed \(seed): \(mismatch)")
                }
            }
            if let violation = outcome.failure {
                var failure = Failure(seed: seed, violation: violation)
                if let directory = plan.replayDirectory {
                    let shrunk = Self.shrink(outcome, options: plan.options, budget: plan.shrinkBudget)
                    failure.shrunkLength = shrunk.events.count
                    failure.replays = shrunk.replays
                    let path = directory + "/seed-\(seed)" + (plan.options.mutant.map { "-" + $0.rawValue } ?? "") + ".json"
                    let file = ReplayFile(seed: seed, mutant: plan.options.mutant, invariant: violation.description, events: shrunk.events)
                    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                    if FileManager.default.createFile(atPath: path, contents: Data(file.render().utf8)) {
                        failure.replayPath = path
                    }
                }
                summary.failures.append(failure)
            }
            summary.seconds = Date().timeIntervalSince(start)
            progress(summary, seed)
        }
        summary.seconds = Date().timeIntervalSince(start)
        return summary
    }

    /// Shrinks a failing run's schedule to the smallest that breaks the same invariant.
    package static func shrink(_ outcome: SimOutcome, options: Simulation.Options, budget: Int) -> (events: [ScheduledEvent], replays: Int) {
        guard let failure = outcome.failure else { return (outcome.schedule, 0) }
        var quiet = options
        quiet.echo = false
        let result = Shrinker(budget: budget).shrink(outcome.schedule, failingAt: failure.eventIndex) { candidate in
            Simulation.replay(candidate, seed: outcome.seed, options: quiet).failure?.invariant == failure.invariant
        }
        return (result.schedule, result.replays)
    }
}

/// The determinism self-check: the same seed must give the same trace in any process.
package enum Determinism {
    /// Nil when two runs agree; otherwise the first differing trace line.
    package static func compare(_ a: SimOutcome, _ b: SimOutcome) -> String? {
        if a.traceHash == b.traceHash { return nil }
        for (index, (x, y)) in zip(a.trace, b.trace).enumerated() where x != y {
            return "trace line \(index) differs: \(x) | \(y)"
        }
        if a.trace.count != b.trace.count { return "traces differ in length: \(a.trace.count) vs \(b.trace.count)" }
        return "the final disk differs (trace hashes \(a.traceHash) vs \(b.traceHash))"
    }
}
