import Baton
import BatonSim
import Foundation
import Testing

@MainActor
@Suite("Campaigns: streams, stops, reports, regressions")
struct CampaignTests {
    private func plan(_ first: UInt64, _ last: UInt64?, events: Int = 20, mutant: Mutant? = nil) -> Campaign.Plan {
        var plan = Campaign.Plan(seeds: SeedStream(first: first, last: last), options: Simulation.Options(events: events, mutant: mutant))
        plan.determinismSample = 0
        return plan
    }

    @Test("an open-ended stream runs until it is told to stop, and says why")
    func stopsWhenTold() {
        var seen: [UInt64] = []
        var ticks = 0.0
        let campaign = Campaign(plan: plan(1_000, nil), elapsed: { ticks += 1; return ticks },
                                stop: { seen.count >= 4 ? .signal("SIGTERM") : nil })
        let summary = campaign.run { _, seed in seen.append(seed) }
        #expect(seen == [1_000, 1_001, 1_002, 1_003])
        #expect(summary.seeds == 4)
        #expect(summary.stopped == .signal("SIGTERM"))
        #expect(summary.seconds > 0)
    }

    @Test("a range that ends is not a stop")
    func rangeEnds() {
        let summary = Campaign(plan: plan(7, 9)).run()
        #expect(summary.seeds == 3)
        #expect(summary.stopped == nil)
        #expect(summary.passed)
    }

    @Test("the swarm a failure reports is the one its run drew (the trace's first line)", arguments: [0, 5, 77] as [UInt64])
    func swarmMatchesTrace(seed: UInt64) {
        let outcome = Simulation.run(seed: seed, options: .init(events: 1))
        #expect(outcome.trace.first == "seed \(seed) world rickandmorty swarm \(Campaign.swarm(for: seed))")
        guard case .object(let swarm) = Campaign.swarm(for: seed).json, case .object(let weights)? = swarm["weights"] else {
            Issue.record("the swarm's JSON has weights")
            return
        }
        #expect(weights.count == Swarm.Kind.allCases.count)
    }

    @Test("the JSON names the range, shard, events, jobs, build and SQLite, and every failure in seed order with its swarm")
    func report() throws {
        var summary = Campaign.Summary()
        summary.seeds = 12
        summary.stopped = .timeBudget
        for seed in [40, 3, 17] as [UInt64] {
            var failure = Campaign.Failure(seed: seed, violation: InvariantViolation(named: "image-equals-model", detail: "d\(seed)", at: Int(seed)))
            failure.swarm = Campaign.swarm(for: seed).json
            failure.replayPath = "replays/seed-\(seed).json"
            summary.failures.append(failure)
        }
        var setup = CampaignReport.Setup(seeds: SeedStream(first: 3, last: 99, shard: Shard(index: 1, count: 4)!), eventsPerSeed: 150)
        setup.jobs = 2
        setup.timeBudget = 600
        setup.build = ["version": "9.9", "commit": "abc"]
        let json = CampaignReport.json(summary, setup: setup)
        guard case .object(let o) = json, case .object(let seeds)? = o["seeds"], case .array(let failures)? = o["failures"] else {
            Issue.record("a report object")
            return
        }
        #expect(seeds["first"] == .int(3) && seeds["last"] == .int(99) && seeds["random"] == .bool(false) && seeds["run"] == .int(12))
        #expect(o["shard"] == .string("2/4"))
        #expect(o["eventsPerSeed"] == .int(150))
        #expect(o["jobs"] == .int(2))
        #expect(o["for"] == .double(600))
        #expect(o["stopped"] == .string("time budget"))
        #expect(o["build"] == .object(["version": .string("9.9"), "commit": .string("abc")]))
        guard case .string(let sqlite)? = o["sqlite"] else { Issue.record("the SQLite version"); return }
        #expect(sqlite.hasPrefix("3."))
        let order = failures.compactMap { item -> Int? in
            guard case .object(let f) = item, case .int(let seed)? = f["seed"] else { return nil }
            #expect(f["swarm"] != nil)
            #expect(f["replay"] == .string("replays/seed-\(seed).json"))
            #expect(f["invariant"] == .string("image-equals-model"))
            #expect(f["event"] == .int(seed))
            return seed
        }
        #expect(order == [3, 17, 40])
        let back = try #require(CampaignReport.summary(json))
        #expect(back.failuresBySeed.map(\.seed) == [3, 17, 40])
        #expect(back.failures.allSatisfy { $0.swarm != nil })
        #expect(back.stopped == .timeBudget)
        #expect(back.seeds == 12)
    }

    @Test("a seed too large for a JSON number is written as a string and read back")
    func largeSeed() throws {
        var summary = Campaign.Summary()
        summary.failures = [Campaign.Failure(seed: UInt64.max, violation: InvariantViolation(named: "x", detail: "", at: 0))]
        let json = CampaignReport.json(summary, setup: CampaignReport.Setup(seeds: SeedStream(first: UInt64.max, last: nil), eventsPerSeed: 1))
        #expect(try #require(CampaignReport.summary(json)).failures.first?.seed == UInt64.max)
    }

