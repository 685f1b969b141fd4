import Baton
import BatonSim
import Foundation
import Testing

/// What a replay file's `expect` can say about the image, read strictly and checked against the
/// image as the model's own reader decodes it.
@MainActor
@Suite("Replay expectations: rows, absent cells, deletions, root fields, fetch times, used stamps, field errors, one of these states")
struct ReplayExpectationTests {
    static let scenarioName = "image-expectations-every-kind.json"

    static func scenario() throws -> ReplayFile {
        let url = BatonProcess.repository.appendingPathComponent("Fixtures/scenarios").appendingPathComponent(scenarioName)
        return try ReplayFile.parse(String(contentsOf: url, encoding: .utf8))
    }

    /// The scenario with event `index`'s expectation replaced by `expect` (JSON).
    static func scenario(expecting expect: String, at index: Int) throws -> ReplayFile {
        var file = try scenario()
        let text = #"{"baton-replay":1,"events":[{"event":"collect","expect":"# + expect + "}]}"
        file.events[index].expect = try ReplayFile.parse(text).events[0].expect
        return file
    }

    static func replay(_ file: ReplayFile, keepGoing: Bool = false) -> SimOutcome {
        var options = Simulation.Options(events: file.events.count)
        options.keepGoing = keepGoing
        return Simulation.replay(file.events, seed: file.seed, options: options)
    }

    @Test("the shipped scenario uses every kind of expectation, passes, and round-trips")
    func scenarioPasses() throws {
        let file = try Self.scenario()
        #expect(Self.replay(file).failure == nil)
        #expect(try ReplayFile.parse(file.render()) == file)
        let expectations = file.events.compactMap(\.expect)
        let rows = expectations.compactMap { $0.image?.records }.flatMap(\.values).compactMap { $0 }
        #expect(rows.contains { !$0.absent.isEmpty } && rows.contains { $0.used != nil } && rows.contains { $0.deleted == true })
        #expect(rows.contains { !$0.errors.isEmpty })
        #expect(expectations.contains { $0.image?.records?.values.contains { $0 == nil } == true })
        #expect(expectations.contains { $0.image?.root != nil } && expectations.contains { $0.image?.fetches != nil })
        #expect(expectations.contains { ($0.oneOf?.count ?? 0) > 1 })
    }

