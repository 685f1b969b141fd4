import CSQLite

extension SimulatedDisk {
    /// SQLite result codes a simulated disk answers or is told to inject.
    /// The extended ones are C macro expressions that Swift cannot import,
    /// so they are spelled out here from their primary code.
    public enum Code {
        public static let ok: Int32 = SQLITE_OK
        public static let busy: Int32 = SQLITE_BUSY
        public static let full: Int32 = SQLITE_FULL
        public static let ioErr: Int32 = SQLITE_IOERR
        public static let ioErrRead: Int32 = SQLITE_IOERR | (1 << 8)
        public static let ioErrShortRead: Int32 = SQLITE_IOERR | (2 << 8)
        public static let ioErrWrite: Int32 = SQLITE_IOERR | (3 << 8)
        public static let ioErrFsync: Int32 = SQLITE_IOERR | (4 << 8)
        public static let ioErrTruncate: Int32 = SQLITE_IOERR | (6 << 8)
        public static let ioErrDelete: Int32 = SQLITE_IOERR | (10 << 8)
        public static let ioErrNoMem: Int32 = SQLITE_IOERR | (12 << 8)

        /// The primary code of a possibly extended one (`ioErrWrite` → `ioErr`).
        public static func primary(_ code: Int32) -> Int32 { code & 0xFF }
    }
}
