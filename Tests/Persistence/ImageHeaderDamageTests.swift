import Foundation
import Testing

@testable import Baton

/// Issue 9, broken promise 5: with SQLite's header damaged, every open failed for good (byte 18,
/// the write version, made the file read-only; byte 47, the schema format, made SQLite refuse it).
/// A file SQLite cannot use is garbage: deleted and started again.
@Suite("A damaged header never locks the image")
struct ImageHeaderDamageTests {
    /// An image at rest (closed cleanly, so its WAL is checkpointed into the file).
    static let base: Data = {
        let directory = try! ImageTestDirectory()
        let image = try! openTestImage(directory.path())
        image.enqueue(WriteBatch(
            snapshots: [snapshot("Character:1", "Character", ["name": .string("Rick")], hydrated: true)],
            fetches: [FetchStamp(operation: OperationIdentity("Q{}"), time: 5)]))
        _ = image.writer.drain()
        image.close()
        return fileBytes(directory.path())!
    }()

    /// The changes tried at every header byte: the lowest, a middle and the highest bit flipped,
    /// and all ones (every bit of every byte, and zeros, is `baton image sweep --header`'s work:
    /// 1,000 opens take too long for the test run).
    static func changes(_ byte: UInt8) -> [(name: String, value: UInt8)] {
        [0, 3, 7].map { bit in ("bit \(bit)", byte ^ UInt8(1 << bit)) } + [("0xFF", 0xFF)]
    }

    @Test("every byte of the header, damaged four ways: the image opens, reads right or misses, and takes writes again",
          arguments: 0..<100)
    func headerByte(offset: Int) throws {
        for (name, value) in Self.changes(Self.base[offset]) where value != Self.base[offset] {
            let directory = try ImageTestDirectory(inMemory: true)
            let path = directory.path()
            var bytes = Self.base
            bytes[offset] = value
            try bytes.write(to: URL(fileURLWithPath: path))
            let context = "byte \(offset), \(name)"

            let first = try openTestImage(path)
            #expect(first.opening != .foreign, "\(context)")
            let read = first.readRecord("Character:1")
            #expect(read == nil || cellsOf(read) == ["name": .string("Rick")], "\(context): \(String(describing: read))")
            first.enqueue(WriteBatch(snapshots: [snapshot("Character:2", "Character", ["name": .string("Morty")], hydrated: true)]))
            _ = first.writer.drain()
            first.close()

            let second = try openTestImage(path)
            #expect(second.status == .ready, "\(context)")
            #expect(cellsOf(second.readRecord("Character:2")) == ["name": .string("Morty")], "\(context): the write after the damage")
            #expect(second.integrityCheck() == "ok", "\(context)")
            second.close()
        }
    }

    @Test("the two bytes the issue found: each is discarded and started again at once", arguments: [18, 47])
    func knownBytes(offset: Int) throws {
        let directory = try ImageTestDirectory()
        let path = directory.path()
        var bytes = Self.base
        bytes[offset] = 0x07
        try bytes.write(to: URL(fileURLWithPath: path))
        let image = try openTestImage(path)
        #expect(image.opening == .recreated(.corrupt))
        image.close()
    }
}
