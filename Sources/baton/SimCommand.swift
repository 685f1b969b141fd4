import Baton
import BatonSim
import Foundation
import Synchronization

/// `baton sim run | campaign | replay | mutants`.
@MainActor
enum SimCommand {
    static func run(_ words: [String]) throws -> Int32 {
        guard let verb = words.first else { throw CLIError.usage("baton sim run|campaign|replay|mutants") }
        let rest = Array(words.dropFirst())
        switch verb {
        case "run": return try runOne(rest)
        case "campaign": return try campaign(rest)
        case "replay": return try replay(rest)
        case "mutants":
            return try mutants(rest)
        default:
            throw CLIError.usage("unknown sim command \(verb)")
        }
    }

    /// Lists the mutants; with `--check`, runs seeds for each until one fails and reports how
    /// many seeds that took, which invariant broke and how short the shrunk schedule is.
    private static func mutants(_ words: [String]) throws -> Int32 {
        var arguments = try Arguments(words, flagNames: ["check"])
        let check = arguments.flag("check")
        let seeds = try seedRange(arguments.option("seeds") ?? "0..39")
        let events = try arguments.integer("events") ?? 200
        try arguments.finish()
        guard check else {
            for mutant in Mutant.allCases {
                print("\(mutant.rawValue)\t\(mutant.summary)")
            }
            if !Mutants.available {
                print("(this is a release build: mutants are compiled into debug builds only; use `swift run baton sim …` without -c release)")
            }
            return 0
        }
        guard Mutants.available else {
            throw CLIError.failed("mutants are compiled into debug builds only: run `swift run baton sim mutants --check` without -c release")
        }
        var survivors = 0
        print("mutant\tfirst failing seed\tseeds run\tinvariant\tevents\tshrunk to")
        for mutant in Mutant.allCases {
            let options = Simulation.Options(events: events, mutant: mutant)
            var found: SimOutcome?
            var ran = 0
            for seed in seeds {
                ran += 1
                let outcome = Simulation.run(seed: seed, options: options)
                if outcome.failure != nil {
                    found = outcome
                    break
                }
            }
            guard let found, let failure = found.failure else {
                survivors += 1
                print("\(mutant.rawValue)\tnone\t\(ran)\tSURVIVED\t-\t-")
                continue
            }
            let shrunk = Campaign.shrink(found, options: options, budget: 400)
            print("\(mutant.rawValue)\t\(found.seed ?? 0)\t\(ran)\t\(failure.invariant)\t\(failure.eventIndex + 1)\t\(shrunk.events.count)")
        }
        return survivors == 0 ? 0 : 1
    }

    private static func mutant(_ arguments: inout Arguments) throws -> Mutant? {
        guard let name = arguments.option("mutant") else { return nil }
        guard let mutant = Mutant(rawValue: name) else {
            throw CLIError.usage("unknown mutant \(name); `baton sim mutants` lists them")
        }
        guard Mutants.available else {
            throw CLIError.failed("mutants are compiled into debug builds only: run `swift run baton sim …` without -c release")
        }
        return mutant
    }

    // MARK: run

    private static func runOne(_ words: [String]) throws -> Int32 {
        var arguments = try Arguments(words, flagNames: ["trace"])
        guard let seedText = arguments.option("seed"), let seed = UInt64(seedText) else { throw CLIError.usage("baton sim run --seed N") }
        let events = try arguments.integer("events") ?? 200
        let trace = arguments.flag("trace")
        let mutant = try mutant(&arguments)
        let replayDirectory = arguments.option("replays") ?? "replays"
        try arguments.finish()
        let options = Simulation.Options(events: events, mutant: mutant, echo: trace)
        let outcome = Simulation.run(seed: seed, options: options)
        print("seed \(seed): \(outcome.eventsRun) events, \(outcome.statesChecked) states checked, crashes \(outcome.crashes.total), trace \(outcome.traceHash)")
        guard let failure = outcome.failure else {
            print("passed")
            return 0
        }
        report(failure: failure, outcome: outcome, options: options, replayDirectory: replayDirectory)
        return 1
    }

    private static func report(failure: InvariantViolation, outcome: SimOutcome, options: Simulation.Options, replayDirectory: String) {
        print("FAILED: \(failure)")
        print("events around it:")
        let lines = outcome.trace.filter { $0.hasPrefix("#") }
        let at = lines.firstIndex { $0.hasPrefix("#\(failure.eventIndex) ") } ?? lines.count - 1
        for line in lines[max(0, at - 5)...min(lines.count - 1, at)] { print("  " + line) }
        print("shrinking…")
        let shrunk = Campaign.shrink(outcome, options: options, budget: 400)
        let file = ReplayFile(seed: outcome.seed, mutant: options.mutant, invariant: failure.description, events: shrunk.events)
        let path = replayDirectory + "/seed-\(outcome.seed ?? 0)" + (options.mutant.map { "-" + $0.rawValue } ?? "") + ".json"
        try? FileManager.default.createDirectory(atPath: replayDirectory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path, contents: Data(file.render().utf8))
        print("shrunk \(outcome.schedule.count) events to \(shrunk.events.count) in \(shrunk.replays) replays")
        print("replay file: \(path)")
        print("reproduce:   swift run baton sim replay \(path)")
        if let seed = outcome.seed {
            print("or rerun:    " + CampaignReport.reproduceCommand(seed: seed, events: options.events, mutant: options.mutant))
        }
    }

