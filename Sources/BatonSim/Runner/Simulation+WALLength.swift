/// The WAL's length between drains: a process whose drains leave the log holding at least the
/// image's `checkpointPages` frames must checkpoint it, so that the next drain starts a new log
/// instead of appending for as long as the app runs (invariant `wal-checkpointed`).
///
/// Read from the disk's bytes with SQLite's WAL format (a 32-byte header whose salts every frame
/// of the current log repeats; a frame is a 24-byte header and a page), never from the store's
/// account of its drain. A session planting bugs found a checkpoint that ran only when the log
/// held exactly `checkpointPages` frames passing every campaign (2026-12-07): nothing looked at
/// the WAL's length, and reads through SQLite see the same rows however long the log grows.
extension Simulation {
    /// The current log of a WAL file: its salts, and how many frames after the header carry them.
    struct WALLog: Equatable {
        var salts: UInt64
        var frames: Int

        /// `nil` for a file too short for a header (none, or truncated by a checkpoint).
        init?(_ bytes: [UInt8]) {
            guard bytes.count >= 32 else { return nil }
            func word(_ offset: Int) -> UInt32 {
                bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
            }
            let pageSize = Int(word(8))
            guard pageSize >= 512 else { return nil }
            let salts = UInt64(word(16)) << 32 | UInt64(word(20))
            var frames = 0
            var offset = 32
            while offset + 24 + pageSize <= bytes.count, UInt64(word(offset + 8)) << 32 | UInt64(word(offset + 12)) == salts {
                frames += 1
                offset += 24 + pageSize
            }
            self.salts = salts
            self.frames = frames
        }
    }

    /// After a drain: `clean` when it committed while the disk failed nothing and no crash was
    /// armed. Throws when the last clean drain left the log holding at least `checkpointPages`
    /// frames and this clean one appended frames to that same log.
    func checkWALLength(clean: Bool, index: Int) throws {
        let log = disk.bytes(of: Self.imagePath + "-wal").flatMap(WALLog.init)
        defer { lastDrainLog = clean ? log : nil }
        // A commit that changed no page (stamps already current) writes no frame, and restarts
        // no log: only a drain that appended is asked whether it started a new one.
        guard clean, let log, let last = lastDrainLog, last.frames >= checkpointPages, log.salts == last.salts,
              log.frames > last.frames else { return }
        throw violation(
            "wal-checkpointed",
            "the last drain left \(Self.count(last.frames, "frame")) in the WAL (a checkpoint is due at \(checkpointPages)), and this one appended to the same log (\(log.frames) frames now): no checkpoint emptied it",
            at: index)
    }
}
