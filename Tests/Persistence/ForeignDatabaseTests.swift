import CSQLite
import Foundation
import Testing

@testable import Baton

/// How a foreign database was left on disk: every journal mode, and the states a crash leaves.
enum ForeignDatabase: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case delete, truncate, persist, memory, off
    /// WAL mode, closed cleanly: the WAL was checkpointed and deleted.
    case walClosed
    /// WAL mode, its app killed: the schema and the application id are in the WAL only, with its index.
    case walKilled
    /// WAL mode, its app still running in this process, nothing checkpointed.
    case walOpen
    /// Rollback mode, its app killed mid-transaction after pages spilled into the file: a hot journal.
    case hotJournal

    var testDescription: String { rawValue }

    /// The application id the database carries (0: none, as many apps leave it).
    var applicationID: Int {
        switch self {
        case .truncate: 12_345
        case .memory: ImageSchema.applicationID ^ 1
        case .walClosed: 7
        case .walKilled: 99
        default: 0
        }
    }

    /// Makes the database at `path`; returns the connection of an app that keeps running.
    func make(at path: String, scratch: String) throws -> OpaquePointer? {
        let schema = "PRAGMA application_id = \(applicationID); CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT);"
        let rows = "INSERT INTO notes(body) VALUES('keep me'), ('and me');"
        switch self {
        case .delete, .truncate, .persist, .memory, .off:
            let db = try Self.open(path)
            try Self.exec(db, "PRAGMA journal_mode = \(rawValue); " + schema + rows + rows)
            sqlite3_close(db)
            return nil
        case .walClosed:
            let db = try Self.open(path)
            try Self.exec(db, "PRAGMA journal_mode = WAL; " + schema + rows)
            sqlite3_close(db)
            return nil
        case .walKilled:
            let live = scratch + "/killed.db"
            let db = try Self.open(live)
            try Self.exec(db, "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; " + schema + rows)
            for suffix in ["", "-wal", "-shm"] {
                try FileManager.default.copyItem(atPath: live + suffix, toPath: path + suffix)
            }
            sqlite3_close(db)
            return nil
        case .walOpen:
            let db = try Self.open(path)
            try Self.exec(db, "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; " + schema + rows)
            return db
        case .hotJournal:
            let live = scratch + "/crashed.db"
            let db = try Self.open(live)
            try Self.exec(db, "PRAGMA journal_mode = DELETE; " + schema + rows)
            try Self.exec(db, "PRAGMA cache_size = 2; BEGIN; " + String(repeating: "INSERT INTO notes(body) VALUES(printf('%.300c', 'x'));", count: 400))
            for suffix in ["", "-journal"] {
                try FileManager.default.copyItem(atPath: live + suffix, toPath: path + suffix)
            }
            try Self.exec(db, "ROLLBACK")
            sqlite3_close(db)
            return nil
        }
    }

    static func open(_ path: String) throws -> OpaquePointer? {
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw ImageTestFailure("cannot open \(path)") }
        return db
    }

    static func exec(_ db: OpaquePointer?, _ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw ImageTestFailure("\(sql.prefix(80)): \(String(cString: sqlite3_errmsg(db)))")
        }
    }
}

