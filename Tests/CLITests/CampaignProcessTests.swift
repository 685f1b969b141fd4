import Baton
import Foundation
import Testing

/// Campaigns as CI runs them: a spawned `baton` with its output in a pipe, stopped by a signal or
/// a time budget, and what it leaves behind.
@Suite("Campaigns in a process: signals, budgets, random starts, reports")
struct CampaignProcessTests {
    private func report(_ url: URL) throws -> [String: JSONValue] {
        let data = try Data(contentsOf: url)
        guard case .object(let object) = try JSONValue.parse(Array(data)) else { throw CancellationError() }
        return object.dictionary
    }

    /// The processes still alive whose command line mentions `marker`.
    private func processes(mentioning marker: String) -> [String] {
        processIDs(mentioning: marker).map(\.line)
    }

    /// The same, with their process ids, in id order.
    private func processIDs(mentioning marker: String) -> [(id: pid_t, line: String)] {
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return ids.compactMap { Int32($0) }.sorted().compactMap { id in
            guard let data = FileManager.default.contents(atPath: "/proc/\(id)/cmdline") else { return nil }
            let line = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            return line.contains(marker) ? (id, line) : nil
        }
    }

    @Test("SIGTERM: the seed in flight finishes, the summary prints, the JSON is written, exit 143")
    func terminated() throws {
        try TemporaryFolder.with { folder in
            let running = try BatonProcess.start(["sim", "campaign", "--seeds", "0..", "--events", "20", "--json", "report.json"], in: folder)
            #expect(running.waitFor("progress: ", timeout: 60), "a pipe gets a progress line at the first seed")
            kill(running.process.processIdentifier, SIGTERM)
            let result = running.finish()
            #expect(result.status == 143)
            #expect(result.stdout.contains("stopped early: SIGTERM"), "\(result.stdout)")
            #expect(result.stdout.contains("failures: 0"))
            let json = try report(folder.appendingPathComponent("report.json"))
            #expect(json["stopped"] == .string("SIGTERM"))
            #expect(json["passed"] == .bool(true))
            guard case .object(let seeds)? = json["seeds"], case .int(let run)? = seeds["run"] else {
                Issue.record("seeds in the report")
                return
            }
            #expect(run >= 1)
            #expect(seeds["last"] == .null)
        }
    }

    @Test("a fault that kills a campaign names the seed in flight and the command that reruns it")
    func crashNamesTheSeed() throws {
        try TemporaryFolder.with { folder in
            let running = try BatonProcess.start(["sim", "campaign", "--seeds", "7..", "--events", "20", "--regressions", "none", "--world", "github"], in: folder)
            #expect(running.waitFor("progress: ", timeout: 60))
            // A bad memory access as a bug in the store would raise it, while a seed runs.
            kill(running.process.processIdentifier, SIGSEGV)
            let result = running.finish()
            #expect(result.status == SIGSEGV, "the signal still ends the process: \(result.status)")
            let note = result.errorLines.first { $0.contains("crashed the process") }
            #expect(note?.hasPrefix("baton: seed ") == true, "\(result.stderr)")
            #expect(note?.contains("rerun it for its backtrace: swift run baton sim run --seed ") == true)
            #expect(note?.hasSuffix("--events 20 --world github") == true, "\(note ?? "")")
        }
    }

    @Test("--jobs 2: a job killed by a fault costs its seed in flight, named in the summary and the report; its later seeds run in a new process")
    func faultInAJob() throws {
        try TemporaryFolder.with { folder in
            let temporary = folder.appendingPathComponent("tmp")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            let running = try BatonProcess.start(["sim", "campaign", "--seeds", "0..29", "--events", "300", "--jobs", "2", "--json", "report.json",
                                                  "--regressions", "none"], in: folder, environment: ["TMPDIR": temporary.path])
            #expect(running.waitFor("progress: ", timeout: 60))
            Thread.sleep(forTimeInterval: 1.0)
            // A bad memory access in the store would raise it in the job running that seed.
            let job = processIDs(mentioning: temporary.path).first { $0.line.contains("job-1.json") }
            #expect(job != nil, "job 1 is running")
            if let job { kill(job.id, SIGSEGV) }
            let result = running.finish()
            #expect(result.status == 1, "a fault fails the campaign: \(result.stderr)")
            #expect(result.stdout.contains("process faults: 1 seed killed a job's process"), "\(result.stdout)")
            #expect(result.stdout.contains("the process died of SIGSEGV"))
            #expect(result.stdout.contains("rerun it for its backtrace: swift run baton sim run --seed "))
            let json = try report(folder.appendingPathComponent("report.json"))
            guard case .array(let faults)? = json["processFaults"], faults.count == 1, case .object(let fault) = faults[0],
                  case .int(let seed)? = fault.dictionary["seed"], case .object(let seeds)? = json["seeds"] else {
                Issue.record("one process fault in \(json)")
                return
            }
            #expect(fault.dictionary["signal"] == .string("SIGSEGV"))
            #expect(seed % 2 == 0 && seed < 30, "job 1 runs the even seeds: \(seed)")
            #expect(seeds.dictionary["run"] == .int(29), "every other seed ran, the job's later ones in a new process")
            #expect(json["passed"] == .bool(false))
            #expect(json["stopped"] == .null)
        }
    }

