import Baton
@testable import BatonSim
import Testing

/// A build one image format newer, of the same app version: the simulator makes the image the
/// format before (6) between the processes, and the new build's open moves it to 7 and keeps
/// every row, as the model expects of any relaunch.
@MainActor
@Suite("A format upgrade keeps every row, and the model checks the file the new build opens")
struct FormatUpgradeTests {
    static let header = #"{"data":{"character":{"id":"1","name":"Rick Sanchez","status":"Alive"}}}"#
    static let variables: [String: JSONValue] = ["id": .string("1")]
    static let data: JSONValue = .object(["character": .object([
        "id": .string("1"), "name": .string("Rick Sanchez"), "status": .string("Alive"),
    ])])

    /// Rows written, the process quit, a format upgrade, the screen checked from the image, and
    /// relaunched once more (the moved stamps are restamped as any others).
    static func upgradeThenCheck() -> Scenario {
        var scenario = Scenario()
        scenario.respond("CharacterHeader", variables: variables, with: header)
        scenario.drain()
        scenario.quit()
        scenario.formatUpgrade()
        scenario.check("CharacterHeader", variables: variables, expect: .available(from: .image, data: data))
        // The quit drains the check's stamps: launch 3 reads what launch 2 read.
        scenario.quit()
        scenario.relaunch()
        scenario.check("CharacterHeader", variables: variables, expect: .available(from: .image, data: data))
        return scenario
    }

    @Test("the rows survive, the trace says what was made, and the replay file says formatUpgrade")
    func keepsRows() throws {
        let scenario = Self.upgradeThenCheck()
        let result = scenario.run()
        #expect(result.failure == nil, "\(result.failure.map(String.init(describing:)) ?? "")")
        #expect(result.coverage["formatUpgrades"] == 1)
        #expect(result.trace.contains { $0.contains("upgrade to a build one image format newer → made format 6 (") })
        #expect(scenario.replayFile.contains(#"{"event":"formatUpgrade"}"#))
        let replayed = try Simulator.replay(scenario.replayFile)
        #expect(replayed.failure == nil)
        #expect(replayed.traceHash == result.traceHash)
    }

    @Test("an image that is not a sound format 7 one is left as it is: no image yet, or a garbage file")
    func leavesOthersAlone() throws {
        var first = Scenario()
        first.quit()
        first.formatUpgrade()
        let fresh = first.run()
        #expect(fresh.failure == nil, "\(fresh.failure.map(String.init(describing:)) ?? "")")
        let garbage = try Simulator.replay(#"""
            {"baton-replay": 1, "events": [{"event": "corruptFile", "seed": 3}, {"event": "formatUpgrade"}]}
            """#)
        #expect(garbage.failure == nil, "\(garbage.failure.map(String.init(describing:)) ?? "")")
        #expect(garbage.coverage["formatUpgrades"] == 0)
        #expect(garbage.trace.contains { $0.contains("formatUpgrade") || $0.contains("one image format newer → left") })
    }

    #if BATON_MUTANTS
    @Test("an open that marks the file 7 without moving its stamps fails the scenario")
    func mutantCaught() throws {
        let scenario = Self.upgradeThenCheck()
        let file = try ReplayFile.parse(scenario.replayFile)
        let outcome = Simulation.replay(file.events, seed: file.seed, options: .init(events: file.events.count, mutant: .stampsLeftAtFormatUpgrade))
        #expect(outcome.failure?.invariant == "relaunch-allowed-state")
    }
    #endif
}
