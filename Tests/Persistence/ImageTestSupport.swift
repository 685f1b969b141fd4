import CSQLite
import Foundation
import Testing

@testable import Baton

/// A directory of its own under the system's temporary directory, removed when released.
final class ImageTestDirectory {
    let url: URL

    /// A new directory; with `inMemory`, on a memory file system when the machine has one
    /// (`/dev/shm`), for tests that create many files and would otherwise wait on `fsync`.
    init(inMemory: Bool = false) throws {
        var parent = FileManager.default.temporaryDirectory
        var isDirectory: ObjCBool = false
        if inMemory, FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isDirectory), isDirectory.boolValue {
            parent = URL(fileURLWithPath: "/dev/shm")
        }
        var template = Array(parent.appendingPathComponent("baton-image-XXXXXX").path.utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard let made else { throw ImageTestFailure("mkdtemp failed") }
        url = URL(fileURLWithPath: String(cString: made))
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A path inside the directory.
    func path(_ name: String = "store.image") -> String {
        url.appendingPathComponent(name).path
    }
}

struct ImageTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Opens an image whose writer drains only when the test says so.
func openTestImage(
    _ path: String, appVersion: String = "1.0", faults: FaultInjector? = nil, limits: WriterLimits = WriterLimits(),
    mutant: String? = nil, lockWaitMilliseconds: Int = ImageSchema.defaultLockWaitMilliseconds
) throws -> Image {
    var configuration = ImageConfiguration(
        executor: ManualWriterExecutor(), faults: faults, limits: limits, lockWaitMilliseconds: lockWaitMilliseconds)
    #if BATON_MUTANTS
    if let mutant { configuration.mutant = ImageMutant(rawValue: mutant) }
    #endif
    return try Image.open(path: path, appVersion: appVersion, configuration: configuration)
}

/// A snapshot from a dictionary of cells (sorted by the writer anyway).
func snapshot(
    _ key: String, _ typename: String, _ cells: [String: Value], deleted: Bool = false, hydrated: Bool = false,
    linkTypes: [String: String] = [:]
) -> Snapshot {
    Snapshot(
        key: RecordKey(key), typename: typename,
        cells: cells.keys.sorted().map { NamedCell(storageKey: $0, cell: Cell(cells[$0]!)) },
        deleted: deleted, hydrated: hydrated,
        linkTypes: Dictionary(uniqueKeysWithValues: linkTypes.map { (RecordKey($0.key), $0.value) }))
}

/// A present record's cells as a dictionary.
func cellsOf(_ record: ImageRecord?) -> [String: Value]? {
    guard case .present(_, let cells)? = record else { return nil }
    return Dictionary(uniqueKeysWithValues: cells.map { ($0.storageKey, $0.cell.value) })
}

extension Image {
    /// Reads one record in its own read transaction.
    func readRecord(_ key: String) -> ImageRecord? {
        read { $0.record(RecordKey(key)).record } ?? nil
    }

    /// Drains and requires a commit.
    @discardableResult
    func drainCommitted(sourceLocation: SourceLocation = #_sourceLocation) throws -> DrainSummary {
        let result = writer.drain()
        guard case .committed(let summary) = result else {
            Issue.record("expected a commit, got \(result)", sourceLocation: sourceLocation)
            throw ImageTestFailure("drain did not commit: \(result)")
        }
        return summary
    }

    /// The decoded record of every row, by key.
    func recordsByKey() -> [String: ImageRecord?] {
        Dictionary(uniqueKeysWithValues: dumpRecords().map { ($0.key.rawValue, $0.record) })
    }
}

/// Runs SQL on a file with a connection of its own (not through an image).
func withRawDatabase<R>(_ path: String, _ body: (Connection) throws -> R) throws -> R {
    let connection = try Connection.open(
        path: path, vfs: nil, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, door: SQLiteDoor())
    defer { connection.close() }
    return try body(connection)
}

/// The bytes of a file, or nil when it does not exist.
func fileBytes(_ path: String) -> Data? {
    FileManager.default.contents(atPath: path)
}

/// SplitMix64: the tests' seeded, fixed-algorithm generator.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A fixed name table for codec tests.
struct TestNames: RowNames {
    var byID: [Int: String] = [:]
    var byName: [String: Int] = [:]

    mutating func id(_ name: String) -> Int {
        if let id = byName[name] { return id }
        let id = byID.count + 1
        byID[id] = name
        byName[name] = id
        return id
    }

    func name(ofID id: Int) -> String? { byID[id] }
}