/// Issue 9, broken promise 2: a database that is not an image stays byte for byte as it was,
/// with every file beside it, whatever its journal mode, whoever opens it.
@Suite("A foreign database is never written")
struct ForeignDatabaseTests {
    @Test("byte for byte unchanged, with its neighbours, after Image.open, OpeningImage and Image.inspect",
          arguments: ForeignDatabase.allCases)
    func inProcess(kind: ForeignDatabase) throws {
        let directory = try ImageTestDirectory()
        let scratch = try ImageTestDirectory()
        let path = directory.path("notes.db")
        let app = try kind.make(at: path, scratch: scratch.url.path)
        defer { sqlite3_close(app) }
        let before = try DirectorySnapshot(directory.url.path)
        if kind == .hotJournal { #expect(before.files["notes.db-journal"]?.starts(with: [0xD9, 0xD5, 0x05, 0xF9]) == true) }

        let image = try Image.open(path: path, appVersion: "1.0")
        #expect(image.opening == .foreign)
        image.enqueue(WriteBatch(snapshots: [snapshot("User:1", "User", ["name": .string("A")])]))
        #expect(image.read { $0.record(RecordKey("User:1")) } == nil)
        image.close()
        #expect(try DirectorySnapshot(directory.url.path) == before)

        let opening = OpeningImage(path: path, appVersion: "1.0")
        #expect(opening.wait()?.opening == .foreign)
        opening.wait()?.close()
        #expect(try DirectorySnapshot(directory.url.path) == before)

        let inspection = try Image.inspect(path: path)
        #expect(inspection.opening == .foreign)
        #expect(inspection.dumpRecords().isEmpty)
        #expect(inspection.stats() == nil)
        inspection.close()
        #expect(try DirectorySnapshot(directory.url.path) == before)
    }

    @Test("an empty file beside a hot journal of an image's own is started again, not taken for another app's")
    func imagesOwnHotJournal() throws {
        let directory = try ImageTestDirectory()
        let scratch = try ImageTestDirectory()
        let path = directory.path("app.image")
        let live = scratch.path("crashed.image")
        let db = try ForeignDatabase.open(live)
        try ForeignDatabase.exec(db, "PRAGMA journal_mode = DELETE; PRAGMA application_id = \(ImageSchema.applicationID); CREATE TABLE t(body TEXT);")
        try ForeignDatabase.exec(db, "PRAGMA cache_size = 2; BEGIN; " + String(repeating: "INSERT INTO t(body) VALUES(printf('%.300c', 'x'));", count: 400))
        try FileManager.default.copyItem(atPath: live + "-journal", toPath: path + "-journal")
        // The file's own bytes are lost (a power loss); the journal holds the image's page 1.
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        try ForeignDatabase.exec(db, "ROLLBACK")
        sqlite3_close(db)
        let image = try Image.open(path: path, appVersion: "1.0", executor: ManualWriterExecutor())
        defer { image.close() }
        #expect(image.opening == .recreated(.corrupt))
        image.enqueue(WriteBatch(snapshots: [snapshot("User:1", "User", ["name": .string("A")])]))
        #expect(image.drainNow())
        #expect(image.read { $0.record(RecordKey("User:1")) } != nil)
    }

    @Test("byte for byte unchanged, with its neighbours, after every image command; each says why it stops",
          arguments: ForeignDatabase.allCases)
    func commands(kind: ForeignDatabase) throws {
        let directory = try ImageTestDirectory()
        let scratch = try ImageTestDirectory()
        let path = directory.path("notes.db")
        let app = try kind.make(at: path, scratch: scratch.url.path)
        defer { sqlite3_close(app) }
        let inputs = try CommandInputs(in: scratch)
        let before = try DirectorySnapshot(directory.url.path)
        let commands: [[String]] = [
            ["image", "read", "--image", path] + inputs.operation,
            ["image", "write", "--image", path] + inputs.operation + ["--response", inputs.response],
            ["image", "dump", "--image", path],
            ["image", "stats", "--image", path],
        ]
        for command in commands {
            let run = try BatonProcess.run(command)
            #expect(run.status == 1, "\(command[1]): \(run)")
            #expect(run.errors.contains("not an image"), "\(command[1]): \(run)")
            #expect(try DirectorySnapshot(directory.url.path) == before, "\(command[1]) changed the files")
        }
    }
}

/// A schema, a document and a response for the command line, written into a scratch directory.
struct CommandInputs {
    let schema: String
    let document: String
    let response: String

    init(in directory: ImageTestDirectory) throws {
        schema = directory.path("schema.graphql")
        document = directory.path("query.graphql")
        response = directory.path("response.json")
        try "type Query { character(id: ID!): Character }\ntype Character { id: ID!, name: String }\n"
            .write(toFile: schema, atomically: true, encoding: .utf8)
        try "query Q($id: ID!) { character(id: $id) { id name } }\n".write(toFile: document, atomically: true, encoding: .utf8)
        try #"{"data":{"character":{"id":"1","name":"Rick"}}}"#.write(toFile: response, atomically: true, encoding: .utf8)
    }

    /// `--schema … --document … --variables …`.
    var operation: [String] {
        ["--schema", schema, "--document", document, "--variables", #"{"id":"1"}"#]
    }
}
