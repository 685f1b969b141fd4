import Baton

/// A campaign's summary as JSON (what `--json` writes, and how shards hand theirs to the parent).
package enum CampaignReport {
    package static func json(_ summary: Campaign.Summary, mutant: Mutant?, jobs: Int, events: Int) -> JSONValue {
        let failures: [JSONValue] = summary.failures.map { failure in
            var object: [String: JSONValue] = [
                "seed": .int(Int(bitPattern: UInt(failure.seed))),
                "invariant": .string(failure.violation.invariant),
                "detail": .string(failure.violation.detail),
                "eventIndex": .int(failure.violation.eventIndex),
                "reproduce": .string(reproduceCommand(seed: failure.seed, events: events, mutant: mutant)),
            ]
            if let length = failure.shrunkLength { object["shrunkLength"] = .int(length) }
            if let path = failure.replayPath {
                object["replay"] = .string(path)
                object["replayCommand"] = .string("swift run baton sim replay \(path)")
            }
            object["shrinkReplays"] = .int(failure.replays)
            return .object(object)
        }
        return .object([
            "seeds": .int(summary.seeds),
            "events": .int(summary.events),
            "failures": .array(failures),
            "crashes": .object([
                "kill": .int(summary.crashes.kill), "powerLoss": .int(summary.crashes.powerLoss),
                "quit": .int(summary.crashes.quit), "drainPartway": .int(summary.crashes.drainPartway),
                "faults": .int(summary.crashes.faults), "corruptions": .int(summary.crashes.corruptions),
                "total": .int(summary.crashes.total),
            ]),
            "statesChecked": .int(summary.statesChecked),
            "seconds": .double(summary.seconds),
            "seedsPerSecond": .double(summary.seedsPerSecond),
            "eventsPerSecond": .double(summary.eventsPerSecond),
            "determinism": .object([
                "checked": .int(summary.determinismChecked),
                "mismatches": .array(summary.determinismMismatches.map { .string($0) }),
            ]),
            "mutant": mutant.map { .string($0.rawValue) } ?? .null,
            "jobs": .int(jobs),
        ])
    }

    /// Reads back a summary written by ``json(_:mutant:jobs:events:)`` (a shard's).
    package static func summary(_ value: JSONValue) -> Campaign.Summary? {
        guard case .object(let o) = value else { return nil }
        func int(_ v: JSONValue?) -> Int { if case .int(let i)? = v { return i }; return 0 }
        func double(_ v: JSONValue?) -> Double {
            switch v { case .double(let d)?: return d; case .int(let i)?: return Double(i); default: return 0 }
        }
        var summary = Campaign.Summary()
        summary.seeds = int(o["seeds"])
        summary.events = int(o["events"])
        summary.statesChecked = int(o["statesChecked"])
        summary.seconds = double(o["seconds"])
        if case .object(let c)? = o["crashes"] {
            summary.crashes = CrashCounts(kill: int(c["kill"]), powerLoss: int(c["powerLoss"]), quit: int(c["quit"]),
                                          drainPartway: int(c["drainPartway"]), faults: int(c["faults"]),
                                          corruptions: int(c["corruptions"]))
        }
        if case .object(let d)? = o["determinism"] {
            summary.determinismChecked = int(d["checked"])
            if case .array(let m)? = d["mismatches"] {
                summary.determinismMismatches = m.compactMap { if case .string(let s) = $0 { return s }; return nil }
            }
        }
        if case .array(let failures)? = o["failures"] {
            for item in failures {
                guard case .object(let f) = item else { continue }
                let seed = UInt64(UInt(bitPattern: int(f["seed"])))
                func text(_ s: String?) -> String { s ?? "" }
                func string(_ v: JSONValue?) -> String? { if case .string(let s)? = v { return s }; return nil }
                var failure = Campaign.Failure(seed: seed, violation: InvariantViolation(
                    invariant: text(string(f["invariant"])), detail: text(string(f["detail"])), eventIndex: int(f["eventIndex"])))
                if f["shrunkLength"] != nil { failure.shrunkLength = int(f["shrunkLength"]) }
                failure.replayPath = string(f["replay"])
                failure.replays = int(f["shrinkReplays"])
                summary.failures.append(failure)
            }
        }
        return summary
    }

    /// The command that reruns one seed.
    package static func reproduceCommand(seed: UInt64, events: Int, mutant: Mutant?) -> String {
        "swift run baton sim run --seed \(seed) --events \(events)" + (mutant.map { " --mutant \($0.rawValue)" } ?? "")
    }
}
