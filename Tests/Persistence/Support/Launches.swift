@testable import Baton
import BatonSim
import Foundation
import Synchronization
import Testing

/// A temporary directory removed when the value is dropped.
final class TemporaryDirectory: Sendable {
    let path: String

    init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("baton-persistence-\(UInt64.random(in: 0..<UInt64.max))").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    var imagePath: String { path + "/app.image" }
}

/// A clock the test moves by hand.
final class TestClock: StoreClock {
    private let seconds: Mutex<Double>
    init(_ start: Double = 5_000) { seconds = Mutex(start) }
    func now() -> Double { seconds.withLock { $0 } }
    func advance(_ delta: Double) { seconds.withLock { $0 += delta } }
}

/// One launch of an app over an image file: a new image, a new store, a writer drained by hand.
@MainActor
struct Launch {
    let image: Image
    let store: Store

    init(_ path: String, clock: any StoreClock = TestClock(), mutant: Mutant? = nil) throws {
        var configuration = ImageConfiguration(executor: ManualWriterExecutor())
        #if BATON_MUTANTS
        configuration.mutant = mutant.flatMap(ImageMutant.init(mutant:))
        #endif
        image = try Image.open(path: path, appVersion: "persistence-tests", configuration: configuration)
        store = Store(image: image, clock: clock, configuration: .init(collectsAutomatically: false, mutant: mutant))
    }

    /// Drains the writer and expects it to commit.
    func drain(sourceLocation: SourceLocation = #_sourceLocation) {
        let result = image.writer.drain()
        switch result {
        case .committed, .nothingToDo: break
        default: Issue.record("drain: \(result)", sourceLocation: sourceLocation)
        }
    }

    /// Drains and closes: a clean quit.
    func quit() {
        drain()
        image.close()
    }
}

/// Plans over a schema, for persistence tests.
struct Operations {
    let schema: Schema

    init(_ sdl: String) throws {
        schema = try Schema.parse(sdl)
    }

    func plan(_ document: String) throws -> Plan {
        try Plan.build(document: document, schema: schema)
    }

    @MainActor
    func commit(_ store: Store, _ plan: Plan, _ variables: [String: JSONValue] = [:], _ json: String) throws {
        store.commit(try Ingest.normalize(plan: plan, variables: try plan.variables(variables), response: Array(json.utf8)))
    }
}

let persistenceSDL = """
type Query { character(id: ID!): Character, episode(id: ID!): Episode }
type Mutation {
  rename(id: ID!, name: String!): RenamePayload
  deleteCharacter(id: ID!): DeletePayload
}
type RenamePayload { character: Character }
type DeletePayload { deletedId: ID }
type Character {
  id: ID!
  name: String
  status: String
  species: String
  image: String
  notes(first: Int, after: String): NoteConnection
}
type Episode { id: ID!, name: String, characters: [Character] }
type NoteConnection { edges: [NoteEdge], pageInfo: PageInfo! }
type NoteEdge { cursor: String!, node: Note }
type Note { id: ID!, text: String }
type PageInfo { endCursor: String, hasNextPage: Boolean! }
"""
