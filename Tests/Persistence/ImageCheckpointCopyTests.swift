import Foundation
import Testing

@testable import Baton

/// The open's copy of the WAL on a real file system, through SQLite's unix VFS: taken and deleted
/// around the checkpoint of a launch after a kill, and put back by the next open when the
/// checkpoint it guarded died.
@Suite("Image: the open's checkpoint guarded by a copy of the WAL, on disk")
struct ImageCheckpointCopyTests {
    let directory: ImageTestDirectory

    init() throws {
        directory = try ImageTestDirectory()
    }

    static let keys = (0..<60).map { "Note:\($0)" }

    /// The files a killed process leaves: sixty long rows drained and still in the WAL (more
    /// than one write of the unix VFS can carry), copied while the image was open.
    private func killedImage() throws -> String {
        let live = directory.path("live.image")
        let killed = directory.path("killed.image")
        let image = try openTestImage(live)
        image.enqueue(WriteBatch(snapshots: Self.keys.enumerated().map { index, key in
            snapshot(key, "Note", ["body": .string(String(repeating: "\(index % 10)", count: 3_000))])
        }))
        try image.drainCommitted()
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: live + suffix, toPath: killed + suffix) }
        image.close()
        let wal = try FileManager.default.attributesOfItem(atPath: killed + "-wal")[.size] as? Int ?? 0
        #expect(wal > 0x1ffff)
        return killed
    }

    private func expectAllRows(_ path: String) throws {
        let image = try openTestImage(path)
        defer { image.close() }
        for key in Self.keys { #expect(image.readRecord(key) != nil, "\(key)") }
        #expect(image.integrityCheck() == "ok")
        #expect(!FileManager.default.fileExists(atPath: path + CheckpointCopy.suffix))
    }

    @Test("a launch after a kill copies the WAL, checkpoints it, and deletes the copy")
    func launchAfterKill() throws {
        let path = try killedImage()
        try expectAllRows(path)
    }

    @Test("a copy left by an open that died inside its checkpoint is put back over a WAL that lost its frames")
    func restoresLeftCopy() throws {
        let path = try killedImage()
        let base = try VFSFile.fullPath(path, vfs: nil, door: SQLiteDoor())
        #expect(try CheckpointCopy.take(base: base, vfs: nil, door: SQLiteDoor()))
        // The checkpoint died after the WAL lost the frames a failed sync dropped.
        let wal = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        try wal.prefix(wal.count / 3).write(to: URL(fileURLWithPath: path + "-wal"))
        try expectAllRows(path)
    }
}
