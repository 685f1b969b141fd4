import Foundation
import Testing

@testable import Baton

@Suite("Image reads")
struct ImageReadTests {
    let directory: ImageTestDirectory
    let image: Image

    init() throws {
        directory = try ImageTestDirectory()
        image = try openTestImage(directory.path())
        image.enqueue(WriteBatch(snapshots: [snapshot("C:1", "C", ["n": .int(1)])]))
        _ = image.writer.drain()
    }

    @Test("One read transaction answers many items; a missing key is a miss")
    func manyItems() {
        let answers = image.read { read in [read.record(RecordKey("C:1")).record, read.record(RecordKey("C:2")).record] }
        #expect(answers?.count == 2)
        #expect(cellsOf(answers?[0]) == ["n": .int(1)])
        #expect(answers?[1] == nil)
    }

    @Test("Calling back into the image from a read's body neither deadlocks nor breaks the read")
    func reentrancy() {
        image.enqueue(WriteBatch(snapshots: [snapshot("C:2", "C", ["n": .int(2)])]))
        let result = image.read { read -> (Bool, DrainResult, Int, ImageRecord?) in
            let nested = image.read { _ in true }
            let drained = image.writer.drain()
            let dumped = image.dumpRecords().count
            return (nested == nil, drained, dumped, read.record(RecordKey("C:1")).record)
        }
        #expect(result?.0 == true)
        guard case .failed(let error)? = result?.1 else {
            Issue.record("a drain inside a read should fail")
            return
        }
        #expect(error.code == .misuse)
        #expect(result?.2 == 0)
        #expect(cellsOf(result?.3) == ["n": .int(1)])
        #expect(image.status == .ready)
        #expect(image.pendingKeys() == [RecordKey("C:2")])
        #expect(image.writer.drain() != .nothingToDo)
        #expect(cellsOf(image.readRecord("C:2")) == ["n": .int(2)])
    }

    @Test("close() inside a read's body takes effect when the body returns")
    func closeInsideRead() {
        let value = image.read { read -> ImageRecord? in
            image.close()
            return read.record(RecordKey("C:1")).record
        }
        #expect(cellsOf(value ?? nil) == ["n": .int(1)])
        #expect(image.status == .unavailable)
        #expect(image.readRecord("C:1") == nil)
    }

    @Test("A transaction kept past its read answers nothing")
    func escapedTransaction() {
        var kept: (any ImageReadTransaction)?
        _ = image.read { kept = $0 }
        #expect(kept?.record(RecordKey("C:1")) == .unreadable)
    }

    @Test("A fetch time that is not a number is not written and does not block the writer")
    func nanFetchTime() throws {
        image.enqueue(WriteBatch(
            snapshots: [snapshot("C:3", "C", ["n": .int(3)])],
            fetches: [FetchStamp(operation: OperationIdentity("Q{}"), time: .nan)]))
        try image.drainCommitted()
        #expect(image.read { $0.fetchTime(OperationIdentity("Q{}")) } == .some(nil))
        #expect(image.readRecord("C:3") != nil)
    }
}
