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

    @Test("an erase racing the background writer: no read after it, and no row once the writer is idle, holds what came before it")
    func eraseRacesTheWriter() throws {
        let directory = try ImageTestDirectory()
        let image = try Image.open(path: directory.path(), appVersion: "1.0")
        defer { image.close() }
        func values(_ transaction: any ImageReadTransaction) -> [Value?] {
            (0..<50).map { cellsOf(transaction.record(RecordKey("C:\($0)")).record)?["n"] }
        }
        for round in 0..<40 {
            let before = Value.string("before \(round)"), after = Value.string("after \(round)")
            image.enqueue(WriteBatch(snapshots: (0..<50).map { snapshot("C:\($0)", "C", ["n": before], hydrated: true) }))
            // Now and then the writer has taken the batch, or committed it, before the erase.
            if round % 3 == 1 { usleep(UInt32(round % 5) * 300) }
            #expect(image.erase())
            image.enqueue(WriteBatch(snapshots: (0..<25).map { snapshot("C:\($0)", "C", ["n": after], hydrated: true) }))
            if let seen = image.read(values) {
                #expect(seen.allSatisfy { $0 == nil || $0 == after }, "round \(round): a read after the erase saw \(seen)")
            }
            var idle = false
            for _ in 0..<1000 where !idle {
                idle = image.pendingKeys().isEmpty && !image.writer.hasQueuedWork
                if !idle { usleep(2000) }
            }
            #expect(idle)
            let rows = image.read(values)
            #expect(rows.map { Array($0.prefix(25)) } == Array(repeating: after, count: 25), "round \(round)")
            #expect(rows.map { $0.dropFirst(25).allSatisfy { $0 == nil } } == true, "round \(round)")
        }
    }
}
