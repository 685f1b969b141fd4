import Foundation
import Testing

@testable import Baton

/// Issue 9, broken promise 2 (our own file): `dump` and `stats` write nothing, and say what they
/// could not read instead of leaving it out.
@Suite("Inspecting an image writes nothing and reports what it cannot read")
struct ImageInspectionTests {
    let directory: ImageTestDirectory
    var path: String { directory.path() }
    static let count = 600

    init() throws {
        directory = try ImageTestDirectory()
        let image = try openTestImage(path)
        image.enqueue(WriteBatch(
            snapshots: (0..<Self.count).map { index in
                snapshot(Self.key(index), "Character", ["name": .string(String(repeating: "n", count: 40) + "\(index)")], hydrated: true)
            },
            rootFields: [NamedCell(storageKey: "hero", cell: Cell(.link(RecordKey("Character:0000"))))],
            fetches: [FetchStamp(operation: OperationIdentity("Q{}"), time: 12)]))
        try image.drainCommitted()
        image.close()
    }

    static func key(_ index: Int) -> String {
        "Character:" + String(repeating: "0", count: 4 - String(index).count) + String(index)
    }

    /// A schema, a document and its response for the command-line tests, written into `folder`.
    static func operationFiles(in folder: String) throws -> (schema: String, document: String, response: String) {
        let schema = folder + "/s.graphql"
        let document = folder + "/q.graphql"
        let response = folder + "/r.json"
        try "type Query { a: Int }".write(toFile: schema, atomically: true, encoding: .utf8)
        try "query Q { a }".write(toFile: document, atomically: true, encoding: .utf8)
        try #"{"data":{"a":1}}"#.write(toFile: response, atomically: true, encoding: .utf8)
        return (schema, document, response)
    }

    @Test("a folder or a device where the image should be is named as one by every image command, exit 1")
    func folderNamed() throws {
        let folder = directory.path("a-folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let (schema, document, response) = try Self.operationFiles(in: directory.url.path)
        let operation = ["--schema", schema, "--document", document]
        for command in [["dump"], ["stats"], ["read"] + operation, ["write"] + operation + ["--response", response]] {
            let run = try BatonProcess.run(["image", command[0], "--image", folder] + command.dropFirst())
            #expect(run.status == 1, "\(command[0]): \(run)")
            #expect(run.errors == "baton: \(folder): it is a folder, not an image file\n", "\(command[0]): \(run)")
        }
        // A device, or a link to one: SQLite would take /dev/null for an empty database and try
        // to write its tables there ("disk I/O error (in COMMIT)" until 2026-12-06).
        let link = directory.path("null.image")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
        for path in ["/dev/null", link] {
            for command in [["dump"], ["stats"], ["read"] + operation, ["write"] + operation + ["--response", response]] {
                let run = try BatonProcess.run(["image", command[0], "--image", path] + command.dropFirst())
                #expect(run.status == 1, "\(command[0]): \(run)")
                #expect(run.errors == "baton: \(path): it is a device, not an image file\n", "\(command[0]): \(run)")
            }
        }
    }

    @Test("a file that is not a SQLite database, given by mistake to any image command, is left byte for byte as it was")
    func otherFileLeftUntouched() throws {
        let folder = directory.path("mistaken")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let (schema, document, response) = try Self.operationFiles(in: folder)
        let operation = ["--schema", schema, "--document", document]
        let before = try DirectorySnapshot(folder)
        // The document itself, the response, and a text shorter than a database's header.
        for mistaken in [document, response, schema] {
            for command in [["read"] + operation, ["write"] + operation + ["--response", response]] {
                let run = try BatonProcess.run(["image", command[0], "--image", mistaken] + command.dropFirst())
                #expect(run.status == 1, "\(command[0]): \(run)")
                #expect(run.errors == "baton: \(mistaken) is not a SQLite database, so not an image: left untouched (an image whose first page was overwritten looks the same: delete it to start again)\n", "\(command[0]): \(run)")
                #expect(try DirectorySnapshot(folder) == before, "\(command[0]) on \(mistaken) changed the files")
            }
            for command in ["dump", "stats"] {
                let run = try BatonProcess.run(["image", command, "--image", mistaken])
                #expect(run.status == 1, "\(command): \(run)")
                #expect(run.errors == "baton: \(mistaken) is not an image (not a SQLite database)\n", "\(command): \(run)")
            }
        }
        #expect(try DirectorySnapshot(folder) == before)
    }

    @Test("a damaged image: read refuses it and leaves it as it was; write starts it again as the app would, and says so")
    func damagedImageReadRefusesWriteRestarts() throws {
        let folder = directory.path("damaged")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let image = folder + "/store.image"
        try FileManager.default.copyItem(atPath: path, toPath: image)
        // A page size no database has: SQLite refuses the header, so the image is damaged.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: image))
        bytes[16] = 0x00
        bytes[17] = 0x03
        try bytes.write(to: URL(fileURLWithPath: image))
        let (schema, document, response) = try Self.operationFiles(in: folder)
        let operation = ["--schema", schema, "--document", document]
        let before = try DirectorySnapshot(folder)
        let read = try BatonProcess.run(["image", "read", "--image", image] + operation)
        #expect(read.status == 1, "\(read)")
        #expect(read.errors == "baton: \(image) is a damaged image: the app would delete it and start again; left untouched (`baton image write` starts it again)\n", "\(read)")
        #expect(try DirectorySnapshot(folder) == before)
        let write = try BatonProcess.run(["image", "write", "--image", image] + operation + ["--response", response])
        #expect(write.status == 0, "\(write)")
        #expect(write.errors.hasPrefix("note: \(image) was a damaged image: deleted and started again, as the app would\n"), "\(write)")
        let again = try BatonProcess.run(["image", "read", "--image", image] + operation)
        #expect(again.status == 0, "\(again)")
    }

    @Test("dump and stats on a closed image leave every file as it was, in process and from the command line")
    func closedImage() throws {
        let before = try DirectorySnapshot(directory.url.path)
        #expect(before.files.keys.sorted() == ["store.image", "store.image-lock"])
        let image = try Image.inspect(path: path)
        let dump = try #require(image.dump())
        #expect(dump.records.count == Self.count)
        #expect(dump.isSound)
        #expect(image.stats()?.isSound == true)
        image.close()
        #expect(try DirectorySnapshot(directory.url.path) == before)
        for command in ["dump", "stats"] {
            let run = try BatonProcess.run(["image", command, "--image", path])
            #expect(run.status == 0, "\(command): \(run)")
            #expect(try DirectorySnapshot(directory.url.path) == before, "\(command) changed the files")
        }
    }

    @Test("on an image its process left running: the database and its WAL stay as they were, and the WAL's rows are shown")
    func imageWithWAL() throws {
        let live = try openTestImage(path)
        live.enqueue(WriteBatch(snapshots: [snapshot("Character:new", "Character", ["name": .string("only in the WAL")], hydrated: true)]))
        try live.drainCommitted()
        let copy = directory.path("copy.image")
        for suffix in ["", "-wal", "-shm"] { try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix) }
        live.close()
        let database = try #require(fileBytes(copy))
        let log = try #require(fileBytes(copy + "-wal"))
        #expect(log.count > 0)
        let image = try Image.inspect(path: copy)
        #expect(cellsOf(image.dumpRecords().first { $0.key == RecordKey("Character:new") }?.record) == ["name": .string("only in the WAL")])
        image.close()
        let run = try BatonProcess.run(["image", "stats", "--image", copy])
        #expect(run.status == 0, "\(run)")
        #expect(fileBytes(copy) == database)
        #expect(fileBytes(copy + "-wal") == log)
    }

