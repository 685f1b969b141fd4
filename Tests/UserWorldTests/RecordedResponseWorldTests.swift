import Baton
@testable import BatonSim
import Foundation
import Testing

// Responses an app's real server once sent, delivered among the generated server's answers: the
// store and the model read each on its own (no provenance), under the seed's crashes and faults.

private let recordedSchema = """
type Query { note(id: ID!): Note  notes(first: Int, filter: NoteFilter): [Note] }
input NoteFilter { tag: String!, kind: Kind = PLAIN }
enum Kind { PLAIN PINNED }
type Note { id: ID! title: String tags: [String] author: Person }
type Person { id: ID! name: String }
"""

private let recordedOperations = [
    "Note.graphql": "query Note($id: ID!) { note(id: $id) { id title tags author { id name } } }",
    "Notes.graphql": "query Notes($first: Int, $filter: NoteFilter) { notes(first: $first, filter: $filter) { id title } }",
]

/// Real-world shapes the generated server does not write: escapes the server never chooses, a
/// field error beside its null, a null list item, an id shared across two responses, a member
/// the operation did not select, keys in another order.
private let recordings: [SimulationWorld.Recording] = [
    .init(operation: "Note", variables: ["id": .string("n1")], name: "note-n1.json", text: """
        {"data":{"note":{"title":"Caf\\u00e9 \\ud83d\\ude00 \\"quoted\\"\\n","id":"n1","tags":["a",null,"\\u0000"],\
        "author":{"name":"Ann","id":"p1","avatarUrl":"https://example.com/a.png"}}},\
        "extensions":{"cost":{"requested":3}}}
        """),
    .init(operation: "Note", variables: ["id": .string("n2")], name: "note-n2.json", text: """
        {"errors":[{"message":"forbidden","path":["note","author"],"extensions":{"code":"FORBIDDEN"}}],\
        "data":{"note":{"id":"n2","title":null,"tags":[],"author":null}}}
        """),
    .init(operation: "Notes", variables: ["first": .int(2), "filter": .object(["tag": .string("x")])], name: "notes.json", text: """
        {"data":{"notes":[{"id":"n1","title":"Caf\\u00e9 \\ud83d\\ude00 \\"quoted\\"\\n"},null,{"id":"n3","title":"three"}]}}
        """),
    .init(operation: "Notes", variables: [:], name: "gateway-error.html", text: "<html><body>502 Bad Gateway</body></html>"),
]

@MainActor
@Suite("Recorded responses of a real server run among the generated ones")
struct RecordedResponseWorldTests {
    @Test("seeds deliver the recordings, the store agrees with the model on each, and the trace names their files")
    func seedsRunClean() throws {
        let world = try SimulationWorld(name: "recorded", schema: recordedSchema, operations: recordedOperations, recorded: recordings)
        let results = expectCleanSeeds(world)
        let delivered = results.reduce(0) { $0 + $1.coverage["recordedResponses", default: 0] }
        #expect(delivered >= 12, "recorded responses delivered over 12 seeds: \(delivered)")
        let traced = Set(results.flatMap(\.trace).compactMap { line in
            line.hasPrefix("  recorded: the response in ") ? String(line.dropFirst("  recorded: the response in ".count)) : nil
        })
        #expect(traced == Set(recordings.map(\.name)), "\(traced)")
        // The gateway's page is refused by the store and the model alike, wherever it lands.
        #expect(results.reduce(0) { $0 + $1.coverage["refusedResponses", default: 0] } > 0)
    }

    @Test("a world without recordings draws nothing for them: its seeds run as before")
    func noRecordingsNoDraws() throws {
        let plain = try SimulationWorld(name: "recorded", schema: recordedSchema, operations: recordedOperations)
        let with = try SimulationWorld(name: "recorded", schema: recordedSchema, operations: recordedOperations, recorded: recordings)
        let before = Simulator.run(seed: 5, in: plain, events: 120)
        let after = Simulator.run(seed: 5, in: with, events: 120)
        #expect(before.coverage["recordedResponses"] == 0)
        #expect(after.coverage["recordedResponses", default: 0] > 0)
        #expect(before.traceHash == Simulator.run(seed: 5, in: plain, events: 120).traceHash)
        #expect(before.traceHash != after.traceHash)
    }