    // MARK: replay

    private static func replay(_ words: [String]) throws -> Int32 {
        var arguments = try Arguments(words, flagNames: ["trace"])
        let trace = arguments.flag("trace")
        let html = arguments.option("html")
        try arguments.finish()
        guard let path = arguments.positional.first else { throw CLIError.usage("baton sim replay FILE [--trace] [--html timeline.html]") }
        let file: ReplayFile
        do {
            file = try ReplayFile.parse(try readText(path))
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError.failed("\(path): \(error)")
        }
        if file.mutant != nil && !Mutants.available {
            throw CLIError.failed("\(path) names mutant \(file.mutant!.rawValue): mutants are compiled into debug builds only")
        }
        let options = Simulation.Options(events: file.events.count, mutant: file.mutant, echo: trace, recordsTimeline: html != nil)
        let outcome = Simulation.replay(file.events, seed: file.seed, options: options)
        print("replayed \(outcome.eventsRun) events, \(outcome.statesChecked) states checked, trace \(outcome.traceHash)")
        if let html, let timeline = outcome.timeline {
            do {
                try TimelinePage.render(timeline).write(toFile: html, atomically: true, encoding: .utf8)
            } catch {
                throw CLIError.failed("cannot write the timeline to \(html): \(error.localizedDescription)")
            }
            print("timeline: \(html)")
        }
        if let failure = outcome.failure {
            print("FAILED: \(failure)")
            if !trace {
                let lines = outcome.trace.filter { $0.hasPrefix("#") }
                for line in lines.suffix(6) { print("  " + line) }
            }
            return 1
        }
        print("passed")
        return 0
    }

    // MARK: campaign

    private static func seedRange(_ text: String) throws -> ClosedRange<UInt64> {
        let parts = text.components(separatedBy: "..")
        guard parts.count == 2, let low = UInt64(parts[0]), let high = UInt64(parts[1]), low <= high else {
            throw CLIError.usage("--seeds takes A..B, e.g. 0..999")
        }
        return low...high
    }

    private static func shard(_ text: String?) throws -> (index: Int, count: Int) {
        guard let text else { return (0, 1) }
        let parts = text.components(separatedBy: "/")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 1, i <= n else {
            throw CLIError.usage("--shard takes I/N with 1 ≤ I ≤ N, e.g. 2/4")
        }
        return (i - 1, n)
    }

    private static func campaign(_ words: [String]) throws -> Int32 {
        var arguments = try Arguments(words, flagNames: ["quiet", "progress-lines", "no-shrink"])
        let seeds = try seedRange(try arguments.required("seeds"))
        let jobs = max(1, try arguments.integer("jobs") ?? 1)
        var shard = try shard(arguments.option("shard"))
        if let internalShard = arguments.option("internal-shard") {
            let parts = internalShard.components(separatedBy: "/").compactMap(Int.init)
            if parts.count == 2 { shard = (parts[0], parts[1]) }
        }
        let events = try arguments.integer("events") ?? 200
        let jsonPath = arguments.option("json")
        let mutant = try mutant(&arguments)
        let quiet = arguments.flag("quiet")
        let progressLines = arguments.flag("progress-lines")
        let noShrink = arguments.flag("no-shrink")
        let replayDirectory = arguments.option("replays") ?? "replays"
        try arguments.finish()

        var plan = Campaign.Plan(seeds: seeds, options: Simulation.Options(events: events, mutant: mutant))
        plan.shard = shard
        plan.replayDirectory = noShrink ? nil : replayDirectory
        let summary: Campaign.Summary
        if jobs > 1 {
            summary = try runJobs(jobs: jobs, plan: plan, words: words, quiet: quiet)
        } else {
            summary = Campaign(plan: plan).run { summary, seed in
                if progressLines {
                    FileHandle.standardOutput.write(Data("progress \(summary.seeds) \(summary.events) \(summary.failures.count)\n".utf8))
                } else if !quiet {
                    progressLine(summary, total: plan.mySeeds.count, last: seed)
                }
            }
        }
        if !quiet && !progressLines { FileHandle.standardError.write(Data("\n".utf8)) }
        let json = CampaignReport.json(summary, mutant: mutant, jobs: jobs, events: events)
        if let jsonPath {
            _ = FileManager.default.createFile(atPath: jsonPath, contents: Data((prettyJSON(json) + "\n").utf8))
        }
        if !quiet && !progressLines {
            printSummary(summary, mutant: mutant, events: events)
        }
        return summary.failures.isEmpty && summary.determinismMismatches.isEmpty ? 0 : 1
    }