    /// (event, expect, the difference line the check must report)
    nonisolated static let failing: [(Int, String, String)] = [
        (1, #"{"image":{"Character:1":{"name":"Morty"}}}"#, #"image Character:1.name: expected "Morty" ≠ actual "Rick""#),
        (1, #"{"image":{"Character:1":{"$absent":["name"]}}}"#, #"image Character:1.name: expected absent ≠ actual "Rick""#),
        (1, #"{"image":{"Character:1":{"notes":null}}}"#, "image Character:1.notes: expected null ≠ actual absent"),
        (1, #"{"image":{"Character:1":{"$used":5}}}"#, "image Character:1.used: expected 5 ≠ actual 1"),
        (1, #"{"image":{"Character:1":{"$deleted":true}}}"#, "image Character:1 deleted: expected true ≠ actual false"),
        (1, #"{"image":{"Character:1":null}}"#, "image Character:1: expected no row ≠ actual used 1 Character {"),
        (1, #"{"image":{"Character:2":{}}}"#, "image Character:2: expected a row ≠ actual no row"),
        (1, #"{"image":{"Character:1":{"location":{"__ref":"Location:2"}}}}"#,
         #"image Character:1.location: expected {"__ref":"Location:2"} ≠ actual {"__ref":"Location:1"}"#),
        (1, #"{"root":{"character(id:\"1\")":{"__ref":"Character:2"}}}"#,
         #"root.character(id:"1"): expected {"__ref":"Character:2"} ≠ actual {"__ref":"Character:1"}"#),
        (1, #"{"root":{"$absent":["character(id:\"1\")"]}}"#, #"root.character(id:"1"): expected absent ≠ actual {"__ref":"Character:1"}"#),
        (1, #"{"root":{"$used":{"character(id:\"1\")":3}}}"#, #"root.character(id:"1").used: expected 3 ≠ actual 1"#),
        (1, #"{"root":{"$used":{"character(id:\"9\")":1}}}"#, #"root.character(id:"9").used: expected 1 ≠ actual no row"#),
        (1, #"{"fetches":{"CharacterScreen{\"id\":\"1\"}":5}}"#, #"fetches CharacterScreen{"id":"1"}.time: expected 5.0 ≠ actual 1700000000.0"#),
        (1, #"{"fetches":{"CharacterScreen{\"id\":\"1\"}":{"used":2}}}"#, #"fetches CharacterScreen{"id":"1"}.used: expected 2 ≠ actual 1"#),
        (1, #"{"fetches":{"CharacterScreen{\"id\":\"1\"}":null}}"#, #"fetches CharacterScreen{"id":"1"}: expected no row ≠ actual time 1700000000.0 (used 1)"#),
        (1, #"{"fetches":{"Notes{}":{}}}"#, "fetches Notes{}: expected a row ≠ actual no row"),
        (5, #"{"image":{"Character:1":{"$errors":{"status":"other"}}}}"#,
         #"image Character:1.status error: expected "other" ≠ actual "status unavailable" at character.status"#),
        (5, #"{"image":{"Character:1":{"$errors":{"status":{"message":"status unavailable","path":"character.name"}}}}}"#,
         #"image Character:1.status error: expected "status unavailable" at character.name ≠ actual "status unavailable" at character.status"#),
        (5, #"{"image":{"Character:1":{"$errors":{"status":{"message":"status unavailable","others":{"type":"FORBIDDEN"}}}}}}"#,
         #"image Character:1.status error: expected "status unavailable" and {"type":"FORBIDDEN"} ≠ actual "status unavailable" at character.status"#),
        (5, #"{"image":{"Character:1":{"$errors":{"status":null}}}}"#, #"image Character:1.status error: expected no error ≠ actual "status unavailable" at character.status"#),
        (5, #"{"image":{"Character:1":{"$errors":{"name":"gone"}}}}"#, #"image Character:1.name error: expected "gone" ≠ actual no error"#),
        (5, #"{"image":{"Character:1":{"$errors":{"status":["status unavailable","again"]}}}}"#,
         #"image Character:1.status error: expected "status unavailable", "again" ≠ actual "status unavailable" at character.status"#),
        (9, #"{"oneOf":[{"image":{"Character:1":{"name":"Summer"}}},{"image":{"Character:1":null}}]}"#,
         #"state 1: image Character:1.name: expected "Summer" ≠ actual"#),
    ]

    @Test("each kind of expectation can fail, and says where, one line per mismatch", arguments: failing)
    func fails(_ index: Int, _ expect: String, _ line: String) throws {
        let outcome = Self.replay(try Self.scenario(expecting: expect, at: index))
        let failure = try #require(outcome.failure)
        #expect(failure.invariant == "expectation")
        #expect(failure.eventIndex == index)
        #expect(failure.differences.contains { $0.hasPrefix(line) }, "\(failure.differences)")
        #expect(failure.event?.hasPrefix("#\(index) ") == true)
    }

    @Test("a cell's several errors are written as a list, in order, and read back the same")
    func severalErrorsRoundTrip() throws {
        let text = #"{"baton-replay":1,"events":[{"event":"collect","expect":{"image":{"Character:1":{"$errors":{"episode":["a",{"message":"b","path":"c.episode.1"}],"name":null,"status":"gone"}}}}}]}"#
        let file = try ReplayFile.parse(text)
        let row = try #require(file.events[0].expect?.image?.records?["Character:1"] ?? nil)
        #expect(row.errors["episode"] == [FieldErrorExpectation(message: "a"), FieldErrorExpectation(message: "b", path: "c.episode.1")])
        #expect(row.errors["name"] == [])
        #expect(row.errors["status"] == [FieldErrorExpectation(message: "gone")])
        #expect(try ReplayFile.parse(file.render()) == file)
    }

    @Test("an error's other members are checked as one object under \"others\"; anything else there is refused")
    func otherMembersRoundTrip() throws {
        let text = #"{"baton-replay":1,"events":[{"event":"collect","expect":{"image":{"Character:1":{"$errors":{"name":{"message":"m","others":{"type":"FORBIDDEN"}}}}}}}]}"#
        let file = try ReplayFile.parse(text)
        let row = try #require(file.events[0].expect?.image?.records?["Character:1"] ?? nil)
        #expect(row.errors["name"] == [FieldErrorExpectation(message: "m", otherMembers: .object(["type": .string("FORBIDDEN")]))])
        #expect(try ReplayFile.parse(file.render()) == file)
        let bad = text.replacingOccurrences(of: #"{"type":"FORBIDDEN"}"#, with: #""FORBIDDEN""#)
        #expect(throws: ReplayError.self) { try ReplayFile.parse(bad) }
    }

    @Test("one of these states: the failure lists every state's mismatches")
    func oneOfListsEveryState() throws {
        let expect = #"{"oneOf":[{"image":{"Character:1":{"name":"Summer"}}},{"image":{"Character:1":null}}]}"#
        let failure = try #require(Self.replay(try Self.scenario(expecting: expect, at: 9)).failure)
        #expect(failure.headline == "the image is none of the 2 states expect.oneOf lists")
        #expect(failure.differences.count == 2)
        #expect(failure.differences[1].hasPrefix("state 2: image Character:1: expected no row ≠ actual used"))
    }

    @Test("--keep-going checks every expectation and keeps each failure; without it the first one stops the run")
    func keepGoing() throws {
        var file = try Self.scenario(expecting: #"{"image":{"Character:1":{"name":"Morty"}}}"#, at: 1)
        file.events[5].expect = try Self.scenario(expecting: #"{"image":{"Character:1":{"$used":9}}}"#, at: 5).events[5].expect
        let stopped = Self.replay(file)
        #expect(stopped.failure?.eventIndex == 1)
        #expect(stopped.eventsRun == 2)
        #expect(stopped.expectationFailures.isEmpty)
        let all = Self.replay(file, keepGoing: true)
        #expect(all.eventsRun == file.events.count)
        #expect(all.expectationFailures.map(\.eventIndex) == [1, 5])
        #expect(all.failure == all.expectationFailures.first)
        #expect(all.expectationFailures[1].differences == ["image Character:1.used: expected 9 ≠ actual 2"])
        // Going on past a failed expectation runs exactly the run the file's expectations describe.
        #expect(all.traceHash == Self.replay(try Self.scenario()).traceHash)
    }

    nonisolated static let refused: [(String, String)] = [
        (#"{"image":{"Character:1":{"$used":-1}}}"#, #"expect.image["Character:1"].$used is a launch's generation"#),
        (#"{"image":{"Character:1":{"$usde":1}}}"#, #"unknown row key "$usde" in expect.image["Character:1"]"#),
        (#"{"image":{"Character:1":{"name":"x","$absent":["name"]}}}"#, #"expect.image["Character:1"] names "name" both as a cell and in $absent"#),
        (#"{"image":{"Character:1":{"name":"x","$deleted":true}}}"#, "a deleted row holds no cells"),
        (#"{"image":{"Character:1":{"$deleted":"yes"}}}"#, "$deleted is true (the row is a deletion) or false"),
        (#"{"image":{"Character:1":{"$absent":"name"}}}"#, "$absent is a list of storage keys"),
        (#"{"image":{"Character:1":{"$errors":{"name":1}}}}"#, #"$errors["name"] is the error's message"#),
        (#"{"image":{"Character:1":{"$errors":{"name":{"text":"x"}}}}}"#, #"unknown key "text" in expect.image["Character:1"].$errors["name"]"#),
        (#"{"image":{"Character:1":{"$errors":{"name":["x",2]}}}}"#, #"$errors["name"][1] is the error's message"#),
        (#"{"image":{"Character:1":5}}"#, "is an object of cells, or null for no row"),
        (#"{"root":{"$used":2}}"#, "expect.root.$used is an object"),
        (#"{"root":{"$deleted":true}}"#, #"unknown root key "$deleted" in expect.root"#),
        (#"{"root":{"hero":1,"$absent":["hero"]}}"#, #"expect.root names "hero" in $absent and as a field with a row"#),
        (#"{"fetches":{"Q{}":"now"}}"#, #"expect.fetches["Q{}"] is the fetch time"#),
        (#"{"fetches":{"Q{}":{"time":1,"at":2}}}"#, #"unknown key "at" in expect.fetches["Q{}"]"#),
        (#"{"fetches":[]}"#, "expect.fetches is an object"),
        (#"{"oneOf":[]}"#, "expect.oneOf is a list of states of the image"),
        (#"{"oneOf":[{"availability":"available"}]}"#, #"unknown key "availability" in expect.oneOf[0]"#),
        (#"{"oneOf":[{}]}"#, "expect.oneOf[0] is a state of the image"),
        (#"{"images":{}}"#, #"unknown expect key "images""#),
    ]

    @Test("what an expect object may not say, and the message", arguments: refused)
    func refusedExpect(_ expect: String, _ says: String) {
        let text = #"{"baton-replay":1,"events":[{"event":"drain","expect":"# + expect + "}]}"
        #expect {
            _ = try ReplayFile.parse(text)
        } throws: { error in
            let message = (error as? ReplayError)?.message ?? ""
            return message.contains("event 0: ") && message.contains(says) && !message.contains("\n")
        }
    }

    @Test("root, fetches and oneOf read the image, so they need a process", arguments: ["root", "fetches", "oneOf"])
    func needProcess(_ key: String) {
        let state = key == "oneOf" ? #"[{"image":{}}]"# : "{}"
        let text = #"{"baton-replay":1,"events":[{"event":"powerLoss","seed":1,"expect":{""# + key + #"":"# + state + "}}]}"
        #expect {
            _ = try ReplayFile.parse(text)
        } throws: { error in
            (error as? ReplayError)?.message == "event 0: expect.\(key) needs a running process, and powerLoss ends it (put it on the relaunch that follows)"
        }
    }
}
