import CSQLite

/// A file opened read-only through a SQLite VFS, to read bytes before SQLite interprets them.
///
/// Going through the VFS (not `open(2)`) matters twice: the simulator's files live only in its
/// VFS, and SQLite's unix VFS defers closing a descriptor while this process holds POSIX locks on
/// the file, so reading an image another connection of this process has open never drops that
/// connection's locks. Nothing here can write: the file is opened without `SQLITE_OPEN_CREATE`
/// and only `xRead` and `xFileSize` are called.
final class VFSFile {
    /// What the file is to SQLite, which decides how its VFS opens it.
    enum Kind {
        case mainDatabase
        case writeAheadLog
        case rollbackJournal

        var flags: Int32 {
            switch self {
            case .mainDatabase: SQLITE_OPEN_MAIN_DB
            case .writeAheadLog: SQLITE_OPEN_WAL
            case .rollbackJournal: SQLITE_OPEN_MAIN_JOURNAL
            }
        }
    }

    private let handle: VFSHandle
    /// The file's size in bytes when it was opened.
    let size: Int

    private init(handle: VFSHandle, size: Int) {
        self.handle = handle
        self.size = size
    }

    /// The full path of `path` as `vfs` spells it (its `xFullPathname`).
    static func fullPath(_ path: String, vfs: String?, door: SQLiteDoor) throws(SQLiteError) -> String {
        let pointer = try find(vfs, door: door)
        guard let xFullPathname = pointer.pointee.xFullPathname else { return path }
        let capacity = Int(pointer.pointee.mxPathname) + 1
        var full = [CChar](repeating: 0, count: capacity)
        let code = door.value { xFullPathname(pointer, path, Int32(capacity), &full) }
        guard code == SQLITE_OK else { return path }
        return full.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Opens `path` read-only; `nil` when there is no such file (or it is empty: nothing to read).
    ///
    /// A file that is there but cannot be opened now (no descriptor left, a locked device's data
    /// protection) is `nil` as well where its bytes would only inform a verdict SQLite makes
    /// again (the probe); `unopenableIsAbsent: false` throws instead, where taking it for absent
    /// would act on a file that exists (the checkpoint's copy and the WAL beside it).
    static func open(
        _ path: String, kind: Kind, vfs vfsName: String?, door: SQLiteDoor, unopenableIsAbsent: Bool = true
    ) throws(SQLiteError) -> VFSFile? {
        let vfs = try find(vfsName, door: door)
        guard vfs.pointee.xOpen != nil, let xAccess = vfs.pointee.xAccess else {
            throw SQLiteError(extendedCode: .error, message: "the VFS \(vfsName ?? "(default)") cannot open files")
        }
        var exists: Int32 = 0
        let access = door.value { xAccess(vfs, path, SQLITE_ACCESS_EXISTS, &exists) }
        guard access == SQLITE_OK else {
            throw SQLiteError(extendedCode: SQLiteResultCode(rawValue: access), message: "cannot look for \(path)")
        }
        guard exists != 0 else { return nil }
        let handle: VFSHandle
        switch VFSHandle.open(path, flags: SQLITE_OPEN_READONLY | kind.flags, vfs: vfs, call: { door.value($0) }) {
        case .success(let opened):
            handle = opened
        case .failure(let failure):
            // Gone between the look and the open, or not openable: no verdict from its bytes.
            if failure.extendedCode ~= .cantOpen, unopenableIsAbsent { return nil }
            throw SQLiteError(extendedCode: failure.extendedCode, message: "cannot open \(path) to read it")
        }
        var size: sqlite3_int64 = 0
        let sized = door.value { handle.methods.pointee.xFileSize?(handle.file, &size) ?? SQLITE_ERROR }
        guard sized == SQLITE_OK else {
            throw SQLiteError(extendedCode: SQLiteResultCode(rawValue: sized), message: "cannot size \(path)")
        }
        return VFSFile(handle: handle, size: Int(max(size, 0)))
    }

    /// Up to `count` bytes at `offset`: fewer when the file ends first.
    func read(_ count: Int, at offset: Int) throws(SQLiteError) -> [UInt8] {
        let available = max(0, min(count, size - offset))
        guard available > 0, let xRead = handle.methods.pointee.xRead else { return [] }
        var bytes = [UInt8](repeating: 0, count: available)
        let code = bytes.withUnsafeMutableBytes { buffer in
            xRead(handle.file, buffer.baseAddress, Int32(available), sqlite3_int64(offset))
        }
        // A short read zero-fills the rest, which the size already excluded.
        guard code == SQLITE_OK || code == SQLITE_IOERR | (2 << 8) else {
            throw SQLiteError(extendedCode: SQLiteResultCode(rawValue: code), message: "cannot read \(available) bytes at \(offset)")
        }
        return bytes
    }

    /// True when `path` (a full path) is there, empty or not (`xAccess`).
    static func exists(_ path: String, vfs vfsName: String?, door: SQLiteDoor) throws(SQLiteError) -> Bool {
        let vfs = try find(vfsName, door: door)
        guard let xAccess = vfs.pointee.xAccess else {
            throw SQLiteError(extendedCode: .error, message: "the VFS \(vfsName ?? "(default)") cannot look for files")
        }
        var exists: Int32 = 0
        let access = door.value { xAccess(vfs, path, SQLITE_ACCESS_EXISTS, &exists) }
        guard access == SQLITE_OK else {
            throw SQLiteError(extendedCode: SQLiteResultCode(rawValue: access), message: "cannot look for \(path)")
        }
        return exists != 0
    }

    /// Deletes `path` (a full path) through `vfs` (`xDelete`), syncing its directory when asked;
    /// a file that is not there is no error.
    static func delete(_ path: String, vfs: String?, door: SQLiteDoor, syncDirectory: Bool) throws(SQLiteError) {
        let pointer = try find(vfs, door: door)
        guard let xDelete = pointer.pointee.xDelete else {
            throw SQLiteError(extendedCode: .error, message: "the VFS \(vfs ?? "(default)") cannot delete files")
        }
        let code = door.result(.delete) { path.withCString { xDelete(pointer, $0, syncDirectory ? 1 : 0) } }
        if code != SQLITE_OK && SQLiteResultCode(rawValue: code) != .ioerrDeleteNoent {
            throw SQLiteError(extendedCode: SQLiteResultCode(rawValue: code), message: "cannot delete \(path)")
        }
    }

    private static func find(_ name: String?, door: SQLiteDoor) throws(SQLiteError) -> UnsafeMutablePointer<sqlite3_vfs> {
        guard let pointer = door.value({ sqlite3_vfs_find(name) }) else {
            throw SQLiteError(extendedCode: .error, message: "no VFS named \(name ?? "(default)")")
        }
        return pointer
    }
}

/// Big-endian integers, as SQLite's file formats store them.
extension Array where Element == UInt8 {
    func bigEndian16(at offset: Int) -> Int {
        Int(self[offset]) << 8 | Int(self[offset + 1])
    }

    func bigEndian32(at offset: Int) -> UInt32 {
        UInt32(self[offset]) << 24 | UInt32(self[offset + 1]) << 16 | UInt32(self[offset + 2]) << 8 | UInt32(self[offset + 3])
    }
}
