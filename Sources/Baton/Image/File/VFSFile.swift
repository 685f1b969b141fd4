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

    private let vfs: UnsafeMutablePointer<sqlite3_vfs>
    private let file: UnsafeMutablePointer<sqlite3_file>
    /// The name the file was opened with: the VFS may keep the pointer until `xClose`.
    private let name: UnsafeMutablePointer<CChar>
    /// The file's size in bytes when it was opened.
    let size: Int

    private init(vfs: UnsafeMutablePointer<sqlite3_vfs>, file: UnsafeMutablePointer<sqlite3_file>, name: UnsafeMutablePointer<CChar>, size: Int) {
        self.vfs = vfs
        self.file = file
        self.name = name
        self.size = size
    }

    deinit {
        if let close = file.pointee.pMethods?.pointee.xClose { _ = close(file) }
        file.deallocate()
        name.deallocate()
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
    static func open(_ path: String, kind: Kind, vfs vfsName: String?, door: SQLiteDoor) throws(SQLiteError) -> VFSFile? {
        let vfs = try find(vfsName, door: door)
        guard let xOpen = vfs.pointee.xOpen, let xAccess = vfs.pointee.xAccess else {
            throw SQLiteError(extendedCode: .error, message: "the VFS \(vfsName ?? "(default)") cannot open files")
        }
        var exists: Int32 = 0
        let access = door.value { xAccess(vfs, path, SQLITE_ACCESS_EXISTS, &exists) }
        guard access == SQLITE_OK else {
            throw SQLiteError(extendedCode: SQLiteResultCode(rawValue: access), message: "cannot look for \(path)")
        }
        guard exists != 0 else { return nil }
        let file = UnsafeMutableRawPointer.allocate(byteCount: Int(vfs.pointee.szOsFile), alignment: 16)
            .initializeMemory(as: UInt8.self, repeating: 0, count: Int(vfs.pointee.szOsFile))
        let handle = UnsafeMutableRawPointer(file).assumingMemoryBound(to: sqlite3_file.self)
        let name = nameForVFS(path)
        var outFlags: Int32 = 0
        let code = door.value { xOpen(vfs, name, handle, SQLITE_OPEN_READONLY | kind.flags, &outFlags) }
        guard code == SQLITE_OK, let methods = handle.pointee.pMethods else {
            if code == SQLITE_OK, let close = handle.pointee.pMethods?.pointee.xClose { _ = close(handle) }
            handle.deallocate()
            name.deallocate()
            // Gone between the look and the open, or not openable: no verdict from its bytes.
            if SQLiteResultCode(rawValue: code) ~= .cantOpen { return nil }
            throw SQLiteError(extendedCode: SQLiteResultCode(rawValue: code), message: "cannot open \(path) to read it")
        }
        var size: sqlite3_int64 = 0
        let sized = door.value { methods.pointee.xFileSize?(handle, &size) ?? SQLITE_ERROR }
        let opened = VFSFile(vfs: vfs, file: handle, name: name, size: Int(max(size, 0)))
        guard sized == SQLITE_OK else {
            throw SQLiteError(extendedCode: SQLiteResultCode(rawValue: sized), message: "cannot size \(path)")
        }
        return opened
    }

    /// Up to `count` bytes at `offset`: fewer when the file ends first.
    func read(_ count: Int, at offset: Int) throws(SQLiteError) -> [UInt8] {
        let available = max(0, min(count, size - offset))
        guard available > 0, let xRead = file.pointee.pMethods?.pointee.xRead else { return [] }
        var bytes = [UInt8](repeating: 0, count: available)
        let code = bytes.withUnsafeMutableBytes { buffer in
            xRead(file, buffer.baseAddress, Int32(available), sqlite3_int64(offset))
        }
        // A short read zero-fills the rest, which the size already excluded.
        guard code == SQLITE_OK || code == SQLITE_IOERR | (2 << 8) else {
            throw SQLiteError(extendedCode: SQLiteResultCode(rawValue: code), message: "cannot read \(available) bytes at \(offset)")
        }
        return bytes
    }

    /// `path` as SQLite hands a VFS a name to open: followed by two NULs (an empty list of URI
    /// parameters), in memory that lives until the file is closed (the caller deallocates it).
    static func nameForVFS(_ path: String) -> UnsafeMutablePointer<CChar> {
        let utf8 = Array(path.utf8CString)
        let name = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count + 2)
        name.initialize(from: utf8, count: utf8.count)
        (name + utf8.count).initialize(repeating: 0, count: 2)
        return name
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
