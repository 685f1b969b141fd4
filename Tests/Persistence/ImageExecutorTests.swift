import Foundation
import Testing

@testable import Baton

@Suite("Image writer on its background executor")
struct ImageExecutorTests {
    /// Polls `condition` every 5 ms for up to five seconds.
    private func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<1000 {
            if condition() { return true }
            usleep(5000)
        }
        return condition()
    }

    @Test("Enqueued batches are drained in the background")
    func drainsInBackground() throws {
        let directory = try ImageTestDirectory()
        let image = try Image.open(path: directory.path(), appVersion: "1.0")
        defer { image.close() }
        for index in 0..<20 {
            image.enqueue(WriteBatch(snapshots: [snapshot("C:\(index)", "C", ["n": .int(index)])]))
        }
        #expect(eventually { image.pendingKeys().isEmpty })
        #expect(image.dumpRecords().count == 20)
        #expect(cellsOf(image.readRecord("C:7")) == ["n": .int(7)])
    }

    @Test("Failed drains are retried with a backoff until they commit")
    func retries() throws {
        let directory = try ImageTestDirectory()
        let faults = FaultInjector()
        let configuration = ImageConfiguration(executor: BackgroundWriterExecutor(), faults: faults)
        let image = try Image.open(path: directory.path(), appVersion: "1.0", configuration: configuration)
        defer { image.close() }
        faults.failNext(.exec, times: 3, with: .busy)
        image.enqueue(WriteBatch(snapshots: [snapshot("C:1", "C", ["n": .int(1)])]))
        #expect(eventually { image.writer.status.commits == 1 })
        #expect(faults.fired.count == 3)
        #expect(image.pendingKeys().isEmpty)
        #expect(!image.writer.status.isBehind)
    }

    @Test("A read's stamps wake the writer")
    func readsWakeTheWriter() throws {
        let directory = try ImageTestDirectory()
        let path = directory.path()
        let first = try Image.open(path: path, appVersion: "1.0")
        first.enqueue(WriteBatch(snapshots: [snapshot("C:1", "C", ["n": .int(1)])]))
        first.close()
        let second = try Image.open(path: path, appVersion: "1.0")
        defer { second.close() }
        #expect(second.readRecord("C:1") != nil)
        #expect(eventually { second.dumpRecords().first?.used == 2 })
    }

    @Test("close() writes what is still queued")
    func closeFlushes() throws {
        let directory = try ImageTestDirectory()
        let path = directory.path()
        let image = try openTestImage(path)
        image.enqueue(WriteBatch(snapshots: [snapshot("C:1", "C", ["n": .int(1)])]))
        image.close()
        image.enqueue(WriteBatch(snapshots: [snapshot("C:2", "C", ["n": .int(2)])]))
        #expect(image.readRecord("C:1") == nil)
        let inspection = try Image.inspect(path: path)
        #expect(inspection.dumpRecords().map(\.key.rawValue) == ["C:1"])
        inspection.close()
    }
}
