import CSQLite

/// A file opened read-write (created when missing) through a SQLite VFS, for the few bytes the
/// image writes beside SQLite: the WAL's copy an open takes before its checkpoint
/// (``CheckpointCopy``), and that copy written back.
///
/// As with ``VFSFile``, going through the VFS keeps the simulator's disk in the loop and lets
/// SQLite's unix VFS defer closing a descriptor while this process holds locks on the file.
final class VFSWritableFile {
    private let handle: VFSHandle
    private let path: String
    private var file: UnsafeMutablePointer<sqlite3_file> { handle.file }
    private var methods: UnsafePointer<sqlite3_io_methods> { handle.methods }

    private init(handle: VFSHandle, path: String) {
        self.handle = handle
        self.path = path
    }

    /// Opens `path` (a full path, as ``VFSFile/fullPath(_:vfs:door:)`` spells it) for reading and
    /// writing, creating it when missing. `kind` decides, as for SQLite's own files, whether the
    /// VFS syncs the directory at the first sync (a WAL and a journal do: their entries are then
    /// durable with their bytes).
    static func open(_ path: String, kind: VFSFile.Kind, vfs vfsName: String?, door: SQLiteDoor) throws(SQLiteError) -> VFSWritableFile {
        guard let vfs = door.value({ sqlite3_vfs_find(vfsName) }), vfs.pointee.xOpen != nil else {
            throw SQLiteError(extendedCode: .error, message: "no VFS named \(vfsName ?? "(default)") that can open files")
        }
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | kind.flags
        switch VFSHandle.open(path, flags: flags, vfs: vfs, call: { door.result(.open, $0) }) {
        case .success(let handle):
            return VFSWritableFile(handle: handle, path: path)
        case .failure(let failure):
            throw SQLiteError(extendedCode: failure.extendedCode, message: "cannot open \(path) to write it")
        }
    }

    var size: Int {
        get throws(SQLiteError) {
            var size: sqlite3_int64 = 0
            try check(methods.pointee.xFileSize?(file, &size) ?? SQLITE_ERROR, "size")
            return Int(max(size, 0))
        }
    }

    /// `count` bytes at `offset`; the file must hold them.
    func read(_ count: Int, at offset: Int) throws(SQLiteError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return bytes }
        let code = bytes.withUnsafeMutableBytes { buffer in
            methods.pointee.xRead?(file, buffer.baseAddress, Int32(count), sqlite3_int64(offset)) ?? SQLITE_ERROR
        }
        try check(code, "read \(count) bytes at \(offset) of")
        return bytes
    }

    /// The most one `xWrite` is handed. SQLite never writes more than a page and a frame header
    /// at once, and its unix VFS keeps only the low 17 bits of a write's length (`cnt &= 0x1ffff`
    /// in `seekAndWrite`): a longer write lands short and is answered `SQLITE_FULL`.
    static let largestWrite = 1 << 16

    func write(_ bytes: [UInt8], at offset: Int) throws(SQLiteError) {
        var start = 0
        while start < bytes.count {
            let count = min(Self.largestWrite, bytes.count - start)
            let code = bytes.withUnsafeBytes { buffer in
                methods.pointee.xWrite?(file, buffer.baseAddress! + start, Int32(count), sqlite3_int64(offset + start)) ?? SQLITE_ERROR
            }
            try check(code, "write \(count) bytes at \(offset + start) of")
            start += count
        }
    }

    func truncate(to size: Int) throws(SQLiteError) {
        try check(methods.pointee.xTruncate?(file, sqlite3_int64(size)) ?? SQLITE_ERROR, "truncate")
    }

    /// Makes what was written durable (and, for a newly created WAL or journal, its directory entry).
    func sync() throws(SQLiteError) {
        try check(methods.pointee.xSync?(file, SQLITE_SYNC_NORMAL) ?? SQLITE_ERROR, "sync")
    }

    private func check(_ code: Int32, _ what: String) throws(SQLiteError) {
        guard code == SQLITE_OK else {
            throw SQLiteError(extendedCode: SQLiteResultCode(rawValue: code), message: "cannot \(what) \(path)")
        }
    }
}
