/// The copy of the WAL an open takes before its checkpoint, so that a crash inside the checkpoint
/// can always be repaired.
///
/// A checkpoint copies the WAL's pages into the database file, trusting that every frame it
/// copies is on the platter: it syncs the WAL first. Linux breaks that trust after a writeback
/// error (a full disk, an I/O error): the failed sync marks the WAL's dirty pages clean, reads
/// still see them, and the next sync succeeds with nothing to write. A power loss inside the next
/// checkpoint then leaves database pages of commits whose frames never reached the platter, and
/// nothing can repair the file (BatonSim's `openCrash` found it: seed 768 of the default world, an
/// index missing entries; seed 1945, a file started again as corrupt). The process that saw the
/// failed sync may be gone, and a later process cannot learn of it.
///
/// So before the open's checkpoint, the WAL's bytes (as reads see them) are written to a new file
/// beside it, `<image>-walcopy`, with a trailer (its length and checksum), and synced with its
/// directory entry; the copy is deleted, syncing the directory, once the checkpoint has returned.
/// An open that finds a copy puts it back over the WAL before anything reads the image: the
/// checkpoint it guarded may have died part way, and the copy holds every frame it was copying.
/// A copy whose trailer does not check was cut short before its checkpoint began, and is only
/// deleted, and so is a copy with no WAL beside it (the file was put back by hand, see
/// ``restoreIfLeft(base:vfs:door:)``). No commit happens while a copy exists, so one put back can
/// never undo a newer one.
package enum CheckpointCopy {
    /// The copy's name: the image's path and this.
    package static let suffix = "-walcopy"
    /// The trailer's mark, then the copied length (8 bytes) and its CRC-32C (4), little-endian.
    static let mark: [UInt8] = Array("BWC1".utf8)
    static let trailerSize = 16
    /// Bytes copied per read and write (one `xWrite` each: ``VFSWritableFile/largestWrite``).
    private static let chunk = VFSWritableFile.largestWrite

    /// Copies the WAL of the image at `base` (a full path) and syncs the copy; false when there
    /// is no WAL to copy (nothing for a checkpoint to do, and no copy to delete afterwards).
    static func take(base: String, vfs: String?, door: SQLiteDoor) throws(SQLiteError) -> Bool {
        let present = try VFSFile.open(base + "-wal", kind: .writeAheadLog, vfs: vfs, door: door, unopenableIsAbsent: false)
        guard let wal = present, wal.size > 0 else {
            return false
        }
        let copy = try VFSWritableFile.open(base + suffix, kind: .rollbackJournal, vfs: vfs, door: door)
        try copy.truncate(to: 0)
        var crc = CRC32C.initial
        var offset = 0
        while offset < wal.size {
            let bytes = try wal.read(min(chunk, wal.size - offset), at: offset)
            guard !bytes.isEmpty else { break }
            crc = bytes.withUnsafeBytes { CRC32C.update(crc, with: $0) }
            try copy.write(bytes, at: offset)
            offset += bytes.count
        }
        try copy.write(trailer(length: offset, crc: CRC32C.finalize(crc)), at: offset)
        try copy.sync()
        return true
    }

    /// Deletes the copy once the checkpoint it guarded returned, syncing the directory so that no
    /// power loss can bring it back over a newer WAL.
    static func remove(base: String, vfs: String?, door: SQLiteDoor) throws(SQLiteError) {
        try VFSFile.delete(base + suffix, vfs: vfs, door: door, syncDirectory: true)
    }

    /// True when a copy is beside the image at `base`.
    static func isLeft(base: String, vfs: String?, door: SQLiteDoor) throws(SQLiteError) -> Bool {
        try VFSFile.open(base + suffix, kind: .rollbackJournal, vfs: vfs, door: door, unopenableIsAbsent: false) != nil
    }

    /// Puts back a copy an open left (it died inside the checkpoint the copy guarded): its bytes
    /// over the WAL, synced; the shared-memory index deleted, so that SQLite reads the WAL anew;
    /// then the copy deleted. Answers whether a copy was there; one cut short is only deleted.
    ///
    /// A copy with no WAL beside it is only deleted too: a copy is taken of a WAL that exists and
    /// is deleted before anything of ours can delete that WAL (SQLite deletes it at a clean close,
    /// after the checkpoint returned), so the WAL was taken away by hand, as when a file is put
    /// back from a backup without its WAL and shared memory. The copy's frames belong to the file
    /// that was replaced; put back, SQLite would write them over the one that replaced it.
    static func restoreIfLeft(base: String, vfs: String?, door: SQLiteDoor) throws(SQLiteError) -> Bool {
        // A copy or a WAL that is there but cannot be opened now fails the open (it is tried
        // again at the next): taken for absent, the copy would be skipped, or deleted as one
        // beside a file put back by hand, and the checkpoint it guards run without it.
        let left = try VFSFile.open(base + suffix, kind: .rollbackJournal, vfs: vfs, door: door, unopenableIsAbsent: false)
        guard let copy = left else { return false }
        let walIsThere = try VFSFile.open(base + "-wal", kind: .writeAheadLog, vfs: vfs, door: door, unopenableIsAbsent: false) != nil
        if walIsThere, let length = try checkedLength(copy) {
            let wal = try VFSWritableFile.open(base + "-wal", kind: .writeAheadLog, vfs: vfs, door: door)
            var offset = 0
            while offset < length {
                let bytes = try copy.read(min(chunk, length - offset), at: offset)
                guard !bytes.isEmpty else { break }
                try wal.write(bytes, at: offset)
                offset += bytes.count
            }
            try wal.truncate(to: length)
            try wal.sync()
            try VFSFile.delete(base + "-shm", vfs: vfs, door: door, syncDirectory: false)
        }
        try remove(base: base, vfs: vfs, door: door)
        return true
    }

    static func trailer(length: Int, crc: UInt32) -> [UInt8] {
        var bytes = mark
        for index in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: UInt64(length) >> (8 * UInt64(index)))) }
        for index in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: crc >> (8 * UInt32(index)))) }
        return bytes
    }

    /// The copied length when the copy is whole (its trailer's mark, length and checksum agree
    /// with its bytes); nil otherwise.
    static func checkedLength(_ copy: VFSFile) throws(SQLiteError) -> Int? {
        guard copy.size >= trailerSize else { return nil }
        let length = copy.size - trailerSize
        let trailer = try copy.read(trailerSize, at: length)
        guard trailer.count == trailerSize, Array(trailer[0..<4]) == mark else { return nil }
        var stored = 0
        for index in 0..<8 { stored |= Int(trailer[4 + index]) << (8 * index) }
        var storedCRC: UInt32 = 0
        for index in 0..<4 { storedCRC |= UInt32(trailer[12 + index]) << (8 * UInt32(index)) }
        guard stored == length else { return nil }
        var crc = CRC32C.initial
        var offset = 0
        while offset < length {
            let bytes = try copy.read(min(chunk, length - offset), at: offset)
            guard !bytes.isEmpty else { return nil }
            crc = bytes.withUnsafeBytes { CRC32C.update(crc, with: $0) }
            offset += bytes.count
        }
        return CRC32C.finalize(crc) == storedCRC ? length : nil
    }
}
