import CSQLite

/// One file a SQLite VFS opened for ``VFSFile`` or ``VFSWritableFile``: the handle's memory (the
/// VFS's `szOsFile` bytes) and the name it was opened with, which the VFS may keep until `xClose`.
/// Closed and freed once, when the owner lets it go.
final class VFSHandle {
    let file: UnsafeMutablePointer<sqlite3_file>
    let methods: UnsafePointer<sqlite3_io_methods>
    private let name: UnsafeMutablePointer<CChar>

    private init(file: UnsafeMutablePointer<sqlite3_file>, methods: UnsafePointer<sqlite3_io_methods>, name: UnsafeMutablePointer<CChar>) {
        self.file = file
        self.methods = methods
        self.name = name
    }

    deinit {
        if let close = methods.pointee.xClose { _ = close(file) }
        file.deallocate()
        name.deallocate()
    }

    /// Opens `path` with `flags` through `vfs`, the `xOpen` call made inside `call` (the door's
    /// way of making it); the failing code when it fails (`SQLITE_CANTOPEN` for a VFS that
    /// answered OK without methods), nothing left allocated.
    static func open(
        _ path: String, flags: Int32, vfs: UnsafeMutablePointer<sqlite3_vfs>, call: (() -> Int32) -> Int32
    ) -> Result<VFSHandle, SQLiteError> {
        guard let xOpen = vfs.pointee.xOpen else {
            return .failure(SQLiteError(extendedCode: .error, message: "the VFS cannot open files"))
        }
        let size = Int(vfs.pointee.szOsFile)
        let file = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
            .initializeMemory(as: UInt8.self, repeating: 0, count: size)
        let handle = UnsafeMutableRawPointer(file).assumingMemoryBound(to: sqlite3_file.self)
        let name = nameForVFS(path)
        var outFlags: Int32 = 0
        let code = call { xOpen(vfs, name, handle, flags, &outFlags) }
        guard code == SQLITE_OK, let methods = handle.pointee.pMethods else {
            if let close = handle.pointee.pMethods?.pointee.xClose { _ = close(handle) }
            handle.deallocate()
            name.deallocate()
            return .failure(SQLiteError(extendedCode: SQLiteResultCode(rawValue: code == SQLITE_OK ? SQLITE_CANTOPEN : code), message: ""))
        }
        return .success(VFSHandle(file: handle, methods: methods, name: name))
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
}
