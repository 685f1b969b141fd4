import Baton
import Foundation

/// A stream of seeds, run one after another in this process, with the results a campaign reports.
///
/// The campaign replays its regressions folder first, then runs its shard's seeds until the
/// range ends, `stop` gives a reason (a signal, a time budget) or `maxFailures` is reached. A
/// failing seed is rerun (determinism), shrunk, written as a replay file and, when asked, saved
/// as a regression.
@MainActor
package struct Campaign {
    /// What a campaign was asked to do.
    package struct Plan: Sendable {
        package var seeds: SeedStream
        package var options: Simulation.Options
        /// Every how many seeds the determinism self-check reruns one (0: never; failures always).
        package var determinismSample: Int = 25
        /// Shrink failures and write replay files here (nil: do not shrink).
        package var replayDirectory: String?
        /// Replay every file of this folder before the first seed.
        package var replayRegressions: RegressionFolder?
        /// Save each shrunk failure into this folder as a regression.
        package var saveRegressions: RegressionFolder?
        package var shrinkBudget = 300
        /// Stop once this many failures are found (regressions that fail count).
        package var maxFailures: Int?

        package init(seeds: SeedStream, options: Simulation.Options) {
            self.seeds = seeds
            self.options = options
        }
    }

    package let plan: Plan
    /// Seconds since the campaign started: throughput only, it never reaches a run.
    package var elapsed: () -> Double
    /// Asked before each seed and each shrinking replay; a reason ends the campaign.
    package var stop: () -> StopReason?
    /// Told each seed as it starts (the CLI keeps a line naming it, for a process that dies).
    package var starting: (UInt64) -> Void = { _ in }

    package init(plan: Plan, elapsed: @escaping () -> Double = Campaign.stopwatch(), stop: @escaping () -> StopReason? = { nil }) {
        self.plan = plan
        self.elapsed = elapsed
        self.stop = stop
    }

    /// A clock of seconds since the call, from the monotonic clock.
    package nonisolated static func stopwatch() -> () -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        return {
            let duration = clock.now - start
            return Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        }
    }

    /// Runs the regressions, then the shard's seeds; `progress` is called after each seed.
    package func run(progress: (Summary, UInt64) -> Void = { _, _ in }) -> Summary {
        var summary = Summary()
        if let folder = plan.replayRegressions {
            summary.regressions = folder.replayAll(mutant: plan.options.mutant, world: plan.options.world)
        }
        var position: UInt64 = 0
        while let seed = plan.seeds.seed(at: position) {
            if let reason = stop() {
                summary.stopped = reason
                break
            }
            if let limit = plan.maxFailures, summary.failures.count + (summary.regressions?.failures.count ?? 0) >= limit {
                summary.stopped = .maxFailures
                break
            }
            starting(seed)
            let outcome = Simulation.run(seed: seed, options: plan.options)
            summary.seeds += 1
            summary.events += outcome.eventsRun
            summary.crashes = summary.crashes + outcome.crashes
            summary.statesChecked += outcome.statesChecked
            summary.coverage = summary.coverage + outcome.coverage
            let sampled = plan.determinismSample > 0 && position % UInt64(plan.determinismSample) == 0
            if sampled || outcome.failure != nil {
                summary.determinismChecked += 1
                if let mismatch = Determinism.compare(outcome, Simulation.run(seed: seed, options: plan.options)) {
                    summary.determinismMismatches.append("seed \(seed): \(mismatch)")
                }
            }
            if let violation = outcome.failure {
                summary.failures.append(failure(outcome, seed: seed, violation: violation))
            }
            position += 1
            summary.seconds = elapsed()
            progress(summary, seed)
        }
        summary.seconds = elapsed()
        return summary
    }

    /// A failing seed's report: its swarm, then its shrunk schedule written as a replay file and,
    /// when asked, as a regression.
    private func failure(_ outcome: SimOutcome, seed: UInt64, violation: InvariantViolation) -> Failure {
        var failure = Failure(seed: seed, violation: violation)
        failure.swarm = Self.swarm(for: seed, world: plan.options.world).json
        guard let directory = plan.replayDirectory else { return failure }
        let mutant = plan.options.mutant
        let shrunk = Self.shrink(outcome, options: plan.options, budget: plan.shrinkBudget, shouldStop: { stop() != nil })
        failure.replays = shrunk.replays
        let world = plan.options.world
        let name = ReplayFile.fileName(seed: seed, mutant: mutant)
        guard shrunk.reproduces else {
            failure.writeError = Self.unreproduced(violation)
            // No replay file to draw from: the page shows the whole run from the seed instead.
            do {
                failure.timelinePath = try TimelineFile.write(running: seed, options: plan.options, into: directory, besideReplay: name)
            } catch {
                failure.writeError = Self.unreproduced(violation) + "; no timeline: \(error)"
            }
            return failure
        }
        failure.shrunkLength = shrunk.events.count
        let file = ReplayFile(
            seed: seed, mutant: mutant, invariant: violation.invariant, detail: violation.detail,
            world: world.name == World.defaultName ? nil : world.name, disk: Self.swarm(for: seed, world: world).disk,
            writerBound: outcome.writerBound, store: outcome.store, events: shrunk.events)
        do {
            let path = try file.write(into: directory, name: name)
            failure.replayPath = path
            let page = TimelineFile.path(besideReplay: path)
            var timelineOptions = plan.options
            timelineOptions.writerBound = timelineOptions.writerBound ?? outcome.writerBound
            timelineOptions.store = timelineOptions.store ?? outcome.store
            try TimelineFile.write(replaying: shrunk.events, seed: seed, options: timelineOptions, to: page)
            failure.timelinePath = page
        } catch {
            failure.writeError = "\(error)"
        }
        if let folder = plan.saveRegressions {
            do {
                failure.regressionPath = try folder.save(seed: seed, violation: violation, mutant: mutant,
                                                         eventsPerSeed: plan.options.events, events: shrunk.events, world: world,
                                                         writerBound: outcome.writerBound, store: outcome.store)
            } catch {
                failure.writeError = "\(error)"
            }
        }
        return failure
    }

    /// The swarm the run of `seed` in `world` draws (the runner draws it the same way first).
    package nonisolated static func swarm(for seed: UInt64, world: World = .standard) -> Swarm {
        Simulation.swarm(for: seed, world: world)
    }

    /// A shrunk schedule.
    package struct ShrunkSchedule: Sendable {
        /// The smallest schedule found that breaks the same invariant; every event does something.
        package var events: [ScheduledEvent]
        package var replays: Int
        /// False when no schedule without do-nothing events failed again: `events` is the
        /// recorded schedule then, and no replay file should be written from it.
        package var reproduces: Bool
    }

    /// Shrinks a failing run's schedule to the smallest that breaks the same invariant, without
    /// events that would do nothing (so that a replay file holding it reads back).
    /// Why a failing run has no replay file: its schedule did not fail again when replayed. The
    /// simulator's own server and model disagreeing (`oracle-self-consistent`) is only seen in a
    /// run from the seed, because a replay has the responses' text and not the server's execution.
    package static func unreproduced(_ violation: InvariantViolation) -> String {
        if violation.invariant == "oracle-self-consistent" {
            return "the simulator's own server and model disagree (BatonSim's bug, not the store's), which only a run from the seed shows: a replay has the responses' text, not the server's execution; no replay file was written"
        }
        return "its schedule did not fail again when replayed, so no replay file was written"
    }

    package static func shrink(_ outcome: SimOutcome, options: Simulation.Options, budget: Int,
                               shouldStop: @escaping () -> Bool = { false }) -> ShrunkSchedule {
        guard let failure = outcome.failure else { return ShrunkSchedule(events: outcome.schedule, replays: 0, reproduces: false) }
        var quiet = options
        quiet.echo = false
        quiet.recordsTimeline = false
        quiet.writerBound = quiet.writerBound ?? outcome.writerBound
        quiet.store = quiet.store ?? outcome.store
        var shrinker = Shrinker<ScheduledEvent>(budget: budget)
        let world = options.world
        let disk = outcome.seed.map { Self.swarm(for: $0, world: world).disk }
        shrinker.normalize = { ScheduleCheck.withoutNoOps($0, world: world) }
        shrinker.shouldStop = shouldStop
        let result = shrinker.shrink(outcome.schedule, failingAt: failure.eventIndex) { candidate in
            Simulation.replay(candidate, seed: outcome.seed, disk: disk, options: quiet).failure?.invariant == failure.invariant
        }
        return ShrunkSchedule(events: result.schedule, replays: result.replays, reproduces: result.reproduces)
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