    @Test("SIGINT with --jobs 2: the jobs stop, their reports merge, their folder and processes are gone, exit 130")
    func interruptedJobs() throws {
        try TemporaryFolder.with { folder in
            let temporary = folder.appendingPathComponent("tmp")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            let running = try BatonProcess.start(["sim", "campaign", "--seeds", "0..", "--events", "20", "--jobs", "2", "--json", "report.json"],
                                                 in: folder, environment: ["TMPDIR": temporary.path])
            #expect(running.waitFor("progress: ", timeout: 60))
            // Let both jobs run a seed or two before the stop.
            Thread.sleep(forTimeInterval: 1.5)
            let jobs = processes(mentioning: temporary.path)
            #expect(jobs.count == 2, "two jobs run: \(jobs)")
            kill(running.process.processIdentifier, SIGINT)
            let result = running.finish()
            #expect(result.status == 130, "\(result.stderr)")
            #expect(result.stdout.contains("stopped early: SIGINT"), "\(result.stdout)")
            #expect(result.stdout.contains("2 jobs"))
            let json = try report(folder.appendingPathComponent("report.json"))
            #expect(json["stopped"] == .string("SIGINT"))
            #expect(json["jobs"] == .int(2))
            #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty, "the jobs' folder is removed")
            #expect(processes(mentioning: temporary.path).isEmpty, "no job outlives the campaign")
        }
    }

    @Test("--for: a time budget over a range of a billion seeds ends cleanly, with plain progress lines in a pipe")
    func timeBudget() throws {
        let result = try BatonProcess.run(["sim", "campaign", "--seeds", "0..1000000000", "--for", "1s", "--events", "10", "--no-shrink"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("stopped early: time budget"))
        #expect(result.stdout.contains("campaign: seeds 0..1000000000, shard 1/1, 10 events per seed, 1 job"))
        #expect(!result.stderr.contains("\r"), "a pipe gets lines, not a redrawn line")
        #expect(result.stderr.hasPrefix("progress: 1/1000000001 seeds"), "\(result.stderr)")
    }

    @Test("a range shorter than --jobs runs its seeds, and no empty job")
    func fewerSeedsThanJobs() throws {
        let result = try BatonProcess.run(["sim", "campaign", "--seeds", "5..5", "--jobs", "3", "--events", "10", "--regressions", "none"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("seeds 1, events"), "\(result.stdout)")
        #expect(result.errorLines.isEmpty, "\(result.stderr)")
    }

    @Test("--seeds random prints its first seed first, and the report says so")
    func randomStart() throws {
        try TemporaryFolder.with { folder in
            let result = try BatonProcess.run(["sim", "campaign", "--seeds", "random", "--for", "1s", "--events", "10", "--json", "r.json"], in: folder)
            #expect(result.status == 0, "\(result.stderr)")
            let first = try #require(result.stdout.split(separator: "\n").first.map(String.init))
            #expect(first.hasPrefix("seeds from ") && first.contains("drawn from the clock: --seeds "), "\(first)")
            let seed = try #require(first.split(separator: " ").dropFirst(2).first.flatMap { Int($0) })
            let json = try report(folder.appendingPathComponent("r.json"))
            guard case .object(let seeds)? = json["seeds"] else { Issue.record("seeds"); return }
            #expect(seeds["first"] == .int(seed))
            #expect(seeds["random"] == .bool(true))
            guard case .object(let build)? = json["build"] else { Issue.record("build"); return }
            #expect(build["version"] != nil && build["commit"] != nil && build["configuration"] != nil)
            #expect(json["sqlite"] != nil)
        }
    }

    #if BATON_MUTANTS
    @Test("--max-failures over --jobs stops every job and reports the failures in seed order")
    func maxFailuresOverJobs() throws {
        try TemporaryFolder.with { folder in
            let result = try BatonProcess.run(["sim", "campaign", "--seeds", "0..", "--jobs", "2", "--max-failures", "2",
                                               "--mutant", "partialSnapshotReplaces", "--json", "r.json", "--regressions", "none"], in: folder)
            #expect(result.status == 1, "\(result.stderr)")
            let json = try report(folder.appendingPathComponent("r.json"))
            #expect(json["stopped"] == .string("max failures"))
            guard case .array(let failures)? = json["failures"] else { Issue.record("failures"); return }
            #expect(failures.count >= 2)
            let seeds = failures.compactMap { item -> Int? in
                guard case .object(let f) = item, case .int(let seed)? = f["seed"] else { return nil }
                return seed
            }
            #expect(seeds == seeds.sorted())
            #expect(result.stdout.contains("shrunk to"), "\(result.stdout)")
        }
    }

    @Test("--quiet prints nothing for a campaign that passes, and every failure of one that fails")
    func quietShowsFailures() throws {
        try TemporaryFolder.with { folder in
            let passed = try BatonProcess.run(["sim", "campaign", "--seeds", "0..1", "--events", "30", "--quiet", "--regressions", "none"], in: folder)
            #expect(passed.status == 0, "\(passed.stderr)")
            #expect(passed.stdout.isEmpty, "\(passed.stdout)")
            // Before 2026-12-07 a quiet campaign that failed printed nothing but its exit status.
            let failed = try BatonProcess.run(["sim", "campaign", "--seeds", "0..2", "--quiet", "--mutant", "literalSkipReadAsInclude",
                                               "--regressions", "none", "--no-shrink"], in: folder)
            #expect(failed.status == 1, "\(failed.stderr)")
            let lines = failed.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("failures: ") == true, "\(failed.stdout)")
            #expect(lines.contains { $0.hasPrefix("  seed 0: ") }, "\(failed.stdout)")
            #expect(lines.contains { $0.contains("rerun: swift run baton sim run --seed 0 ") }, "\(failed.stdout)")
            #expect(!failed.stdout.contains("coverage:"), "\(failed.stdout)")
        }
    }
    #endif
}
