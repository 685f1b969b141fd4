@testable import Baton
import BatonSim
import Foundation
import Testing

@MainActor
@Suite("The store over its image, across launches")
struct StorePersistenceTests {
    let ops = try! Operations(persistenceSDL)
    let header = """
    query Header($id: ID!) { character(id: $id) { id name } }
    """
    let screen = """
    query Screen($id: ID!) { character(id: $id) { id name status species image } }
    """
    let one: [String: JSONValue] = ["id": .string("1")]

    /// A launch that commits the whole screen of Character:1 and quits: the image then holds it.
    private func launchWithScreen(_ path: String, mutant: Mutant? = nil) throws {
        let launch = try Launch(path, mutant: mutant)
        try ops.commit(launch.store, try ops.plan(screen), one, Self.screenResponse)
        launch.quit()
    }

    static let screenResponse = #"{"data":{"character":{"id":"1","name":"Rick","status":"Alive","species":"Human","image":"r.png"}}}"#

    @Test("a second store over the same file renders a large fixture with a transport that never answers")
    func largeFixture() throws {
        let directory = TemporaryDirectory()
        let schema = try Schema.parse(CharacterPageFixture.schema)
        let plan = try Plan.build(document: CharacterPageFixture.document, schema: schema)
        let variables = try plan.variables(["page": .int(1)])
        let response = CharacterPageFixture.response()
        do {
            let first = try Launch(directory.imagePath)
            first.store.commit(try Ingest.normalize(plan: plan, variables: variables, response: Array(response.utf8)))
            first.quit()
        }
        let second = try Launch(directory.imagePath)
        let answer = second.store.check(plan, variables: variables)
        guard case .available(_, _, .image) = answer else {
            Issue.record("the relaunched check answered \(answer)")
            return
        }
        let read = second.store.read(plan, variables: variables)
        #expect(read.isComplete)
        let expected = try JSONValue.parse(response)
        guard case .object(let top) = expected, let data = top["data"] else { return }
        let difference = JSONDifference.first(read.data, data)
        #expect(difference == nil, "read back differs from the response at \(difference ?? "")")
        #expect(second.store.keys.count > 700)
        second.quit()
    }

