import BatonSim
import Testing
@testable import baton

@Suite("Reading a campaign's command line")
struct CampaignSettingsTests {
    private func parse(_ line: String, repository: String? = nil) throws -> CampaignSettings {
        try CampaignSettings.parse(line.split(separator: " ").map(String.init), randomSeed: { 123_456 }, repository: repository)
    }

    @Test("a closed range, an open-ended one, and a random start")
    func seeds() throws {
        let closed = try parse("--seeds 10..20 --shard 2/3")
        #expect(closed.seeds == SeedStream(first: 10, last: 20, shard: Shard(index: 1, count: 3)!))
        #expect(!closed.randomStart)
        let open = try parse("--seeds 5..")
        #expect(open.seeds.last == nil && open.seeds.first == 5)
        let random = try parse("--seeds random --for 10m")
        #expect(random.randomStart)
        #expect(random.seeds == SeedStream(first: 123_456, last: nil))
        #expect(random.timeBudget == 600)
    }

    @Test("durations", arguments: [("90s", 90.0), ("10m", 600), ("1h", 3600), ("1h30m", 5400), ("2.5m", 150), ("0.5s", 0.5)])
    func durations(_ text: String, _ seconds: Double) throws {
        #expect(try CampaignSettings.duration(text) == seconds)
    }

    @Test("durations that are not", arguments: ["10", "m", "10x", "1h30", "-1m", "0s", "31d", "1..2s"])
    func badDurations(_ text: String) {
        #expect(throws: CLIError.self) { try CampaignSettings.duration(text) }
    }

    @Test("the regressions folder: the repository's by default, another, or none")
    func regressions() throws {
        #expect(try parse("--seeds 0..1", repository: ".").regressions == "Fixtures/regressions")
        #expect(try parse("--seeds 0..1", repository: "/src/baton").regressions == "/src/baton/Fixtures/regressions")
        #expect(try parse("--seeds 0..1").regressions == nil)
        #expect(try parse("--seeds 0..1 --regressions none", repository: ".").regressions == nil)
        let saving = try parse("--seeds 0..1 --save-regressions", repository: ".")
        #expect(saving.saveRegressions == "Fixtures/regressions")
        #expect(saving.regressions == "Fixtures/regressions")
        let elsewhere = try parse("--seeds 0..1 --save-regressions kept", repository: ".")
        #expect(elsewhere.saveRegressions == "kept")
        #expect(elsewhere.regressions == "Fixtures/regressions", "a CI job that saves elsewhere still replays the repository's")
        let outside = try parse("--seeds 0..1 --save-regressions kept")
        #expect(outside.regressions == "kept", "outside the repository, the folder it saves into")
        let named = try parse("--seeds 0..1 --regressions mine --save-regressions", repository: ".")
        #expect(named.regressions == "mine")
        #expect(named.saveRegressions == "mine")
        #expect(throws: CLIError.self) { try parse("--seeds 0..1 --save-regressions") }
    }

    @Test("a job of --jobs runs quietly for its parent")
    func job() throws {
        let settings = try parse("--seeds 0..9 --shard 1/2 --progress-lines --regressions none --max-failures 3")
        #expect(settings.progress == .job)
        #expect(settings.maxFailures == 3)
        #expect(settings.regressions == nil)
    }

    @Test("the checkout is found from a folder inside it")
    func repository() {
        let root = BatonProcess.repository.path
        #expect(CampaignSettings.repository(from: root) == ".")
        #expect(CampaignSettings.repository(from: root + "/Sources/baton") == root)
        #expect(CampaignSettings.repository(from: "/") == nil)
    }
}
