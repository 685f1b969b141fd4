import Baton
import BatonSim
import Foundation
import Testing

/// What `baton sim run`, `sim replay` and `sim campaign` print about a failure, and the key
/// histories and timeline pages they write, as a person running them sees it.
@Suite("The CLI's failures: the failing event, the cell diff, key histories, timelines")
struct FailureOutputTests {
    static let scenarios = BatonProcess.repository.appendingPathComponent("Fixtures/scenarios")

    /// A copy of a shipped scenario in `folder`, its text edited by `edit`.
    static func scenario(_ name: String, into folder: URL, edit: (String) -> String = { $0 }) throws -> String {
        let text = try String(contentsOf: scenarios.appendingPathComponent(name), encoding: .utf8)
        try edit(text).write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        return name
    }

    @Test("sim replay --key prints the record's history; a key no event touched is one line and exit 65")
    func keyHistory() throws {
        try TemporaryFolder.with { folder in
            let file = try Self.scenario("header-before-screen-writer-first.json", into: folder)
            let result = try BatonProcess.run(["sim", "replay", file, "--key", "Character:1"], in: folder)
            #expect(result.status == 0)
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.contains("history of Character:1: 7 events touched it"))
            #expect(lines.contains { $0.hasPrefix("#4 drain → committed 1 row (Character:1)") })
            for part in ["memory", "queue", "image", "model"] {
                #expect(lines.filter { $0.hasPrefix("    \(part) ") }.count == 7, "\(part)")
            }
            let unknown = try BatonProcess.run(["sim", "replay", file, "--key", "Character:9"], in: folder)
            #expect(unknown.status == 65)
            #expect(unknown.errorLines.count == 1)
            #expect(unknown.errorLines.first?.hasPrefix("baton: --key Character:9: no event of this run touched that record (records it touched: Character:1,") == true)
        }
    }

    @Test("a --key typed in another Unicode normalization than the run's key is named as such, its spelling made visible")
    func keyInAnotherNormalization() throws {
        try TemporaryFolder.with { folder in
            // The run's ids spell "café" decomposed (e and a combining acute accent).
            let file = try Self.scenario("header-before-screen-writer-first.json", into: folder) { text in
                text.replacingOccurrences(of: #""id":"1""#, with: #""id":"cafe\u0301""#)
                    .replacingOccurrences(of: #""Character:1""#, with: #""Character:cafe\u0301""#)
            }
            let decomposed = try BatonProcess.run(["sim", "replay", file, "--key", "Character:cafe\u{301}"], in: folder)
            #expect(decomposed.status == 0)
            #expect(decomposed.stdout.contains("touched it"))
            let composed = try BatonProcess.run(["sim", "replay", file, "--key", "Character:caf\u{E9}"], in: folder)
            #expect(composed.status == 65)
            #expect(composed.errorLines == [
                #"baton: --key Character:caf\u{E9}: no record has that key byte for byte; the run touched Character:cafe\u{301}, the same text in another Unicode normalization (keys compare by bytes)"#,
            ])
        }
    }

    @Test("sim replay --keep-going reports every failed expectation, each difference on its own line, and exits 1")
    func keepGoing() throws {
        try TemporaryFolder.with { folder in
            let file = try Self.scenario("image-expectations-every-kind.json", into: folder) { text in
                text.replacingOccurrences(of: #"{"name":"Rick","species":"Human","#, with: #"{"name":"Morty","species":"Cat","#)
                    .replacingOccurrences(of: #""$used":2,"#, with: #""$used":7,"#)
            }
            let all = try BatonProcess.run(["sim", "replay", file, "--keep-going"], in: folder)
            #expect(all.status == 1)
            let lines = all.stdout.split(separator: "\n").map(String.init)
            #expect(lines.contains("2 failures:"))
            #expect(lines.contains("FAILED: expectation after event #1: the image is not as expected"))
            #expect(lines.contains(#"  image Character:1.name: expected "Morty" ≠ actual "Rick""#))
            #expect(lines.contains(#"  image Character:1.species: expected "Cat" ≠ actual "Human""#))
            #expect(lines.contains("FAILED: expectation after event #5: the image is not as expected"))
            #expect(lines.contains("  image Character:1.used: expected 7 ≠ actual 2"))
            #expect(lines.contains { $0.hasPrefix("  at #5 drain → committed 1 row (Character:1)") })
            let first = try BatonProcess.run(["sim", "replay", file], in: folder)
            #expect(first.status == 1)
            #expect(first.stdout.contains("after event #1") && !first.stdout.contains("after event #5"))
        }
    }

    @Test("sim run --html writes the page and --key prints a history; an --html that cannot be written is refused first")
    func runTimeline() throws {
        try TemporaryFolder.with { folder in
            let result = try BatonProcess.run(["sim", "run", "--seed", "3", "--events", "30", "--html", "run.html", "--key", "client:root"], in: folder)
            #expect(result.status == 0)
            #expect(result.stdout.contains("timeline: run.html"))
            #expect(result.stdout.contains("history of client:root: "))
            let page = try String(contentsOf: folder.appendingPathComponent("run.html"), encoding: .utf8)
            #expect(page.hasPrefix("<!DOCTYPE html>") && page.contains("seed 3, world rickandmorty"))
            let refused = try BatonProcess.run(["sim", "run", "--seed", "3", "--html", "no/such/folder/run.html"], in: folder)
            #expect(refused.status == 64)
            #expect(refused.stdout.isEmpty)
            #expect(refused.errorLines.first?.hasPrefix("baton: --html: cannot write no/such/folder/run.html") == true)
        }
    }

    @Test("a job's report hands its parent each failure's differences, headline, failing event and timeline")
    func jobReportRoundTrip() throws {
        var violation = InvariantViolation(named: "image-equals-model", detail: "h: a; b", at: 7)
        violation.headline = "h"
        violation.differences = ["a", "b"]
        violation.event = "#7 drain → FAILED image-equals-model"
        var failure = Campaign.Failure(seed: 4, violation: violation)
        failure.timelinePath = "replays/seed-4.html"
        var summary = Campaign.Summary()
        summary.failures = [failure]
        let json = CampaignReport.json(summary, setup: CampaignReport.Setup(seeds: SeedStream(first: 4, last: 4), eventsPerSeed: 10))
        let read = try #require(CampaignReport.summary(json)?.failures.first)
        #expect(read.violation == violation)
        #expect(read.timelinePath == "replays/seed-4.html")
    }

    #if BATON_MUTANTS
    /// The first seed under `partialSnapshotReplaces` whose image breaks with at least one cell
    /// difference, found in process; the CLI must say exactly what the runner said.
    @MainActor
    static func failingSeed() throws -> (seed: UInt64, failure: InvariantViolation) {
        let options = Simulation.Options(events: 120, mutant: .partialSnapshotReplaces)
        for seed: UInt64 in 0..<40 {
            if let failure = Simulation.run(seed: seed, options: options).failure,
               failure.invariant == "image-equals-model", !failure.differences.isEmpty {
                return (seed, failure)
            }
        }
        throw TestFailure("no seed of 0..<40 fails image-equals-model under partialSnapshotReplaces")
    }

    @MainActor
    @Test("sim run: the failure with each cell on a line, the events up to and including the failing one, and a timeline beside the replay file")
    func runFailure() throws {
        let (seed, failure) = try Self.failingSeed()
        let events = failure.eventIndex + 1
        let headline = try #require(failure.headline)
        try TemporaryFolder.with { folder in
            let result = try BatonProcess.run(["sim", "run", "--seed", "\(seed)", "--events", "\(events)", "--mutant", "partialSnapshotReplaces"], in: folder)
            #expect(result.status == 1)
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.contains("FAILED: image-equals-model after event #\(failure.eventIndex): \(headline)"))
            #expect(lines.contains("  " + failure.differences[0]))
            let around = try #require(lines.firstIndex(of: "events up to the failing one:"))
            // The failing event drains: a drain, or a quit (which drains first).
            let failingLine = "  " + (failure.event ?? "#\(failure.eventIndex) drain → FAILED image-equals-model")
            #expect(lines[around...].contains(failingLine))
            #expect(lines.contains("timeline:    replays/seed-\(seed)-partialSnapshotReplaces.html"))
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("replays/seed-\(seed)-partialSnapshotReplaces.html").path))
        }
    }

    @MainActor
    @Test("a campaign's summary shows each failure's event and cell diff; its JSON keeps them; a timeline sits beside each replay file")
    func campaignFailure() throws {
        let (seed, failure) = try Self.failingSeed()
        let events = failure.eventIndex + 1
        let headline = try #require(failure.headline)
        try TemporaryFolder.with { folder in
            let result = try BatonProcess.run(["sim", "campaign", "--seeds", "\(seed)..\(seed)", "--events", "\(events)", "--mutant", "partialSnapshotReplaces",
                                               "--regressions", "none", "--json", "report.json"], in: folder)
            #expect(result.status == 1)
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.contains("  seed \(seed): image-equals-model after event #\(failure.eventIndex): \(headline)"))
            let failingEvent = failure.event ?? "#\(failure.eventIndex) drain → FAILED image-equals-model"
            #expect(lines.contains("    at " + failingEvent))
            #expect(lines.contains("    " + failure.differences[0]))
            #expect(lines.contains("    timeline: replays/seed-\(seed)-partialSnapshotReplaces.html"))
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("replays/seed-\(seed)-partialSnapshotReplaces.html").path))
            let report = try JSONValue.parse(Array(try Data(contentsOf: folder.appendingPathComponent("report.json"))))
            guard case .object(let o) = report, case .array(let failures)? = o["failures"], case .object(let reported)? = failures.first else {
                Issue.record("the report lists the failure")
                return
            }
            #expect(reported["failingEvent"] == .string(failingEvent))
            #expect(reported["headline"] == .string(headline))
            #expect(reported["timeline"] == .string("replays/seed-\(seed)-partialSnapshotReplaces.html"))
            guard case .array(let differences)? = reported["differences"], case .string(let detail)? = reported["detail"] else {
                Issue.record("the failure has its differences and its one-line detail")
                return
            }
            #expect(differences.count == failure.differences.count)
            #expect(!detail.contains("\n") && detail.contains(failure.differences[0]))
        }
    }
    #endif
}

