@testable import Baton
import BatonSim
import CSQLite
import Testing

/// An image is in WAL mode whenever an open returns it: every rule of the writer, the checkpoint
/// and the erase assumes it. SQLite answers `wal` to the switch even when it could not make it.
@Suite("The open leaves the image in WAL mode")
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
}
