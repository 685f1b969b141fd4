import Foundation
import Testing

@testable import Baton

@Suite("Image writer under faults")
struct ImageFaultTests {
    let directory: ImageTestDirectory
    let faults = FaultInjector()
    let image: Image

    init() throws {
        directory = try ImageTestDirectory()
        image = try openTestImage(directory.path(), faults: faults, limits: WriterLimits(maxQueuedItems: 10))
    }

    private func batch(_ range: ClosedRange<Int>, _ value: Int) -> WriteBatch {
        WriteBatch(snapshots: range.map { snapshot("Character:\($0)", "Character", ["n": .int(value)]) })
    }

    private func values() -> [String: Value] {
        var result: [String: Value] = [:]
        for row in image.dumpRecords() { result[row.key.rawValue] = cellsOf(row.record)?["n"] }
        return result
    }

    @Test("A step failing during a drain rolls back, keeps the work, and the next drain writes it all",
          arguments: [SQLiteResultCode.full, .busy, .ioerr, SQLiteResultCode(rawValue: 10 | (3 << 8))])
    func stepFails(code: SQLiteResultCode) throws {
        image.enqueue(batch(1...2, 1))
        try image.drainCommitted()
        image.enqueue(batch(2...4, 2))
        faults.fail(.step, nth: 2, with: code)  // one upsert per snapshot: the second snapshot's
        guard case .failed(let error) = image.writer.drain() else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.extendedCode == code)
        #expect(faults.pending == 0)
        #expect(values() == ["Character:1": .int(1), "Character:2": .int(1)])
        #expect(image.pendingKeys() == [RecordKey("Character:2"), RecordKey("Character:3"), RecordKey("Character:4")])
        #expect(image.writer.status.isBehind)
        #expect(image.writer.lastError?.code == code.primary)

