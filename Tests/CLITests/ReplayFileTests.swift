import Baton
import BatonSim
import Foundation
import Testing

/// A replay file runs as written or not at all: everything it says that the simulator would
/// ignore or misread is an error naming the event.
@Suite("Replay files are read strictly")
struct ReplayFileTests {
    static let header = "{\"baton-replay\":1,\"events\":[\n"
    static let response = #"{"event":"response","operation":"CharacterHeader","variables":{"id":"1"},"response":{"data":{"character":{"id":"1","name":"Rick","status":"Alive"}}}}"#
    static let retain = #"{"event":"retain","token":1,"operation":"CharacterHeader","variables":{"id":"1"}}"#

    static func file(_ events: String...) -> String {
        header + events.joined(separator: ",\n") + "\n]}"
    }

    static let refused: [(String, String)] = [
        ("{\"baton-replay\":2,\"events\":[]}", "format version 2: this baton reads version 1"),
        ("{\"baton-replay\":\"1\",\"events\":[]}", "a replay file's header starts with \"baton-replay\": 1"),
        ("{\"events\":[]}", "a replay file's header starts with \"baton-replay\": 1"),
        ("{\"baton-replay\":1,\"mutnat\":\"evictNever\",\"events\":[]}", "unknown header key \"mutnat\""),
        ("{\"baton-replay\":1,\"mutant\":\"noSuchBug\",\"events\":[]}", "unknown mutant \"noSuchBug\" in \"mutant\""),
        ("[1]", "a replay file is an object with an \"events\" array"),
        ("{\"baton-replay\":1,", "not JSON"),
        (file(#"{"event":"response","operation":"NoSuchOperation","response":{"data":{}}}"#),
         "event 0: response names operation \"NoSuchOperation\", which the world rickandmorty does not have"),
        (file(#"{"event":"check","operation":"CharacterHeader","variables":{"id":"1"},"expect":{"availabilty":"available"}}"#),
         "event 0: unknown expect key \"availabilty\""),
        (file(#"{"event":"check","operation":"CharacterHeader","expect":{"source":"disk"}}"#), "event 0: expect.source is memory or image"),
        (file(#"{"event":"drain","expect":{"data":{}}}"#), "event 0: expect.data goes on a check event, not on drain"),
        (file(#"{"event":"kill","expect":{"image":{}}}"#), "event 0: expect.image needs a running process, and kill ends it"),
        (file(#"{"event":"advanceClock","seconds":"5"}"#), "event 0: advanceClock needs a number \"seconds\" (seconds)"),
        (file(#"{"event":"fault","on":"open","code":"ioerr"}"#), "event 0: fault takes \"on\": write|sync|read|truncate and \"code\": ioerr|full, \"on\": open and \"code\": cantopen, or \"on\": delete and \"code\": ioerr"),
        (file(#"{"event":"fault","on":"delete","code":"full"}"#), "event 0: fault takes \"on\": write|sync|read|truncate"),
        (file(#"{"event":"check","operation":"CharacterHeader","expiration":-1}"#), "event 0: check: \"expiration\" is -1.0 seconds"),
        (file(#"{"event":"drainPartway","steps":-1}"#), "event 0: drainPartway: \"steps\" is -1; it cannot be negative"),
        (file(#"{"event":"drain","steps":3}"#), "event 0: drain takes no fields (and expect), not \"steps\""),
        (file(#"{"event":"explode"}"#), "event 0: unknown event \"explode\""),
        (file(response, #"{"event":"release","token":3}"#), "event 1: release of token 3 does nothing: no event retains token 3"),
        (file(retain, #"{"event":"kill"}"#, #"{"event":"release","token":1}"#),
         "event 2: release of token 1 does nothing: token 1 was retained in a process that ended at event 1 (kill)"),
        (file(retain, #"{"event":"release","token":1}"#, #"{"event":"release","token":1}"#),
         "event 2: release of token 1 does nothing: event 1 already released it"),
        (file(retain, retain), "event 1: retain of token 1 does nothing: event 0 already retains token 1"),
        (file(#"{"event":"fail","layer":1}"#), "event 0: fail of layer 1 does nothing: no live optimistic event holds layer 1"),
        (file(#"{"event":"kill"}"#, #"{"event":"kill"}"#), "event 1: kill does nothing: no process is running (the kill at event 0 ended it)"),
        (file(#"{"event":"quit"}"#, #"{"event":"drainPartway","steps":1}"#), "event 1: drainPartway does nothing: no process is running"),
        ("{\"baton-replay\":1,\"disk\":{\"sectorSize\":100},\"events\":[]}", "\"disk\" is an object with \"sectorSize\" (512 to 65536)"),
        ("{\"baton-replay\":1,\"disk\":{\"sectorSize\":512,\"characteristics\":0,\"syncFailure\":\"drops\",\"checkpointPages\":0},\"events\":[]}",
         "\"disk\".\"checkpointPages\" is a whole number of pages, 1 or more"),
        ("{\"baton-replay\":1,\"disk\":{\"sectorSize\":512,\"characteristics\":0,\"syncFailure\":\"drops\",\"checkpointPages\":\"4\"},\"events\":[]}",
         "\"disk\".\"checkpointPages\" is a whole number of pages, 1 or more"),
        ("{\"baton-replay\":1,\"store\":{\"releaseBufferSize\":-1,\"compactionSlack\":0},\"events\":[]}", "\"store\" is {\"releaseBufferSize\": N"),
        ("{\"baton-replay\":1,\"store\":{\"releaseBufferSize\":2},\"events\":[]}", "\"store\" is {\"releaseBufferSize\": N"),
    ]

    @Test("what is refused, and the message", arguments: refused)
    func refusedFile(_ text: String, _ says: String) {
        #expect {
            _ = try ReplayFile.parse(text)
        } throws: { error in
            let message = (error as? ReplayError)?.message ?? ""
            return message.contains(says) && !message.contains("\n")
        }
    }

    @Test("what the runner does is accepted: a launch after a crash, a token retained anew, an answer")
    func accepted() throws {
        let text = Self.file(Self.retain, #"{"event":"kill"}"#, #"{"event":"check","operation":"CharacterHeader","variables":{"id":"1"}}"#,
                             Self.retain, #"{"event":"release","token":1}"#, #"{"event":"relaunch"}"#, #"{"event":"relaunch"}"#,
                             #"{"event":"corruptFile","seed":1}"#, #"{"event":"corruptFile","seed":2}"#, #"{"event":"advanceClock","seconds":0}"#,
                             #"{"event":"advanceClock","seconds":-3600}"#, #"{"event":"fault","on":"open","code":"cantopen","skip":2}"#,
                             #"{"event":"fault","on":"delete","code":"ioerr"}"#, #"{"event":"relaunchLocked"}"#)
        let file = try ReplayFile.parse(text)
        #expect(file.events.count == 14)
        #expect(file.events[13].event == .relaunchLocked)
        #expect(file.events[12].event == .fault(on: "delete", code: "ioerr", skip: nil))
        #expect(file.events[10].event == .advanceClock(seconds: -3600))
        #expect(file.events[11].event == .fault(on: "open", code: "cantopen", skip: 2))
        #expect(ScheduleCheck.problems(file.events).isEmpty)
    }

    @Test("an erase reads and renders, and a fail of a layer it dropped is named as doing nothing")
    func erase() throws {
        let file = try ReplayFile.parse(Self.file(#"{"event":"erase"}"#))
        #expect(file.events.map(\.event) == [.erase])
        #expect(file.render().contains(#"{"event":"erase"}"#))
        let layer = SimEvent.optimistic(
            layer: 1, operation: "AddNote", variables: ["id": .string("1"), "text": .string("a")],
            body: .json(try JSONValue.parse(#"{"data":{"addNote":{"id":"1","text":"a","tags":[]}}}"#)))
        let kept = ScheduleCheck.problems([ScheduledEvent(layer), ScheduledEvent(.fail(layer: 1))])
        #expect(kept.isEmpty)
        let dropped = ScheduleCheck.problems([ScheduledEvent(layer), ScheduledEvent(.erase), ScheduledEvent(.fail(layer: 1))])
        #expect(dropped.map(\.index) == [2])
        #expect(dropped.first?.isNoOp == true)
    }

    @Test("the disk's checkpoint size round-trips, and a file without one checkpoints at production's 1,000 pages")
    func checkpointPages() throws {
        var file = ReplayFile(
            seed: 3, disk: DiskModel(device: .linux, syncFailure: .drops, checkpointPages: 4), events: [ScheduledEvent(.drain)])
        #expect(try ReplayFile.parse(file.render()).disk?.checkpointPages == 4)
        file.disk = DiskModel(syncFailure: .drops)
        let without = file.render().replacingOccurrences(of: #","checkpointPages":1000"#, with: "")
        #expect(!without.contains("checkpointPages"))
        #expect(try ReplayFile.parse(without).disk?.checkpointPages == ImageSchema.defaultCheckpointPages)
    }

    @Test("the header round-trips, note and detail included")
    func roundTrip() throws {
        let file = ReplayFile(seed: 9, invariant: "image-equals-model", detail: "image-equals-model after event #0: …",
                              guards: .evictNever, note: "why this file exists", writerBound: 25,
                              store: StoreSettings(releaseBufferSize: 2, compactionSlack: 0),
                              events: [ScheduledEvent(.drain), ScheduledEvent(.advanceClock(seconds: 5))])
        #expect(try ReplayFile.parse(file.render()) == file)
        #expect(file.render().contains(#""store":{"compactionSlack":0,"releaseBufferSize":2}"#))
    }

    @Test("the scenarios the repository ships all read")
    func scenariosRead() throws {
        let folder = BatonProcess.repository.appendingPathComponent("Fixtures/scenarios")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(names.count >= 3)
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(throws: Never.self, "\(name)") { _ = try ReplayFile.parse(text) }
        }
    }

    @Test("baton sim replay of a file that does not read: one line, exit 65")
    func replayCommand() throws {
        try TemporaryFolder.with { folder in
            let text = Self.file(Self.response, #"{"event":"release","token":3}"#)
            try text.write(to: folder.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
            let result = try BatonProcess.run(["sim", "replay", "bad.json"], in: folder)
            #expect(result.status == 65)
            #expect(result.stdout.isEmpty)
            #expect(result.errorLines == ["baton: bad.json: event 1: release of token 3 does nothing: no event retains token 3"])
            let missing = try BatonProcess.run(["sim", "replay", "missing.json"], in: folder)
            #expect(missing.status == 65)
            #expect(missing.errorLines == ["baton: cannot read missing.json: no such file"])
        }
    }
}