    #if DEBUG
    /// `Note` is never answered by the generated server here, and the one answered query reads
    /// only short ids: the mutant's bug (strings past eight characters lose their last) can show
    /// only on recorded data.
    @Test("a store bug shows on a recorded response: the failing event is a recording")
    func bugCaughtOnRecording() throws {
        var settings = WorldSettings()
        settings.unansweredOperations = ["Note"]
        settings.trickyIDRates = [0]
        settings.canonicalTwinChance = 0
        let operations = [
            (source: "Note.graphql", text: recordedOperations["Note.graphql"]!),
            (source: "Notes.graphql", text: "query Notes($first: Int, $filter: NoteFilter) { notes(first: $first, filter: $filter) { id } }"),
        ]
        let plain = try World.make(name: "recorded", schema: recordedSchema, operations: operations, settings: settings)
        settings.recorded = recordings.map { RecordedResponse(operation: $0.operation, variables: $0.variables, source: $0.name, text: $0.text) }
        let world = try World.make(name: "recorded", schema: recordedSchema, operations: operations, settings: settings)
        for seed: UInt64 in 0..<6 {
            let outcome = Simulation.run(seed: seed, options: .init(events: 150, mutant: .wrongScalarAtIngest, world: plain))
            #expect(outcome.failure == nil, "seed \(seed) without recordings: \(outcome.failure.map(String.init(describing:)) ?? "")")
        }
        var caught: [String]?
        for seed: UInt64 in 0..<6 where caught == nil {
            let outcome = Simulation.run(seed: seed, options: .init(events: 150, mutant: .wrongScalarAtIngest, world: world))
            guard let failure = outcome.failure, let at = outcome.trace.firstIndex(where: { $0.hasPrefix("#\(failure.eventIndex) ") }) else { continue }
            caught = Array(outcome.trace[max(0, at - 2)...at])
        }
        let lines = try #require(caught, "the mutant survives 6 seeds with recordings")
        #expect(lines.contains { $0.hasPrefix("  recorded: the response in ") }, "\(lines)")
    }
    #endif

    @Test("variables the operation does not take are refused when the world loads, naming world.json's entry")
    func variablesChecked() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-recorded-\(getpid())")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("r"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try recordedSchema.write(to: folder.appendingPathComponent("schema.graphql"), atomically: true, encoding: .utf8)
        for (file, text) in recordedOperations {
            try text.write(to: folder.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        try recordings[0].text.write(to: folder.appendingPathComponent("r/note.json"), atomically: true, encoding: .utf8)
        func entry(_ operation: String, _ variables: String) -> String {
            "{\"recorded\": [{\"operation\": \"\(operation)\", \"variables\": \(variables), \"response\": \"r/note.json\"}]}"
        }
        let cases: [(settings: String, position: String, message: String)] = [
            (entry("Note", "{}"), "1:15", "$id of Note is required (ID!) and is left out"),
            (entry("Note", "{\"id\": null}"), "1:15", "$id of Note is required (ID!) and is null"),
            (entry("Note", "{\"id\": true}"), "1:15", "$id of Note: true is no ID"),
            (entry("Note", "{\"id\": \"n1\", \"other\": 1}"), "1:15", "Note declares no variable $other"),
            (entry("Notes", "{\"first\": 2147483648}"), "1:15", "$first of Notes: 2147483648 is no Int"),
            (entry("Notes", "{\"first\": 1.5}"), "1:15", "$first of Notes: 1.5 is no Int"),
            (entry("Notes", "{\"filter\": {\"kind\": \"PLAIN\"}}"), "1:15", "$filter of Notes: NoteFilter.tag is required"),
            (entry("Notes", "{\"filter\": {\"tag\": \"x\", \"kind\": \"OTHER\"}}"), "1:15", "NoteFilter.kind: \"OTHER\" is no Kind"),
            (entry("Notes", "{\"filter\": {\"tag\": \"x\", \"color\": 1}}"), "1:15", "NoteFilter has no field color"),
            (entry("Nope", "{}"), "1:29", "the world has no operation \"Nope\""),
            ("{\"recorded\": [{\"operation\": \"Note\", \"response\": \"r/missing.json\"}]}", "1:15", "cannot read r/missing.json"),
            ("{\"recorded\": [{\"operation\": \"Note\"}]}", "1:15", "needs \"response\""),
            ("{\"recorded\": [{\"operation\": \"Note\", \"file\": \"r/note.json\"}]}", "1:37", "unknown key \"file\""),
            ("{\"recorded\": {}}", "1:14", "expected an array of recorded responses"),
        ]
        let settings = folder.appendingPathComponent("world.json")
        for (text, position, message) in cases {
            try text.write(to: settings, atomically: true, encoding: .utf8)
            do {
                _ = try World.load(directory: folder.path)
                Issue.record("\(text): accepted")
            } catch let error as WorldError {
                #expect(error.source == settings.path, "\(text): \(error)")
                #expect("\(error.line):\(error.column)" == position, "\(text): \(error)")
                #expect(error.message.contains(message), "\(text): \(error)")
            }
        }
        // Values written as other clients write them are taken: an Int as 3.0, a list of one as
        // its item, an enum by its name, a left-out field with a default.
        try entry("Notes", "{\"first\": 3.0, \"filter\": {\"tag\": \"x\"}}").write(to: settings, atomically: true, encoding: .utf8)
        let world = try World.load(directory: folder.path)
        #expect(world.settings.recorded.map(\.source) == ["r/note.json"])
        #expect(world.settings.recorded.first?.text == recordings[0].text)
    }
}
