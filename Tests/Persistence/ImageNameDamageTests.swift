import Foundation
import Testing

@testable import Baton

/// Issue 9, broken promise 1: a row's checksum does not cover the names its ids refer to, so
/// each name and each fetch time carries a checksum of its own (row format 2).
@Suite("A damaged name or fetch time never reaches a reader")
struct ImageNameDamageTests {
    let directory: ImageTestDirectory
    var path: String { directory.path() }
    static let operation = OperationIdentity("CharacterScreen{\"id\":\"1\"}")

    init() throws {
        directory = try ImageTestDirectory()
        let image = try openTestImage(path)
        image.enqueue(WriteBatch(
            snapshots: [
                snapshot("Character:1", "Character", ["name": .string("Rick"), "status": .string("Alive"), "origin": .string("Earth")], hydrated: true),
                snapshot("Location:1", "Location", ["name": .string("Citadel")], hydrated: true),
            ],
            rootFields: [NamedCell(storageKey: "hero", cell: Cell(.link(RecordKey("Character:1"))))],
            fetches: [FetchStamp(operation: Self.operation, time: 1_000)]))
        try image.drainCommitted()
        image.close()
    }

    /// Runs `sql` on the closed file, as damage would change it.
    private func damage(_ sql: String) throws {
        try withRawDatabase(path) { try $0.execute(sql) }
    }

    /// The next launch's answers: both records, the root field and the fetch time.
    private func relaunch() throws -> (character: ImageRecord?, location: ImageRecord?, hero: Cell?, fetch: Double?) {
        let image = try openTestImage(path)
        defer { image.close() }
        let answers = image.read { read in
            (read.record(RecordKey("Character:1")).record, read.record(RecordKey("Location:1")).record,
             read.rootField("hero"), read.fetchTime(Self.operation))
        }
        let unwrapped = try #require(answers)
        return (unwrapped.0, unwrapped.1, unwrapped.2, unwrapped.3)
    }

    @Test("A flipped bit in a type name: the rows and root cells that use it miss, never read as another type")
    func typeNameFlipped() throws {
        try damage("UPDATE names SET name = 'Charactev' WHERE name = 'Character'")
        let answers = try relaunch()
        #expect(answers.character == nil)
        #expect(answers.location == .present(typename: "Location", cells: [NamedCell(storageKey: "name", cell: Cell(.string("Citadel")))]))
        // The root field's link records its target's type by that name's id: a miss too.
        #expect(answers.hero == nil)
    }

    @Test("Two field names of equal length swapped: the rows that use them miss, no value under the wrong field")
    func fieldNamesSwapped() throws {
        try damage("""
            UPDATE names SET name = 'x' WHERE name = 'status';
            UPDATE names SET name = 'status' WHERE name = 'origin';
            UPDATE names SET name = 'origin' WHERE name = 'x';
            """)
        let answers = try relaunch()
        #expect(answers.character == nil)
        #expect(answers.location != nil)
    }

    @Test("A name's id changed: every row that used it misses")
    func nameIDChanged() throws {
        try damage("UPDATE names SET id = 9999 WHERE name = 'status'")
        #expect(try relaunch().character == nil)
    }

    @Test("A damaged name checksum: a miss until a write of the name sets it right, then every row reads")
    func nameChecksumRepairedByWriter() throws {
        try damage("UPDATE names SET crc = (crc | 1) - (crc & 1) WHERE name = 'origin'")
        let image = try openTestImage(path)
        defer { image.close() }
        #expect(image.readRecord("Character:1") == nil)
        // A new record that uses the name: the writer finds the name's row and repairs its checksum.
        image.enqueue(WriteBatch(snapshots: [snapshot("Character:2", "Character", ["origin": .string("Mars")], hydrated: true)]))
        try image.drainCommitted()
        #expect(cellsOf(image.readRecord("Character:2")) == ["origin": .string("Mars")])
        #expect(cellsOf(image.readRecord("Character:1")) == ["name": .string("Rick"), "origin": .string("Earth"), "status": .string("Alive")])
        #expect(image.dumpNames().allSatisfy { $0.verified })
    }

