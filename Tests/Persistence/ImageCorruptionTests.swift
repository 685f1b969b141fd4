import Foundation
import Testing

@testable import Baton

@Suite("Image damage reads as a miss")
struct ImageCorruptionTests {
    let directory: ImageTestDirectory
    let image: Image
    var path: String { directory.path() }

    init() throws {
        directory = try ImageTestDirectory()
        image = try openTestImage(directory.path())
        image.enqueue(WriteBatch(
            snapshots: [
                snapshot("Character:1", "Character", ["name": .string("Rick"), "age": .int(70)], hydrated: true),
                snapshot("Character:2", "Character", ["name": .string("Morty")], hydrated: true),
            ],
            rootFields: [NamedCell(storageKey: "hero", cell: Cell(.link(RecordKey("Character:1"))))]))
        _ = image.writer.drain()
    }

    /// Rewrites one blob with a raw connection.
    private func damage(table: String, keyColumn: String, blobColumn: String, key: String, _ change: (inout [UInt8]) -> Void) throws {
        try withRawDatabase(path) { db in
            let select = try db.prepare("SELECT \(blobColumn) FROM \(table) WHERE \(keyColumn) = ?1")
            try select.bind(key, at: 1)
            guard try select.step() else { throw ImageTestFailure("no row \(key)") }
            var bytes = select.blob(0)
            select.reset()
            change(&bytes)
            let update = try db.prepare("UPDATE \(table) SET \(blobColumn) = ?1 WHERE \(keyColumn) = ?2")
            try update.bind(blob: bytes, at: 1)
            try update.bind(key, at: 2)
            try update.run()
        }
    }

    @Test("A row with one flipped bit is a miss; its neighbours still read", arguments: [0, 9, 30, 60])
    func flippedBit(bit: Int) throws {
        try damage(table: "records", keyColumn: "key", blobColumn: "row", key: "Character:1") { bytes in
            let index = min(bit / 8, bytes.count - 1)
            bytes[index] ^= UInt8(1 << (bit % 8))
        }
        #expect(image.readRecord("Character:1") == nil)
        #expect(cellsOf(image.readRecord("Character:2")) == ["name": .string("Morty")])
        #expect(image.status == .ready)
    }

    @Test("A float where an int or a blob is read is a miss, never a trap", arguments: [
        "UPDATE records SET row = 3.25 WHERE key = 'Character:1'",
        "UPDATE records SET row = 42 WHERE key = 'Character:1'",
        "UPDATE records SET row = 'text, not a row' WHERE key = 'Character:1'",
        "UPDATE root SET cell = 2.5 WHERE field = 'hero'",
    ])
    func wrongStorageClass(sql: String) throws {
        try withRawDatabase(path) { try $0.execute(sql) }
        if sql.contains("root") {
            #expect(image.read { $0.rootField("hero") } == .some(nil))
        } else {
            #expect(image.readRecord("Character:1") == nil)
        }
        #expect(cellsOf(image.readRecord("Character:2")) == ["name": .string("Morty")])
    }

    @Test("A truncated row is a miss")
    func truncatedRow() throws {
        try damage(table: "records", keyColumn: "key", blobColumn: "row", key: "Character:1") { bytes in
            bytes.removeLast(3)
        }
        #expect(image.readRecord("Character:1") == nil)
        try withRawDatabase(path) { try $0.execute("UPDATE records SET row = x'' WHERE key = 'Character:2'") }
        #expect(image.readRecord("Character:2") == nil)
    }

    @Test("A row moved under another key is a miss")
    func swappedRows() throws {
        try withRawDatabase(path) { db in
            try db.execute("UPDATE records SET row = (SELECT row FROM records WHERE key = 'Character:2') WHERE key = 'Character:1'")
        }
        #expect(image.readRecord("Character:1") == nil)
        #expect(image.readRecord("Character:2") != nil)
    }

    @Test("A damaged root cell is a miss")
    func damagedRootCell() throws {
        try damage(table: "root", keyColumn: "field", blobColumn: "cell", key: "hero") { bytes in bytes[0] ^= 0x01 }
        #expect(image.read { $0.rootField("hero") } == .some(nil))
    }

    @Test("A row naming an id the names table lacks is a miss")
    func missingName() throws {
        try withRawDatabase(path) { try $0.execute("DELETE FROM names WHERE name = 'age'") }
        image.close()
        let reopened = try openTestImage(path)
        #expect(reopened.readRecord("Character:1") == nil)
        #expect(reopened.readRecord("Character:2") != nil)
        reopened.close()
    }

    @Test("A file (with its WAL and WAL index) overwritten with garbage between a write and a read: a miss, no trap, then a new file")
    func overwrittenFile() throws {
        image.enqueue(WriteBatch(snapshots: [snapshot("Character:3", "Character", ["name": .string("Summer")], hydrated: true)]))
        try image.drainCommitted()
        for suffix in ["", "-wal", "-shm"] {
            let size = (try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? Int) ?? 0
            let garbage = Data((0..<max(size, 4096)).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })
            let handle = try #require(FileHandle(forWritingAtPath: path + suffix))
            try handle.write(contentsOf: garbage)
            try handle.close()
        }
        for key in ["Character:1", "Character:2", "Character:3", "Character:404"] {
            let record = image.readRecord(key)
            let expected: [String: Value]? = switch key {
            case "Character:1": ["name": .string("Rick"), "age": .int(70)]
            case "Character:2": ["name": .string("Morty")]
            case "Character:3": ["name": .string("Summer")]
            default: nil
            }
            // Whatever SQLite manages to read, the image answers the truth or nothing.
            #expect(record == nil || cellsOf(record) == expected)
        }
        // With the WAL index garbage too, SQLite cannot serve the rows from its cache: the file is suspect.
        #expect(image.status == .resetPending)
        image.enqueue(WriteBatch(snapshots: [snapshot("Character:4", "Character", ["name": .string("Beth")], hydrated: true)]))
        let summary = try image.drainCommitted()
        #expect(summary.recreatedFile)
        #expect(image.resets == 1)
        #expect(image.status == .ready)
        #expect(cellsOf(image.readRecord("Character:4")) == ["name": .string("Beth")])
        #expect(image.integrityCheck() == "ok")
    }
}
