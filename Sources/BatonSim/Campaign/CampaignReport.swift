import Baton
import CSQLite

/// A campaign's report as JSON: what `--json` writes, and how the jobs of `--jobs` hand their
/// summaries to the parent.
package enum CampaignReport {
    /// The report's format version.
    package static let formatVersion = 1

    /// How the campaign was run, as the report names it.
    package struct Setup: Sendable {
        package var seeds: SeedStream
        /// True when `--seeds random` drew the first seed from the clock.
        package var randomStart = false
        package var eventsPerSeed: Int
        package var jobs = 1
        package var mutant: Mutant?
        /// `--for`, in seconds.
        package var timeBudget: Double?
        package var maxFailures: Int?
        /// The words that name the campaign's world on a command line (`--world github`; empty
        /// for the default world), so a failure's rerun command runs it in the same world.
        package var worldWords: [String] = []
        /// The build: version, git commit ("unknown" when not known), configuration.
        package var build: [String: String] = [:]

        package init(seeds: SeedStream, eventsPerSeed: Int) {
            self.seeds = seeds
            self.eventsPerSeed = eventsPerSeed
        }
    }

    /// The SQLite library this process runs on (the system's, so it can differ between machines).
    package static var sqliteVersion: String {
        String(cString: sqlite3_libversion())
    }

    package static func json(_ summary: Campaign.Summary, setup: Setup) -> JSONValue {
        let failures: [JSONValue] = summary.failuresBySeed.map { failure in
            var object: [String: JSONValue] = [
                "seed": seedJSON(failure.seed),
                "invariant": .string(failure.violation.invariant),
                "detail": .string(failure.violation.detail),
                "event": .int(failure.violation.eventIndex),
                "reproduce": .string(reproduceCommand(seed: failure.seed, events: setup.eventsPerSeed, mutant: setup.mutant, world: setup.worldWords)),
                "shrinkReplays": .int(failure.replays),
            ]
            if let swarm = failure.swarm { object["swarm"] = swarm }
            if let length = failure.shrunkLength { object["shrunkLength"] = .int(length) }
            if let path = failure.replayPath {
                object["replay"] = .string(path)
                object["replayCommand"] = .string(replayCommand(path: path, world: setup.worldWords))
            }
            if let path = failure.timelinePath { object["timeline"] = .string(path) }
            if let path = failure.regressionPath { object["regression"] = .string(path) }
            Self.describe(failure.violation, into: &object)
            if let error = failure.writeError { object["writeError"] = .string(error) }
            return .object(object)
        }
        var report: [String: JSONValue] = [
            "baton-campaign": .int(formatVersion),
            "build": .object(setup.build.mapValues { .string($0) }),
            "sqlite": .string(sqliteVersion),
            "seeds": .object([
                "first": seedJSON(setup.seeds.first),
                "last": setup.seeds.last.map(seedJSON) ?? .null,
                "random": .bool(setup.randomStart),
                "run": .int(summary.seeds),
            ]),
            "shard": .string(setup.seeds.shard.description),
            "eventsPerSeed": .int(setup.eventsPerSeed),
            "jobs": .int(setup.jobs),
            "mutant": setup.mutant.map { .string($0.rawValue) } ?? .null,
            "for": setup.timeBudget.map { .double($0) } ?? .null,
            "maxFailures": setup.maxFailures.map { .int($0) } ?? .null,
            "stopped": summary.stopped.map { .string($0.description) } ?? .null,
            "passed": .bool(summary.passed),
            "events": .int(summary.events),
            "failures": .array(failures),
            "processFaults": .array(summary.processFaults.sorted { $0.seed < $1.seed }.map { fault in
                .object([
                    "seed": seedJSON(fault.seed),
                    "signal": .string(fault.signal),
                    "reproduce": .string(reproduceCommand(seed: fault.seed, events: setup.eventsPerSeed, mutant: setup.mutant, world: setup.worldWords)),
                ])
            }),
            "crashes": .object([
                "kill": .int(summary.crashes.kill), "powerLoss": .int(summary.crashes.powerLoss),
                "quit": .int(summary.crashes.quit), "drainPartway": .int(summary.crashes.drainPartway),
                "faults": .int(summary.crashes.faults), "corruptions": .int(summary.crashes.corruptions),
                "openCrashes": .int(summary.crashes.openCrashes), "quitCrashes": .int(summary.crashes.quitCrashes),
                "total": .int(summary.crashes.total),
            ]),
            "statesChecked": .int(summary.statesChecked),
            "coverage": summary.coverage.json,
            "seconds": .double(summary.seconds),
            "seedsPerSecond": .double(summary.seedsPerSecond),
            "eventsPerSecond": .double(summary.eventsPerSecond),
            "determinism": .object([
                "checked": .int(summary.determinismChecked),
                "mismatches": .array(summary.determinismMismatches.map { .string($0) }),
            ]),
        ]
        if let regressions = summary.regressions {
            report["regressions"] = .object([
                "folder": .string(regressions.folder),
                "replayed": .int(regressions.replayed),
                "failures": .array(regressions.failures.map { failure in
                    .object([
                        "file": .string(failure.path),
                        "invariant": .string(failure.violation.invariant),
                        "detail": .string(failure.violation.detail),
                        "event": .int(failure.violation.eventIndex),
                    ].merging(Self.described(failure.violation)) { old, _ in old })
                }),
            ])
        }
        return .object(report)
    }

    /// Reads back the summary in a report written by ``json(_:setup:)`` (a job's); nil when it is
    /// not one.
    package static func summary(_ value: JSONValue) -> Campaign.Summary? {
        guard case .object(let o) = value, case .int(formatVersion)? = o["baton-campaign"],
              case .object(let seeds)? = o["seeds"] else { return nil }
        var summary = Campaign.Summary()
        summary.seeds = int(seeds["run"])
        summary.events = int(o["events"])
        summary.statesChecked = int(o["statesChecked"])
        summary.coverage = Coverage(json: o["coverage"])
        summary.seconds = double(o["seconds"])
        summary.stopped = string(o["stopped"]).flatMap(Campaign.StopReason.init)
        if case .object(let c)? = o["crashes"] {
            summary.crashes = CrashCounts(kill: int(c["kill"]), powerLoss: int(c["powerLoss"]), quit: int(c["quit"]),
                                          drainPartway: int(c["drainPartway"]), faults: int(c["faults"]),
                                          corruptions: int(c["corruptions"]), openCrashes: int(c["openCrashes"]),
                                          quitCrashes: int(c["quitCrashes"]))
        }
        if case .object(let d)? = o["determinism"] {
            summary.determinismChecked = int(d["checked"])
            if case .array(let m)? = d["mismatches"] { summary.determinismMismatches = m.compactMap(string) }
        }
        if case .array(let faults)? = o["processFaults"] {
            for item in faults {
                guard case .object(let f) = item, let seed = seed(f["seed"]), let signal = string(f["signal"]) else { return nil }
                summary.processFaults.append(Campaign.ProcessFault(seed: seed, signal: signal))
            }
        }
        if case .array(let failures)? = o["failures"] {
            for item in failures {
                guard case .object(let f) = item, let seed = seed(f["seed"]) else { return nil }
                let violation = InvariantViolation(invariant: string(f["invariant"]) ?? "", detail: string(f["detail"]) ?? "",
                                                   eventIndex: int(f["event"]))
                var failure = Campaign.Failure(seed: seed, violation: Self.readDescription(f, into: violation))
                failure.swarm = f["swarm"]
                if f["shrunkLength"] != nil { failure.shrunkLength = int(f["shrunkLength"]) }
                failure.replayPath = string(f["replay"])
                failure.timelinePath = string(f["timeline"])
                failure.regressionPath = string(f["regression"])
                failure.writeError = string(f["writeError"])
                failure.replays = int(f["shrinkReplays"])
                summary.failures.append(failure)
            }
        }
        return summary
    }

    /// A violation's parts beyond its one-line `detail`: the `headline` without the differences,
    /// each `differences` line, and the `failingEvent`'s trace line.
    static func described(_ violation: InvariantViolation) -> [String: JSONValue] {
        var object: [String: JSONValue] = [:]
        Self.describe(violation, into: &object)
        return object
    }

    private static func describe(_ violation: InvariantViolation, into object: inout [String: JSONValue]) {
        if let headline = violation.headline { object["headline"] = .string(headline) }
        if !violation.differences.isEmpty { object["differences"] = .array(violation.differences.map { .string($0) }) }
        if let event = violation.event { object["failingEvent"] = .string(event) }
    }

    /// Reads back what ``describe(_:into:)`` wrote.
    private static func readDescription(_ object: JSONObject, into violation: InvariantViolation) -> InvariantViolation {
        var violation = violation
        violation.headline = string(object["headline"])
        if case .array(let lines)? = object["differences"] { violation.differences = lines.compactMap(string) }
        violation.event = string(object["failingEvent"])
        return violation
    }

    /// The command that reruns one seed.
    package static func reproduceCommand(seed: UInt64, events: Int, mutant: Mutant?, world: [String] = []) -> String {
        "swift run baton sim run --seed \(seed) --events \(events)" + (mutant.map { " --mutant \($0.rawValue)" } ?? "")
            + world.map { " " + shellWord($0) }.joined()
    }

    /// The command that replays the replay file at `path` in the world `world` names (a built-in
    /// world's file names it itself, so its words may be left out).
    package static func replayCommand(path: String, world: [String] = []) -> String {
        "swift run baton sim replay " + shellWord(path) + world.map { " " + shellWord($0) }.joined()
    }

    /// `word` as one shell word: as it is when it holds only safe characters, else single-quoted.
    package static func shellWord(_ word: String) -> String {
        let safe = !word.isEmpty && word.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil)) || "-_./,=:@+".unicodeScalars.contains($0)
        }
        return safe ? word : "'" + String(word.flatMap { $0 == "'" ? Array("'\\''") : [$0] }) + "'"
    }

    /// A seed as JSON: a number, or a string past the largest integer JSON readers keep whole.
    static func seedJSON(_ seed: UInt64) -> JSONValue {
        seed <= UInt64(Int.max) ? .int(Int(seed)) : .string(String(seed))
    }

    private static func seed(_ value: JSONValue?) -> UInt64? {
        switch value {
        case .int(let i)? where i >= 0: UInt64(i)
        case .string(let s)?: UInt64(s)
        default: nil
        }
    }

    private static func int(_ value: JSONValue?) -> Int {
        if case .int(let i)? = value { return i }
        return 0
    }

    private static func double(_ value: JSONValue?) -> Double {
        switch value {
        case .double(let d)?: d
        case .int(let i)?: Double(i)
        default: 0
        }
    }

    private static func string(_ value: JSONValue?) -> String? {
        if case .string(let s)? = value { return s }
        return nil
    }
}