        try image.drainCommitted()
        #expect(values() == ["Character:1": .int(1), "Character:2": .int(2), "Character:3": .int(2), "Character:4": .int(2)])
        #expect(image.pendingKeys().isEmpty)
        #expect(!image.writer.status.isBehind)
        #expect(image.writer.lastError == nil)
        #expect(image.integrityCheck() == "ok")
    }

    @Test("BEGIN IMMEDIATE busy, and COMMIT failing: nothing is written, nothing is lost")
    func transactionControlFails() throws {
        image.enqueue(batch(1...3, 1))
        faults.fail(.exec, nth: 1, with: .busy)  // BEGIN IMMEDIATE is the drain's first exec
        #expect(image.writer.drain() == .failed(SQLiteError(extendedCode: .busy, message: "injected fault", sql: "BEGIN IMMEDIATE")))
        #expect(values().isEmpty)
        faults.fail(.exec, nth: 2, with: .full)  // BEGIN, then COMMIT
        guard case .failed(let error) = image.writer.drain() else {
            Issue.record("expected a failed commit")
            return
        }
        #expect(error.code == .full)
        #expect(values().isEmpty)
        try image.drainCommitted()
        #expect(values().count == 3)
    }

    @Test("Work retried after a failure stays ahead of work queued after it")
    func retriedWorkKeepsItsPlace() throws {
        image.enqueue(batch(1...1, 1))
        faults.fail(.step, nth: 1, with: .full)
        #expect(image.writer.drain() != .nothingToDo)
        image.enqueue(batch(1...1, 2))
        try image.drainCommitted()
        #expect(values() == ["Character:1": .int(2)])
    }

    @Test("The check's stamps survive a failed drain")
    func touchesSurviveFailure() throws {
        image.enqueue(batch(1...1, 1))
        try image.drainCommitted()
        image.close()
        let next = try openTestImage(directory.path("store.image"), faults: faults)
        #expect(next.generation == 2)
        #expect(next.readRecord("Character:1") != nil)
        faults.fail(.step, nth: 1, with: .ioerr)
        #expect(next.writer.drain() != .nothingToDo)
        try next.drainCommitted()
        #expect(next.dumpRecords().first?.used == 2)
        #expect(next.dumpNames().allSatisfy { $0.used == 2 })
        next.close()
    }

    @Test("Over the bound the queue is dropped, reads miss, and the image empties itself at the next commit")
    func overflow() throws {
        image.enqueue(batch(1...3, 1))
        try image.drainCommitted()
        faults.failNext(.exec, times: 3, with: .busy)
        image.enqueue(batch(4...9, 1))
        for _ in 0..<3 { #expect(image.writer.drain() != .nothingToDo) }
        #expect(image.writer.status.pendingItems == 6)
        image.enqueue(batch(10...14, 1))  // 6 + 5 > 10
        #expect(image.writer.status.overflows == 1)
        #expect(image.pendingKeys() == Set((10...14).map { RecordKey("Character:\($0)") }))
        #expect(image.read { $0.record(RecordKey("Character:1")) } == nil)
        let summary = try image.drainCommitted()
        #expect(summary.wiped)
        #expect(Set(values().keys) == Set((10...14).map { "Character:\($0)" }))
        #expect(image.readRecord("Character:10") != nil)
    }

    @Test("A drain stopped partway leaves the last commit as the file's state")
    func stoppedDrain() throws {
        let path = directory.path()
        image.enqueue(batch(1...2, 1))
        try image.drainCommitted()
        image.enqueue(batch(1...4, 2))
        #expect(image.writer.drain(stoppingAfter: 3) == .stopped(afterWrites: 3))
        #expect(image.status == .unavailable)
        #expect(image.read { $0.record(RecordKey("Character:1")) } == nil)
        #expect(image.writer.drain() == .unavailable)
        #expect(image.pendingKeys().count == 4)
        image.abandon()

        let next = try openTestImage(path)
        #expect(next.generation == 2)
        #expect(next.integrityCheck() == "ok")
        let rows = next.dumpRecords()
        #expect(rows.map(\.key.rawValue) == ["Character:1", "Character:2"])
        #expect(rows.allSatisfy { cellsOf($0.record) == ["n": .int(1)] })
        next.close()
    }

    @Test("A read that fails with an I/O error is a failed read, and the file is kept")
    func readFailureKeepsFile() throws {
        image.enqueue(batch(1...2, 1))
        try image.drainCommitted()
        faults.fail(.step, nth: 1, with: .ioerr)
        #expect(image.read { [$0.record(RecordKey("Character:1")), $0.record(RecordKey("Character:2"))] } == [.unreadable, .unreadable])
        #expect(image.status == .ready)
        #expect(cellsOf(image.readRecord("Character:2")) == ["n": .int(1)])
        #expect(image.resets == 0)
    }

    @Test("A read whose transaction cannot begin fails that once; only a corrupt file starts again",
          arguments: [(SQLiteResultCode.ioerr, false), (.full, false), (.corrupt, true)])
    func beginFailure(code: SQLiteResultCode, resets: Bool) throws {
        image.enqueue(batch(1...2, 1))
        try image.drainCommitted()
        faults.fail(.exec, nth: 1, with: code)
        #expect(image.readRecord("Character:1") == nil)
        #expect(faults.pending == 0)
        #expect(image.status == (resets ? .resetPending : .ready))
        if !resets { #expect(cellsOf(image.readRecord("Character:2")) == ["n": .int(1)]) }
    }

    @Test("A read that finds the file corrupt misses and has the next drain recreate the file")
    func readFailureResets() throws {
        image.enqueue(batch(1...2, 1))
        try image.drainCommitted()
        faults.fail(.step, nth: 1, with: .corrupt)
        #expect(image.readRecord("Character:1") == nil)
        #expect(image.status == .resetPending)
        #expect(image.readRecord("Character:2") == nil)
        image.enqueue(batch(3...3, 1))
        let summary = try image.drainCommitted()
        #expect(summary.recreatedFile)
        #expect(image.status == .ready)
        #expect(image.resets == 1)
        #expect(image.generation == 1)
        #expect(Set(values().keys) == ["Character:3"])
        #expect(image.integrityCheck() == "ok")
    }

    @Test("A read that is only busy misses without touching the file")
    func busyReadMisses() throws {
        image.enqueue(batch(1...1, 1))
        try image.drainCommitted()
        faults.fail(.step, nth: 1, with: .busy)
        #expect(image.readRecord("Character:1") == nil)
        #expect(image.status == .ready)
        #expect(image.readRecord("Character:1") != nil)
    }
}