    @Test("a mutation's answer survives a relaunch; an optimistic response never does")
    func mutationSurvives() throws {
        let directory = TemporaryDirectory()
        let rename = try ops.plan(#"mutation R($id: ID!, $name: String!) { rename(id: $id, name: $name) { character { id name } } }"#)
        let headerPlan = try ops.plan(header)
        do {
            let launch = try Launch(directory.imagePath)
            try ops.commit(launch.store, headerPlan, one, #"{"data":{"character":{"id":"1","name":"Rick"}}}"#)
            let answered = launch.store.commitOptimistic(try Ingest.normalize(plan: rename, variables: try rename.variables(["id": .string("1"), "name": .string("Optimistic")]), response: Array(#"{"data":{"rename":{"character":{"id":"1","name":"Optimistic"}}}}"#.utf8)))
            launch.drain()
            try ops.commit(launch.store, headerPlan, ["id": .string("2")], #"{"data":{"character":{"id":"2","name":"Morty"}}}"#)
            _ = launch.store.commitOptimistic(try Ingest.normalize(plan: rename, variables: try rename.variables(["id": .string("2"), "name": .string("Never")]), response: Array(#"{"data":{"rename":{"character":{"id":"2","name":"Never"}}}}"#.utf8)))
            launch.store.commit(try Ingest.normalize(plan: rename, variables: try rename.variables(["id": .string("1"), "name": .string("Rick Prime")]), response: Array(#"{"data":{"rename":{"character":{"id":"1","name":"Rick Prime"}}}}"#.utf8)), answering: answered)
            launch.quit()
        }
        let next = try Launch(directory.imagePath)
        #expect(next.store.check(headerPlan, variables: try headerPlan.variables(one)).isAvailable)
        #expect(next.store.read(headerPlan, variables: try headerPlan.variables(one)).data == (try JSONValue.parse(#"{"character":{"id":"1","name":"Rick Prime"}}"#)))
        #expect(next.store.check(headerPlan, variables: try headerPlan.variables(["id": .string("2")])).isAvailable)
        #expect(next.store.read(headerPlan, variables: try headerPlan.variables(["id": .string("2")])).data == (try JSONValue.parse(#"{"character":{"id":"2","name":"Morty"}}"#)))
        let rows = next.image.dumpRecords().compactMap(\.record)
        #expect(!rows.contains { if case .present(_, let cells) = $0 { return cells.contains { $0.cell.value == .string("Never") || $0.cell.value == .string("Optimistic") } }; return false })
        next.quit()
    }

    @Test("field errors, a connection's merged pages, a deletion and an operation's age survive a relaunch")
    func survivors() throws {
        let directory = TemporaryDirectory()
        let clock = TestClock()
        let screenPlan = try ops.plan(screen)
        let notes = try ops.plan("""
        query Notes($after: String) { character(id: "1") { id notes(first: 2, after: $after) @connection(key: "Notes") { edges { cursor node { id text } } pageInfo { endCursor hasNextPage } } } }
        """)
        let cast = try ops.plan(#"query Cast { episode(id: "e") { id characters { id name } } }"#)
        let delete = try ops.plan(#"mutation D($id: ID!) { deleteCharacter(id: $id) { deletedId @deleteRecord(typename: "Character") } }"#)
        do {
            let launch = try Launch(directory.imagePath, clock: clock)
            try ops.commit(launch.store, screenPlan, one, """
            {"data":{"character":{"id":"1","name":"Rick","status":null,"species":"Human","image":null}},"errors":[{"message":"status is private","path":["character","status"]}]}
            """)
            try ops.commit(launch.store, notes, [:], #"{"data":{"character":{"id":"1","notes":{"edges":[{"cursor":"a","node":{"id":"n1","text":"one"}}],"pageInfo":{"endCursor":"a","hasNextPage":true}}}}}"#)
            try ops.commit(launch.store, notes, ["after": .string("a")], #"{"data":{"character":{"id":"1","notes":{"edges":[{"cursor":"b","node":{"id":"n2","text":"two"}}],"pageInfo":{"endCursor":"b","hasNextPage":false}}}}}"#)
            try ops.commit(launch.store, cast, [:], #"{"data":{"episode":{"id":"e","characters":[{"id":"1","name":"Rick"},{"id":"2","name":"Morty"}]}}}"#)
            try ops.commit(launch.store, delete, ["id": .string("2")], #"{"data":{"deleteCharacter":{"deletedId":"2"}}}"#)
            launch.quit()
        }
        clock.advance(100)
        let next = try Launch(directory.imagePath, clock: clock)
        let age = next.store.check(screenPlan, variables: try screenPlan.variables(one), expiration: 60)
        #expect(age == .available(.stale, fetchTime: 5_000, source: .image))
        #expect(next.store.check(screenPlan, variables: try screenPlan.variables(one), expiration: 600) == .available(.fresh, fetchTime: 5_000, source: .memory))
        let status = next.store.data(of: RecordKey("Character:1"))?.cells[SlotID.named("status")]
        #expect(status?.errors.first?.message == "status is private")
        #expect(next.store.check(notes, variables: try notes.variables()).isAvailable)
        #expect(next.store.read(notes, variables: try notes.variables()).data == (try JSONValue.parse(#"{"character":{"id":"1","notes":{"edges":[{"cursor":"a","node":{"id":"n1","text":"one"}},{"cursor":"b","node":{"id":"n2","text":"two"}}],"pageInfo":{"endCursor":"b","hasNextPage":false}}}}"#)))
        #expect(next.store.check(cast, variables: try cast.variables()).isAvailable)
        #expect(next.store.read(cast, variables: try cast.variables()).data == (try JSONValue.parse(#"{"episode":{"id":"e","characters":[{"id":"1","name":"Rick"},null]}}"#)))
        #expect(next.store.data(of: RecordKey("Character:2"))?.deleted == true)
        next.quit()
    }

    /// Launch 1 shows Morty's header and deletes him; launch 2 learns, before any check, that
    /// Morty exists again from a change set naming him with no fields.
    private func morty(deletedThenNamed path: String) throws -> (Launch, Plan) {
        let header = try ops.plan(self.header)
        let delete = try ops.plan(#"mutation D($id: ID!) { deleteCharacter(id: $id) { deletedId @deleteRecord(typename: "Character") } }"#)
        do {
            let launch = try Launch(path)
            try ops.commit(launch.store, header, ["id": .string("2")], #"{"data":{"character":{"id":"2","name":"Morty"}}}"#)
            try ops.commit(launch.store, delete, ["id": .string("2")], #"{"data":{"deleteCharacter":{"deletedId":"2"}}}"#)
            launch.quit()
        }
        let launch = try Launch(path)
        launch.store.commit(ChangeSet(records: [RecordChange(key: RecordKey("Character:2"), typename: "Character")]))
        return (launch, header)
    }

    @Test("a deleted row leaves alone a record memory holds, even one without fields")
    func deletedRowLeavesMemoryAlone() throws {
        let directory = TemporaryDirectory()
        let (launch, header) = try morty(deletedThenNamed: directory.imagePath)
        // The header's fields are not in memory and the row has none: the screen must wait for
        // the network, and Morty stays a record that exists. Until 2026-12-06 the stale row made
        // him deleted.
        let variables = try header.variables(["id": .string("2")])
        #expect(launch.store.check(header, variables: variables) == .missing)
        #expect(launch.store.data(of: RecordKey("Character:2"))?.deleted == false)
        launch.quit()
    }

    /// The race behind the 2026-10-06 addition: a header committed for a record the image holds,
    /// with the writer landing before or after the check that hydrates it.
    @Test("a partial response for a record the image holds: every field survives, whichever lands first", arguments: [true, false])
    func headerBeforeScreen(writerFirst: Bool) throws {
        let directory = TemporaryDirectory()
        let headerPlan = try ops.plan(header)
        let screenPlan = try ops.plan(screen)
        try launchWithScreen(directory.imagePath)
        do {
            let launch = try Launch(directory.imagePath)
            try ops.commit(launch.store, headerPlan, one, #"{"data":{"character":{"id":"1","name":"Rick Sanchez"}}}"#)
            if writerFirst { launch.drain() }
            #expect(launch.store.check(screenPlan, variables: try screenPlan.variables(one)).isAvailable)
            if !writerFirst { launch.drain() }
            launch.quit()
        }
        let third = try Launch(directory.imagePath)
        #expect(third.store.check(screenPlan, variables: try screenPlan.variables(one)).isAvailable)
        #expect(third.store.read(screenPlan, variables: try screenPlan.variables(one)).data == (try JSONValue.parse(#"{"character":{"id":"1","name":"Rick Sanchez","status":"Alive","species":"Human","image":"r.png"}}"#)))
        third.quit()
    }

    #if BATON_MUTANTS
    @Test("the same race under the mutant that replaces rows loses the screen's fields")
    func headerBeforeScreenMutant() throws {
        let directory = TemporaryDirectory()
        let headerPlan = try ops.plan(header)
        let screenPlan = try ops.plan(screen)
        try launchWithScreen(directory.imagePath, mutant: .partialSnapshotReplaces)
        do {
            let launch = try Launch(directory.imagePath, mutant: .partialSnapshotReplaces)
            try ops.commit(launch.store, headerPlan, one, #"{"data":{"character":{"id":"1","name":"Rick Sanchez"}}}"#)
            launch.drain()
            launch.quit()
        }
        let third = try Launch(directory.imagePath)
        #expect(third.store.check(screenPlan, variables: try screenPlan.variables(one)) == .missing)
        third.quit()
    }
    #endif

    @Test("a record swept by collection and written again by a partial response is merged, not replaced")
    func sweptThenPartial() throws {
        let directory = TemporaryDirectory()
        let headerPlan = try ops.plan(header)
        let screenPlan = try ops.plan(screen)
        try launchWithScreen(directory.imagePath)
        do {
            let launch = try Launch(directory.imagePath)
            #expect(launch.store.check(screenPlan, variables: try screenPlan.variables(one)) == .available(.fresh, fetchTime: 5_000, source: .image))
            #expect(launch.store.isHydrated(RecordKey("Character:1")))
            launch.drain()
            launch.store.collect()
            #expect(launch.store.data(of: RecordKey("Character:1")) == nil)
            #expect(!launch.store.isHydrated(RecordKey("Character:1")))
            try ops.commit(launch.store, headerPlan, one, #"{"data":{"character":{"id":"1","name":"Rick C-137"}}}"#)
            launch.quit()
        }
        let third = try Launch(directory.imagePath)
        #expect(third.store.read(screenPlan, variables: try screenPlan.variables(one)).isComplete == false)
        #expect(third.store.check(screenPlan, variables: try screenPlan.variables(one)).isAvailable)
        #expect(third.store.read(screenPlan, variables: try screenPlan.variables(one)).data == (try JSONValue.parse(#"{"character":{"id":"1","name":"Rick C-137","status":"Alive","species":"Human","image":"r.png"}}"#)))
        third.quit()
    }

    @Test("a record read in launches 2 and 3 and unread in 4 is gone in 5")
    func generations() throws {
        let directory = TemporaryDirectory()
        let screenPlan = try ops.plan(screen)
        let variables = try screenPlan.variables(one)
        try launchWithScreen(directory.imagePath)
        for _ in 2...3 {
            let launch = try Launch(directory.imagePath)
            #expect(launch.store.check(screenPlan, variables: variables).isAvailable)
            launch.quit()
        }
        do {
            let launch = try Launch(directory.imagePath)
            launch.quit()
        }
        let fifth = try Launch(directory.imagePath)
        #expect(fifth.store.check(screenPlan, variables: variables) == .missing)
        fifth.drain()
        #expect(fifth.image.dumpRecords().map(\.key).isEmpty)
        fifth.quit()
    }

    @Test("a file overwritten between commit and check is a miss, never a trap or wrong data")
    func overwrittenFile() throws {
        let directory = TemporaryDirectory()
        let screenPlan = try ops.plan(screen)
        try launchWithScreen(directory.imagePath)
        let launch = try Launch(directory.imagePath)
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: directory.imagePath + suffix) {
            let size = (try? FileManager.default.attributesOfItem(atPath: directory.imagePath + suffix)[.size] as? Int) ?? 4096
            _ = FileManager.default.createFile(atPath: directory.imagePath + suffix, contents: Data((0..<max(size, 1)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }))
        }
        // Pages SQLite still caches may answer; whatever answers must be the right data.
        let answer = launch.store.check(screenPlan, variables: try screenPlan.variables(one))
        if answer.isAvailable {
            #expect(launch.store.read(screenPlan, variables: try screenPlan.variables(one)).data == (try JSONValue.parse(#"{"character":{"id":"1","name":"Rick","status":"Alive","species":"Human","image":"r.png"}}"#)))
        }
        try ops.commit(launch.store, screenPlan, one, #"{"data":{"character":{"id":"1","name":"Rick","status":"Alive","species":"Human","image":"r.png"}}}"#)
        launch.quit()
    }
}

@MainActor
@Suite("An image that opens off the main actor")
struct OpeningImageTests {
    let ops = try! Operations(persistenceSDL)

    @Test("commits made before the open reach the file, and the check waits for the open")
    func commitsBeforeOpen() throws {
        let directory = TemporaryDirectory()
        let plan = try ops.plan("query Screen($id: ID!) { character(id: $id) { id name status } }")
        let variables: [String: JSONValue] = ["id": .string("1")]
        let gate = DispatchSemaphore(value: 0)
        let path = directory.imagePath
        let opening = OpeningImage(queue: DispatchQueue(label: "test.open")) { () throws(ImageError) -> Image in
            gate.wait()
            return try Image.open(path: path, appVersion: "persistence-tests", configuration: ImageConfiguration(executor: ManualWriterExecutor()))
        }
        let store = Store(image: opening, configuration: .init(collectsAutomatically: false))
        try ops.commit(store, plan, variables, #"{"data":{"character":{"id":"1","name":"Rick","status":"Alive"}}}"#)
        #expect(opening.pendingKeys().contains(RecordKey("Character:1")))
        gate.signal()
        let image = try #require(opening.wait())
        #expect(image.pendingKeys().contains(RecordKey("Character:1")))
        _ = image.writer.drain()
        image.close()
        let next = try Launch(path)
        #expect(next.store.check(plan, variables: try plan.variables(variables)).isAvailable)
        #expect(next.store.read(plan, variables: try plan.variables(variables)).data == (try JSONValue.parse(#"{"character":{"id":"1","name":"Rick","status":"Alive"}}"#)))
        next.quit()
    }

    @Test("every commit buffered before the open reaches the image, in order, and collection keeps them until then",
          arguments: [nil, Mutant.openingKeepsLastCommit, .openingHidesBufferedKeys])
    func bufferedCommitsInOrder(mutant: Mutant?) throws {
        let directory = TemporaryDirectory()
        let plan = try ops.plan("query Screen($id: ID!) { character(id: $id) { id name status } }")
        let path = directory.imagePath
        nonisolated(unsafe) var held: (@Sendable () -> Void)?
        let opening = OpeningImage(start: { held = $0 }, mutant: mutant) { () throws(ImageError) -> Image in
            try Image.open(path: path, appVersion: "persistence-tests", configuration: ImageConfiguration(executor: ManualWriterExecutor()))
        }
        let store = Store(image: opening, configuration: .init(collectsAutomatically: false))
        try ops.commit(store, plan, ["id": .string("1")], #"{"data":{"character":{"id":"1","name":"Rick","status":"Alive"}}}"#)
        try ops.commit(store, plan, ["id": .string("2")], #"{"data":{"character":{"id":"2","name":"Morty","status":"Alive"}}}"#)
        try ops.commit(store, plan, ["id": .string("1")], #"{"data":{"character":{"id":"1","name":"Rick","status":"Dead"}}}"#)
        let pending = opening.pendingKeys()
        // Nothing retains the screens: a pass now may sweep only what the image has been told of.
        _ = store.collect()
        held?()
        let image = try #require(opening.wait())
        _ = image.writer.drain()
        image.close()
        let next = try Launch(path)
        let names = try ["1", "2"].map { id in
            next.store.check(plan, variables: try plan.variables(["id": .string(id)])).isAvailable
                ? next.store.read(plan, variables: try plan.variables(["id": .string(id)])).data : nil
        }
        next.quit()
        let expected = try [
            JSONValue.parse(#"{"character":{"id":"1","name":"Rick","status":"Dead"}}"#),
            JSONValue.parse(#"{"character":{"id":"2","name":"Morty","status":"Alive"}}"#),
        ]
        let bothKept = pending.isSuperset(of: [RecordKey("Character:1"), RecordKey("Character:2")])
        let bothWritten = names == expected
        switch mutant {
        case nil:
            #expect(bothKept)
            #expect(bothWritten)
        case .openingHidesBufferedKeys?:
            #expect(!bothKept)
        default:
            #expect(!bothWritten)
        }
    }

    @Test("the commits kept before the open obey the writer's bound: past it they are dropped and the image empties itself",
          arguments: [nil, Mutant.openingBufferUnbounded])
    func bufferObeysTheBound(mutant: Mutant?) throws {
        let directory = TemporaryDirectory()
        let plan = try ops.plan("query Screen($id: ID!) { character(id: $id) { id name status } }")
        let path = directory.imagePath
        // A first launch leaves Character:1 in the file.
        let first = try Launch(path)
        try ops.commit(first.store, plan, ["id": .string("1")], #"{"data":{"character":{"id":"1","name":"Rick","status":"Alive"}}}"#)
        first.quit()
        // Each commit is three items (a snapshot, a root field, a fetch time); the bound is five.
        let limits = WriterLimits(maxQueuedItems: 5)
        nonisolated(unsafe) var held: (@Sendable () -> Void)?
        let opening = OpeningImage(start: { held = $0 }, limits: limits, mutant: mutant) { () throws(ImageError) -> Image in
            try Image.open(path: path, appVersion: "persistence-tests", configuration: ImageConfiguration(executor: ManualWriterExecutor(), limits: limits))
        }
        let store = Store(image: opening, configuration: .init(collectsAutomatically: false))
        try ops.commit(store, plan, ["id": .string("2")], #"{"data":{"character":{"id":"2","name":"Morty","status":"Alive"}}}"#)
        try ops.commit(store, plan, ["id": .string("3")], #"{"data":{"character":{"id":"3","name":"Summer","status":"Alive"}}}"#)
        let pending = opening.pendingKeys()
        held?()
        let image = try #require(opening.wait())
        let overflows = image.writer.status.overflows
        _ = image.writer.drain()
        image.close()
        let next = try Launch(path)
        let available = try ["1", "2", "3"].map { id in next.store.check(plan, variables: try plan.variables(["id": .string(id)])).isAvailable }
        next.quit()
        if mutant == nil {
            // The second commit passed the bound: both were dropped, and the drain emptied the file.
            #expect(!pending.contains(RecordKey("Character:2")))
            #expect(pending.contains(RecordKey("Character:3")))
            #expect(overflows == 1)
            #expect(available == [false, false, true])
        } else {
            #expect(pending.contains(RecordKey("Character:2")))
        }
    }

    @Test("a file that cannot open leaves the store running without an image")
    func failedOpen() throws {
        let plan = try ops.plan("query Screen($id: ID!) { character(id: $id) { id name } }")
        let opening = OpeningImage(path: "/proc/baton-cannot-create-here/app.image", appVersion: "x")
        let store = Store(image: opening, configuration: .init(collectsAutomatically: false))
        try ops.commit(store, plan, ["id": .string("1")], #"{"data":{"character":{"id":"1","name":"Rick"}}}"#)
        #expect(opening.wait() == nil)
        #expect(opening.openError != nil)
        #expect(store.check(plan, variables: try plan.variables(["id": .string("1")])).isAvailable)
    }

    @Test("an image whose open never ran is freed with the commits it kept")
    func droppedBeforeTheOpen() throws {
        let plan = try ops.plan("query Screen($id: ID!) { character(id: $id) { id name } }")
        weak var dropped: OpeningImage?
        do {
            // The seam drops the open's work, as a process that dies before its open does.
            let opening = OpeningImage(start: { _ in }) { () throws(ImageError) -> Image in
                throw ImageError.inUse(path: "never opened")
            }
            dropped = opening
            let store = Store(image: opening, configuration: .init(collectsAutomatically: false))
            try ops.commit(store, plan, ["id": .string("1")], #"{"data":{"character":{"id":"1","name":"Rick"}}}"#)
            #expect(opening.pendingKeys() == [RecordKey("Character:1"), .queryRoot])
        }
        #expect(dropped == nil)
    }
}