/// A failure's rerun command runs the seed in the world the failure was found in.
@Suite("Rerun commands name their world")
struct RerunWorldTests {
    @Test("words that need quoting are quoted for the shell, others are left alone")
    func shellWords() {
        #expect(CampaignReport.shellWord("Fixtures/worlds/github") == "Fixtures/worlds/github")
        #expect(CampaignReport.shellWord("a.graphql,b.graphql") == "a.graphql,b.graphql")
        #expect(CampaignReport.shellWord("my app/schema.graphql") == "'my app/schema.graphql'")
        #expect(CampaignReport.shellWord("it's") == "'it'\\''s'")
        #expect(CampaignReport.shellWord("") == "''")
        #expect(CampaignReport.reproduceCommand(seed: 3, events: 40, mutant: nil, world: ["--schema", "s p.graphql", "--operations", "a.graphql"])
            == "swift run baton sim run --seed 3 --events 40 --schema 's p.graphql' --operations a.graphql")
        #expect(CampaignReport.replayCommand(path: "replays/seed-3.json", world: ["--world", "My App"])
            == "swift run baton sim replay replays/seed-3.json --world 'My App'")
        #expect(CampaignReport.replayCommand(path: "replays/seed-3.json") == "swift run baton sim replay replays/seed-3.json")
    }

    #if DEBUG
    @MainActor
    /// With `--add-typename` too: the rerun must add `__typename` as the run did.
    @Test("a campaign over a world given by its files prints and reports a rerun command with those files and flags",
          arguments: [[], ["--add-typename"]])
    func campaignOverFiles(flags: [String]) throws {
        let github = BatonProcess.repository.appendingPathComponent("Fixtures/worlds/github").path
        let operations = ["IssueHeader.graphql", "IssueDetail.graphql"].map { github + "/" + $0 }.joined(separator: ",")
        try TemporaryFolder.with { folder in
            let result = try BatonProcess.run(["sim", "campaign", "--seeds", "0..0", "--events", "6", "--mutant", "wrongScalarAtIngest", "--no-shrink",
                                               "--regressions", "none", "--json", "report.json",
                                               "--schema", github + "/schema.graphqls", "--operations", operations] + flags, in: folder)
            #expect(result.status == 1)
            let rerun = "swift run baton sim run --seed 0 --events 6 --mutant wrongScalarAtIngest --schema \(github)/schema.graphqls --operations \(operations)"
                + flags.map { " " + $0 }.joined()
            #expect(result.stdout.split(separator: "\n").contains { $0 == "    rerun: " + rerun }, "\(result.stdout)")
            let report = try JSONValue.parse(Array(try Data(contentsOf: folder.appendingPathComponent("report.json"))))
            guard case .object(let o) = report, case .array(let failures)? = o["failures"], case .object(let reported)? = failures.first else {
                Issue.record("the report lists the failure")
                return
            }
            #expect(reported["reproduce"] == .string(rerun))
        }
    }
    #endif
}

/// A test's own failure to set itself up, with why.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