    @Test("rows that fail their checks are listed by key, the rest printed, and the exit is 3")
    func damagedRows() throws {
        try withRawDatabase(path) { db in
            try db.execute("UPDATE records SET row = x'00' WHERE key IN ('Character:0007', 'Character:0300')")
            try db.execute("UPDATE fetches SET time = 13")
        }
        let image = try Image.inspect(path: path)
        let dump = try #require(image.dump())
        image.close()
        #expect(dump.damaged.map(\.table) == ["records", "fetches"])
        #expect(dump.damaged.first?.keys == ["Character:0007", "Character:0300"])
        let run = try BatonProcess.run(["image", "dump", "--image", path])
        #expect(run.status == 3, "\(run)")
        #expect(run.errors.contains("3 rows fail their checks (records Character:0007, Character:0300; fetches Q{})"), "\(run)")
        #expect(run.output.contains("Character:0008"))
        #expect(!run.output.contains("\"Character:0007\""))
        let stats = try BatonProcess.run(["image", "stats", "--image", path])
        #expect(stats.status == 3, "\(stats)")
    }

    @Test("beside a checkpoint's copy of the WAL, dump and stats say the next open puts it back, and leave it")
    func checkpointCopyNamed() throws {
        let copy = path + CheckpointCopy.suffix
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: copy))
        for command in ["dump", "stats"] {
            let run = try BatonProcess.run(["image", command, "--image", path])
            #expect(run.status == 0, "\(run)")
            #expect(run.errors.contains("-walcopy is beside the image: an open died inside its checkpoint"), "\(run)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == Data([1, 2, 3]))
        try FileManager.default.removeItem(atPath: copy)
        let clean = try BatonProcess.run(["image", "stats", "--image", path])
        #expect(!clean.errors.contains("walcopy"), "\(clean)")
    }

    @Test("a page SQLite cannot read: the rows on both sides are read, the gap is reported, nothing is wrong")
    func unreadablePage() throws {
        var bytes = try #require(fileBytes(path))
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])  // the header's page size (the image's is 2,048)
        let pages = bytes.count / pageSize
        #expect(pages > 8)
        // A page in the middle of the file: one of the records table's leaves.
        let page = pages / 2
        bytes.replaceSubrange(page * pageSize..<(page + 1) * pageSize, with: Data(repeating: 0xA5, count: pageSize))
        try bytes.write(to: URL(fileURLWithPath: path))
        let image = try Image.inspect(path: path)
        let dump = try #require(image.dump())
        image.close()
        #expect(dump.unreadable.map(\.table) == ["records"])
        #expect(dump.records.count > 0 && dump.records.count < Self.count)
        #expect(dump.records.first?.key == RecordKey(Self.key(0)))
        #expect(dump.records.last?.key == RecordKey(Self.key(Self.count - 1)))
        for row in dump.records {
            let index = try #require(Int(row.key.rawValue.dropFirst("Character:".count)))
            #expect(cellsOf(row.record) == ["name": .string(String(repeating: "n", count: 40) + "\(index)")])
        }
        let run = try BatonProcess.run(["image", "dump", "--image", path])
        #expect(run.status == 3, "\(run)")
        #expect(run.errors.contains("SQLite cannot read records rows after"), "\(run)")
    }
}
