/// The mark an erase leaves beside the image, `<image>-erase`, so that the erase holds from the
/// moment ``Image/erase()`` returns, not only once the writer's drain has committed it.
///
/// Without it, a process killed between the erase and its drain (a logout is often followed by
/// the app being swiped away) left the previous user's rows for the next launch to read. The mark
/// is written and synced, with its directory entry, before the erase returns `true`. An open that
/// finds it erases the image as the erase would have: every read misses, and the first drain
/// empties the file, overwriting what it deletes, and checkpoints the WAL into it. The mark is
/// deleted (its directory synced) only once that checkpoint has succeeded: until then a crash,
/// a power loss included, leaves the mark, and the next launch erases again, with whatever was
/// committed after the erase (a few rows of the next user's, which the app fetches again).
///
/// The mark holds no data of the image: its presence is all that counts. An empty file is no
/// mark, as SQLite's VFS takes an empty file for none: one is left only when the mark's write or
/// sync failed (a power loss may keep a directory entry whose bytes never reached the platter),
/// and the erase then answered `false`.
package enum EraseMark {
    /// The mark's name: the image's path and this. SQLite's unix VFS gives a journal it creates
    /// the mode of the file named before its last `-`: the image's.
    package static let suffix = "-erase"
    static let contents = Array("baton: this image was erased; the next open empties it\n".utf8)

    /// Where the mark of one image goes: the image's path as given to its open, its VFS, and the
    /// door every SQLite call goes through.
    package struct Place: Sendable {
        let path: String
        let vfs: String?
        let door: SQLiteDoor

        package init(path: String, vfs: String?, door: SQLiteDoor = SQLiteDoor()) {
            self.path = path
            self.vfs = vfs
            self.door = door
        }

        /// The mark's full path, as the VFS spells it.
        var markPath: String {
            get throws(SQLiteError) { try VFSFile.fullPath(path, vfs: vfs, door: door) + EraseMark.suffix }
        }
    }

    /// What writing the mark came to.
    enum Written {
        /// The mark is durable, with its directory entry.
        case durable
        /// No image file, or an empty one: nothing to erase, so no mark (a journal of a file that
        /// is not there cannot be created either).
        case noFile
        /// The write or its sync failed: the mark may be there, whole or not, or not at all.
        case failed
    }

    /// Writes the mark and syncs it (the VFS syncs the directory at a journal's first sync).
    static func write(_ place: Place) -> Written {
        do throws(SQLiteError) {
            let image = try VFSFile.fullPath(place.path, vfs: place.vfs, door: place.door)
            guard try VFSFile.exists(image, vfs: place.vfs, door: place.door) else { return .noFile }
            let mark = try VFSWritableFile.open(image + suffix, kind: .rollbackJournal, vfs: place.vfs, door: place.door)
            // Never truncated first: a mark an earlier erase left must not become empty (no mark)
            // if this process dies between the truncation and the write. The bytes are the same.
            try mark.write(contents, at: 0)
            try mark.sync()
            return .durable
        } catch {
            return .failed
        }
    }

    /// True when a mark is beside the image whose full path is `base` (an empty file is none).
    static func isPresent(beside base: String, vfs: String?, door: SQLiteDoor) throws(SQLiteError) -> Bool {
        try VFSFile.exists(base + suffix, vfs: vfs, door: door)
    }

    /// True when a mark is beside the image file at `path`, as the store's open would find it
    /// through SQLite's default VFS (tools and checks outside a store; false when it cannot tell).
    package static func isBeside(path: String) -> Bool {
        let door = SQLiteDoor()
        return (try? isPresent(beside: VFSFile.fullPath(path, vfs: nil, door: door), vfs: nil, door: door)) ?? false
    }

    /// Deletes the mark, syncing its directory, so that no power loss brings it back; a mark
    /// that is not there is no error.
    static func remove(_ place: Place) throws(SQLiteError) {
        try VFSFile.delete(place.markPath, vfs: place.vfs, door: place.door, syncDirectory: true)
    }
}
