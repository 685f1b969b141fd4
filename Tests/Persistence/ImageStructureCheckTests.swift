import Foundation
import Testing

@testable import Baton

/// What the image does once damage shows: a damaged row in a sound file is a miss and the file
/// stays; a file SQLite reads without noticing it is damaged is found out and started again.
@Suite("Damage that SQLite does not report")
struct ImageStructureCheckTests {
    let directory: ImageTestDirectory
    var path: String { directory.path() }
    static let count = 400

    init() throws {
        directory = try ImageTestDirectory()
        let image = try openTestImage(path)
        image.enqueue(WriteBatch(snapshots: (0..<Self.count).map { index in
            snapshot("Character:\(1000 + index)", "Character", ["name": .string(String(repeating: "x", count: 60) + "\(index)")], hydrated: true)
        }))
        try image.drainCommitted()
        image.close()
    }

    /// Flips one bit in the row of `key`, in the file's bytes.
    private func flipBit(inRowOf key: String, _ bytes: inout Data) throws {
        let index = try #require(Int(key.dropFirst("Character:".count))) - 1000
        let name = String(repeating: "x", count: 60) + "\(index)"
        // The row holds the name as its UTF-8 length (one byte here) and then its bytes.
        let needle = Data([UInt8(name.utf8.count)] + Array(name.utf8))
        let range = try #require(bytes.range(of: needle))
        bytes[range.lowerBound + 5] ^= 0x01
    }

    @Test("a damaged row in a sound file is a miss, and the file and its other rows stay")
    func damagedRowSoundFile() throws {
        var bytes = try #require(fileBytes(path))
        try flipBit(inRowOf: "Character:1007", &bytes)
        try bytes.write(to: URL(fileURLWithPath: path))
        let image = try openTestImage(path)
        defer { image.close() }
        #expect(image.readRecord("Character:1007") == nil)
        #expect(image.status == .ready)
        #expect(cellsOf(image.readRecord("Character:1008")) == ["name": .string(String(repeating: "x", count: 60) + "8")])
    }

    @Test("a check that fails to run gives no verdict: the file stays, and the next damage a read meets checks again")
    func failedCheckAsksAgain() throws {
        var bytes = try #require(fileBytes(path))
        try swapLeaves(&bytes)
        try flipBit(inRowOf: "Character:1200", &bytes)
        try bytes.write(to: URL(fileURLWithPath: path))
        let faults = FaultInjector()
        let image = try openTestImage(path, faults: faults)
        defer { image.close() }
        // The read's own step finds the damaged row; the check's step (the second) fails.
        faults.fail(.step, nth: 2, with: .ioerr)
        #expect(image.readRecord("Character:1200") == nil)
        #expect(faults.pending == 0)
        #expect(image.status == .ready)
        // A sound row read meets no damage and runs no check.
        #expect(image.readRecord("Character:1201") != nil)
        #expect(image.status == .ready)
        // The damage met again: the check runs now and finds the leaves out of order.
        #expect(image.readRecord("Character:1200") == nil)
        #expect(image.status == .resetPending)
    }

    /// Swaps the first and the last leaf page of `records` in the file's bytes: keys out of order
    /// across pages, which SQLite reads without noticing.
    private func swapLeaves(_ bytes: inout Data) throws {
        let leaves = try withRawDatabase(path) { db -> [Int] in
            let statement = try db.prepare("SELECT pageno FROM dbstat WHERE name = 'records' AND pagetype = 'leaf' ORDER BY path")
            var pages: [Int] = []
            while try statement.step() { pages.append(statement.int(0)) }
            return pages
        }
        #expect(leaves.count >= 3)
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])  // the header's page size (the image's is 2,048)
        let (a, b) = ((leaves[0] - 1) * pageSize, (leaves[leaves.count - 1] - 1) * pageSize)
        let first = bytes[a..<a + pageSize]
        bytes.replaceSubrange(a..<a + pageSize, with: bytes[b..<b + pageSize])
        bytes.replaceSubrange(b..<b + pageSize, with: first)
    }

    @Test("leaf pages out of key order: once a read meets a damaged row, SQLite's integrity check runs and the file starts again")
    func pagesOutOfOrder() throws {
        var bytes = try #require(fileBytes(path))
        try swapLeaves(&bytes)
        try flipBit(inRowOf: "Character:1200", &bytes)
        try bytes.write(to: URL(fileURLWithPath: path))

        let image = try openTestImage(path)
        #expect(image.status == .ready, "SQLite opens the file without a word")
        #expect(image.readRecord("Character:1200") == nil)
        #expect(image.status == .resetPending)
        image.enqueue(WriteBatch(snapshots: [snapshot("Character:1000", "Character", ["name": .string("again")], hydrated: true)]))
        let summary = try image.drainCommitted()
        #expect(summary.recreatedFile)
        #expect(cellsOf(image.readRecord("Character:1000")) == ["name": .string("again")])
        #expect(image.integrityCheck() == "ok")
        image.close()
    }

    @Test("a clean quit whose drain finds the file corrupt starts it again and still writes its work")
    func closeAfterCorruptDrain() throws {
        let faults = FaultInjector()
        let image = try openTestImage(path, faults: faults)
        image.enqueue(WriteBatch(snapshots: [snapshot("Character:9", "Character", ["name": .string("last words")], hydrated: true)]))
        faults.fail(.exec, nth: 1, with: .corrupt)
        image.close()
        #expect(faults.fired.map(\.code) == [.corrupt])
        #expect(image.writer.lastError == nil)
        let next = try openTestImage(path)
        defer { next.close() }
        #expect(cellsOf(next.readRecord("Character:9")) == ["name": .string("last words")])
    }
}
