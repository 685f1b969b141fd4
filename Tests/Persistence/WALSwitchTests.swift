@testable import Baton
import BatonSim
import CSQLite
import Testing

/// The open and the WAL: an image is in WAL mode whenever an open returns it (every rule of the
/// writer, the checkpoint and the erase assumes it; SQLite answers `wal` to the switch even when
/// it could not make it), and a WAL the open cannot read now never has the file judged without it.
@Suite("The open and the WAL")
struct WALSwitchTests {
    @Test("a switch to WAL that a failed journal deletion undid is asked for again, and the image that opens is in WAL mode")
    func switchUndoneByAFailedDeletion() throws {
        let disk = SimulatedDisk(seed: 3)
        let path = "switch.image"
        // Garbage first, so the first open starts the file again; its switch to WAL fails on a
        // full disk after the tables are committed, which leaves an image in rollback mode.
        disk.overwrite(path, bytes: [UInt8](repeating: 0x5a, count: 4096))
        disk.fail(.sync, code: SQLITE_FULL)
        let configuration = ImageConfiguration(executor: ManualWriterExecutor())
        #expect(throws: ImageError.self) { try Image.open(path: path, vfs: disk.vfsName, appVersion: "1", configuration: configuration) }
        #expect(disk.bytes(of: path).map { [$0[18], $0[19]] } == [1, 1], "the file is an image in rollback mode")
        // The next open's switch to WAL needs a rollback journal deleted: that deletion fails.
        disk.fail(.delete, code: 0)
        let image = try Image.open(path: path, vfs: disk.vfsName, appVersion: "1", configuration: configuration)
        defer { image.close() }
        let mode = image.core.withState { try? $0.connection?.scalarText("PRAGMA journal_mode") }
        #expect(mode == "wal")
        #expect(disk.bytes(of: path).map { [$0[18], $0[19]] } == [2, 2], "the header says WAL")
        image.enqueue(WriteBatch(snapshots: [snapshot("Character:1", "Character", ["name": .string("x")])]))
        #expect(try image.drainCommitted().batches == 1)
        #expect(disk.fileExists(path + "-wal"), "the drain wrote the WAL, not a rollback journal")
    }

    @Test("a WAL the open cannot open now fails the open, and never has a file whose page 1 a checkpoint tore deleted")
    func unopenableWALNeverDiscards() throws {
        let disk = SimulatedDisk(seed: 4)
        let path = "torn.image"
        let configuration = ImageConfiguration(executor: ManualWriterExecutor())
        let image = try Image.open(path: path, vfs: disk.vfsName, appVersion: "1", configuration: configuration)
        image.enqueue(WriteBatch(snapshots: [snapshot("Character:1", "Character", ["name": .string("kept")])]))
        _ = try image.drainCommitted()
        disk.kill()
        image.abandon()
        // Page 1 of the file torn by a checkpoint a power loss cut: garbage where the header was.
        // The WAL still holds the page whole, and SQLite reads it from there.
        var file = try #require(disk.bytes(of: path))
        for offset in 0..<100 { file[offset] = UInt8(truncatingIfNeeded: offset &* 37 &+ 11) }
        disk.overwrite(path, bytes: file)
        #expect(disk.bytes(of: path + "-wal")?.isEmpty == false)
        // The probe's open of the WAL (the second file the open opens) fails, once.
        disk.fail(.open, code: SQLITE_CANTOPEN, skipping: 1)
        #expect(throws: (any Error).self) { try Image.open(path: path, vfs: disk.vfsName, appVersion: "1", configuration: configuration) }
        let reopened = try Image.open(path: path, vfs: disk.vfsName, appVersion: "1", configuration: configuration)
        defer { reopened.close() }
        #expect(reopened.opening == .opened)
        #expect(reopened.readRecord("Character:1") != nil, "the row is still there")
    }
}

