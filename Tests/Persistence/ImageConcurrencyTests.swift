import Dispatch
import Foundation
import Testing

@testable import Baton

@Suite("The one connection, shared by the writer and the check")
struct ImageConcurrencyTests {
    @Test("a read waits for a write in flight: once a drain has taken its work, a read sees all of it")
    func readWaitsForWrite() throws {
        let directory = try ImageTestDirectory()
        let image = try openTestImage(directory.path())
        defer { image.close() }
        let count = 3_000
        image.enqueue(WriteBatch(snapshots: (0..<count).map { index in
            snapshot("Character:\(index)", "Character", ["name": .string("N\(index)")], hydrated: true)
        }))
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = image.writer.drain()
            finished.signal()
        }
        // The drain takes its work under the connection's lock; from then on a read must wait.
        while image.writer.hasQueuedWork {}
        let seen = image.read { transaction in
            (transaction.record(RecordKey("Character:0")).record != nil, transaction.record(RecordKey("Character:\(count - 1)")).record != nil)
        }
        finished.wait()
        #expect(seen?.0 == true, "the read ran before the drain committed")
        #expect(seen?.1 == true, "the read saw part of a drain")
    }
}