    private static func progressLine(_ summary: Campaign.Summary, total: Int, last: UInt64?) {
        let line = String(format: "\r%d/%d seeds, %d events, %d failures, %.1f seeds/s, %.0f events/s", summary.seeds, total, summary.events, summary.failures.count, summary.seedsPerSecond, summary.eventsPerSecond)
        FileHandle.standardError.write(Data(line.utf8))
    }

    private static func printSummary(_ summary: Campaign.Summary, mutant: Mutant?, events: Int) {
        print("seeds \(summary.seeds), events \(summary.events), states checked \(summary.statesChecked)")
        print("crashes: \(summary.crashes.kill) kills, \(summary.crashes.powerLoss) power losses, \(summary.crashes.quit) quits, \(summary.crashes.drainPartway) drains cut short, \(summary.crashes.corruptions) files overwritten with garbage; \(summary.crashes.faults) disk faults")
        print(String(format: "%.1f seeds/s, %.0f events/s over %.1f s", summary.seedsPerSecond, summary.eventsPerSecond, summary.seconds))
        print("determinism: \(summary.determinismChecked) seeds run twice, \(summary.determinismMismatches.count) mismatches")
        for mismatch in summary.determinismMismatches { print("  NONDETERMINISTIC \(mismatch)") }
        print("failures: \(summary.failures.count)")
        for failure in summary.failures.prefix(20) {
            print("  seed \(failure.seed): \(failure.violation)")
            if let path = failure.replayPath {
                print("    shrunk to \(failure.shrunkLength ?? 0) events: swift run baton sim replay \(path)")
            }
            print("    rerun: " + CampaignReport.reproduceCommand(seed: failure.seed, events: events, mutant: mutant))
        }
    }

    /// Runs the campaign over `jobs` child processes of this executable, each a shard of this shard.
    private static func runJobs(jobs: Int, plan: Campaign.Plan, words: [String], quiet: Bool) throws -> Campaign.Summary {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-campaign-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let progress = Mutex([Int: (seeds: Int, events: Int, failures: Int)]())
        var children: [(Process, String)] = []
        let total = plan.mySeeds.count
        let start = Date()
        for job in 0..<jobs {
            let json = directory + "/shard-\(job).json"
            var childWords = ["sim", "campaign", "--seeds", "\(plan.seeds.lowerBound)..\(plan.seeds.upperBound)",
                              "--internal-shard", "\(plan.shard.index + plan.shard.count * job)/\(plan.shard.count * jobs)",
                              "--events", "\(plan.options.events)", "--json", json, "--progress-lines"]
            if let mutant = plan.options.mutant { childWords += ["--mutant", mutant.rawValue] }
            if let replays = plan.replayDirectory { childWords += ["--replays", replays] } else { childWords.append("--no-shrink") }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = childWords
            let pipe = Pipe()
            process.standardOutput = pipe
            pipe.fileHandleForReading.readabilityHandler = { handle in
                let text = String(decoding: handle.availableData, as: UTF8.self)
                for line in text.split(separator: "\n") where line.hasPrefix("progress ") {
                    let numbers = line.split(separator: " ").dropFirst().compactMap { Int($0) }
                    if numbers.count == 3 { progress.withLock { $0[job] = (numbers[0], numbers[1], numbers[2]) } }
                }
            }
            try process.run()
            children.append((process, json))
        }
        while children.contains(where: { $0.0.isRunning }) {
            Thread.sleep(forTimeInterval: 0.5)
            if !quiet {
                let (seeds, events, failures) = progress.withLock { p in p.values.reduce((0, 0, 0)) { ($0.0 + $1.seeds, $0.1 + $1.events, $0.2 + $1.failures) } }
                let seconds = Date().timeIntervalSince(start)
                let line = String(format: "\r%d/%d seeds, %d events, %d failures, %.1f seeds/s, %.0f events/s (%d jobs)", seeds, total, events, failures, Double(seeds) / max(seconds, 0.001), Double(events) / max(seconds, 0.001), jobs)
                FileHandle.standardError.write(Data(line.utf8))
            }
        }
        var summary = Campaign.Summary()
        for (process, json) in children {
            process.waitUntilExit()
            guard let data = FileManager.default.contents(atPath: json), let value = try? JSONValue.parse(Array(data)),
                  let shard = CampaignReport.summary(value) else {
                throw CLIError.failed("a campaign job exited with status \(process.terminationStatus) and left no summary")
            }
            summary.merge(shard)
        }
        summary.seconds = Date().timeIntervalSince(start)
        return summary
    }
}