    @Test("A new name after a damaged one with the largest id gets the next id; the damaged one keeps its own")
    func newNameAfterDamagedLargest() throws {
        // The writer adds a new name under the largest id in the file plus one, as SQLite picks
        // it: a name the image did not load (its checksum fails) still counts.
        let before = try Image.inspect(path: path)
        let largest = try #require(before.dumpNames().max { $0.id < $1.id })
        before.close()
        try damage("UPDATE names SET crc = (crc | 1) - (crc & 1) WHERE id = \(largest.id)")
        let image = try openTestImage(path)
        defer { image.close() }
        image.enqueue(WriteBatch(snapshots: [snapshot("Character:2", "Character", ["species": .string("Human")], hydrated: true)]))
        try image.drainCommitted()
        let names = image.dumpNames()
        #expect(names.first { $0.name == "species" }?.id == largest.id + 1)
        #expect(names.first { $0.id == largest.id }?.name == largest.name)
        #expect(names.filter { !$0.verified }.map(\.id) == [largest.id])
        #expect(cellsOf(image.readRecord("Character:2")) == ["species": .string("Human")])
        // Written again, the damaged name keeps its id and its checksum is set right.
        image.enqueue(WriteBatch(snapshots: [snapshot("Thing:1", "Thing", [largest.name: .int(1)], hydrated: true)]))
        try image.drainCommitted()
        #expect(image.dumpNames().first { $0.name == largest.name }?.id == largest.id)
        #expect(image.dumpNames().allSatisfy { $0.verified })
    }

    @Test("A damaged fetch time, operation or checksum is an unknown age, never a wrong one", arguments: [
        "UPDATE fetches SET time = 1001",
        "UPDATE fetches SET time = -1000",
        "UPDATE fetches SET crc = (crc | 256) - (crc & 256)",
    ])
    func fetchDamaged(sql: String) throws {
        try damage(sql)
        let answers = try relaunch()
        #expect(answers.fetch == nil)
        #expect(answers.character != nil)
    }

    @Test("An undamaged image answers everything; a fetch time of negative zero reads back as zero")
    func undamaged() throws {
        let answers = try relaunch()
        #expect(cellsOf(answers.character) == ["name": .string("Rick"), "origin": .string("Earth"), "status": .string("Alive")])
        #expect(answers.fetch == 1_000)
        let image = try openTestImage(path)
        image.enqueue(WriteBatch(fetches: [FetchStamp(operation: Self.operation, time: -0.0)]))
        try image.drainCommitted()
        #expect(image.read { $0.fetchTime(Self.operation) } == 0)
        image.close()
    }

    @Test("A dump never prints a row through a damaged name; the name and the row are reported")
    func dumpReportsDamagedNames() throws {
        try damage("UPDATE names SET name = 'Charactev' WHERE name = 'Character'")
        let image = try Image.inspect(path: path)
        defer { image.close() }
        let rows = Dictionary(uniqueKeysWithValues: image.dumpRecords().map { ($0.key.rawValue, $0.record) })
        #expect(rows["Character:1"] == .some(nil))
        #expect(rows["Location:1"] != .some(nil))
        let names = image.dumpNames()
        #expect(names.filter { !$0.verified }.map(\.name) == ["Charactev"])
    }

    @Test("A bit flipped in the file inside a name's text: no read ever sees the flipped name")
    func rawByteFlipInName() throws {
        var bytes = try #require(fileBytes(path))
        let needle = Data("Location".utf8)
        // Every copy of the text (the names row, its index entry, keys, the schema) gets one bit flipped.
        var start = bytes.startIndex
        var flipped = 0
        while let range = bytes.range(of: needle, in: start..<bytes.endIndex) {
            bytes[range.lowerBound + 3] ^= 0x04
            start = range.upperBound
            flipped += 1
        }
        #expect(flipped > 0)
        try bytes.write(to: URL(fileURLWithPath: path))
        let image = try openTestImage(path)
        defer { image.close() }
        let location = image.readRecord("Location:1")
        #expect(location == nil || cellsOf(location) == ["name": .string("Citadel")])
        if case .present(let typename, _)? = location { #expect(typename == "Location") }
    }
}