    @Test("the regressions folder is replayed first, by name, and a file that does not read is a failure")
    func regressionsFirst() throws {
        try TemporaryFolder.with { folder in
            let good = ReplayFile(seed: 1, invariant: "image-equals-model", events: [ScheduledEvent(.drain)])
            _ = try good.write(into: folder.path, name: "seed-1-image-equals-model.json")
            try "{\"baton-replay\":1,\"events\":[{\"event\":\"release\",\"token\":9}]}"
                .write(to: folder.appendingPathComponent("seed-0-broken.json"), atomically: true, encoding: .utf8)
            var plan = plan(0, 1)
            plan.replayRegressions = RegressionFolder(path: folder.path)
            let summary = Campaign(plan: plan).run()
            let regressions = try #require(summary.regressions)
            #expect(regressions.replayed == 2)
            #expect(regressions.failures.count == 1)
            #expect(regressions.failures.first?.path.hasSuffix("seed-0-broken.json") == true)
            #expect(regressions.failures.first?.violation.detail.contains("release of token 9 does nothing") == true)
            #expect(!summary.passed)
            #expect(summary.seeds == 2)
        }
    }

    #if BATON_MUTANTS
    /// What a campaign and `sim run` write for a failure whose schedule does not fail again when
    /// replayed (an `oracle-self-consistent` failure: the replay has no server): no replay file,
    /// and this page of the whole run instead.
    @Test("the timeline of a whole run from its seed, for a failure with no replay file to draw from")
    func wholeRunPicture() throws {
        try TemporaryFolder.with { folder in
            let options = Simulation.Options(events: 200, mutant: .partialSnapshotReplaces)
            let outcome = Simulation.run(seed: 0, options: options)
            let failure = try #require(outcome.failure)
            let page = folder.appendingPathComponent("seed-0.html").path
            try TimelineFile.write(running: 0, options: options, to: page)
            let html = try String(contentsOfFile: page, encoding: .utf8)
            #expect(html.contains("seed 0, the whole run (it did not fail again when replayed), mutant partialSnapshotReplaces"))
            #expect(html.contains(#""invariant":"\#(failure.invariant)""#))
            // Every event of the run up to the failing one, not a shrunk schedule.
            #expect(html.contains(#""index":\#(failure.eventIndex),"#))
            #expect(failure.eventIndex > 5)
        }
    }
    #endif

    #if BATON_MUTANTS
    @Test("--max-failures stops the stream; each failure is shrunk, written and saved as a regression that guards its mutant")
    func maxFailuresAndRegressions() throws {
        try TemporaryFolder.with { folder in
            var plan = plan(0, nil, events: 200, mutant: .partialSnapshotReplaces)
            plan.maxFailures = 2
            plan.shrinkBudget = 150
            plan.replayDirectory = folder.appendingPathComponent("replays").path
            plan.saveRegressions = RegressionFolder(path: folder.appendingPathComponent("regressions").path)
            let summary = Campaign(plan: plan).run()
            #expect(summary.failures.count == 2)
            #expect(summary.stopped == .maxFailures)
            for failure in summary.failures {
                #expect(failure.swarm != nil)
                #expect(failure.writeError == nil)
                let path = try #require(failure.regressionPath)
                let name = RegressionFolder.fileName(seed: failure.seed, invariant: failure.violation.invariant, mutant: .partialSnapshotReplaces)
                #expect(path.hasSuffix("/" + name))
                #expect(name == "seed-\(failure.seed)-\(failure.violation.invariant)-partialSnapshotReplaces.json")
                let file = try ReplayFile.parse(try String(contentsOfFile: path, encoding: .utf8))
                #expect(file.seed == failure.seed)
                #expect(file.invariant == failure.violation.invariant)
                #expect(file.guards == .partialSnapshotReplaces)
                #expect(file.mutant == nil)
                #expect(RegressionFolder.replay(path, mutant: nil) == nil, "a regression passes without its mutant")
                #expect(RegressionFolder.replay(path, mutant: .partialSnapshotReplaces)?.invariant == failure.violation.invariant)
                let replay = try ReplayFile.parse(try String(contentsOfFile: try #require(failure.replayPath), encoding: .utf8))
                #expect(replay.mutant == .partialSnapshotReplaces, "the replay file reproduces the failure as it was found")
            }
            // The next campaign under that mutant replays the regressions first and fails at once.
            var again = self.plan(0, 0, mutant: .partialSnapshotReplaces)
            again.replayRegressions = RegressionFolder(path: folder.appendingPathComponent("regressions").path)
            let second = Campaign(plan: again).run()
            #expect(second.regressions?.replayed == 2)
            #expect(second.regressions?.failures.count == 2)
        }
    }
    #endif
}
