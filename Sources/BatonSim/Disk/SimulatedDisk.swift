import CBatonVFS

/// The simulator's disk: an in-memory SQLite VFS that models durability.
///
/// Every file has durable bytes and an ordered list of pending writes (and
/// truncations); reads see the durable bytes with the pending ones applied.
/// `xSync` makes a file's pending operations durable. Directory entries
/// (a file created, a file removed) are pending too, until their directory
/// is synced as SQLite's unix VFS does it. A ``kill()`` keeps
/// everything (pending stays pending: the OS still has it); a
/// ``powerLoss(seed:)`` keeps, drops or tears each pending write at sector
/// granularity, deterministically from its seed. Both drop shared memory
/// and make every open SQLite file handle dead: later calls on a connection
/// opened before the crash fail with `SQLITE_IOERR` and never touch the
/// disk, so the old connection can simply be abandoned (or even closed).
/// The modelling choices are listed in `baton_vfs.h`.
///
/// Open a database on it with `sqlite3_open_v2(name, &db, flags, disk.vfsName)`.
/// File names are made absolute by putting "/" in front, so `"image.sqlite"`
/// and `"/image.sqlite"` are the same file everywhere in this API.
///
/// Confinement: a disk, and every connection opened on it, is used by one
/// thread at a time; moving it to another thread needs a happens-before edge
/// (a task hand-off, a lock). That is why it is `@unchecked Sendable`: the
/// simulator hands it between isolation domains but never uses it from two
/// at once. Different disks may be used on different threads concurrently.
///
/// Lifetime: keep the disk alive while any connection opened on it may
/// still be used; a connection abandoned after a crash may be closed even
/// after the disk is gone. Closing a dead connection is safe and writes
/// nothing; an abandoned one that is never closed keeps SQLite's page cache
/// (and the shared memory it had mapped) for good, so long simulations
/// should close the old connection after each crash.
///
/// Sync points: right after a commit returns, `hasPendingWrites == false`
/// means every commit so far is durable; a power loss then recovers to a
/// commit between the last such point and the last commit that returned.
public final class SimulatedDisk: @unchecked Sendable {
    /// Operations a fault can be injected into.
    public enum FaultKind: Sendable, Hashable, CaseIterable {
        /// `open`: opening a file (SQLite's or Baton's own), `SQLITE_CANTOPEN` by default;
        /// `delete`: deleting one through the VFS, `SQLITE_IOERR_DELETE` (the file stays).
        case write, sync, read, truncate, open, delete

        var raw: Int32 {
            switch self {
            case .open: return Int32(BATON_DISK_FAULT_OPEN)
            case .delete: return Int32(BATON_DISK_FAULT_DELETE)
            case .write: return Int32(BATON_DISK_FAULT_WRITE)
            case .sync: return Int32(BATON_DISK_FAULT_SYNC)
            case .read: return Int32(BATON_DISK_FAULT_READ)
            case .truncate: return Int32(BATON_DISK_FAULT_TRUNCATE)
            }
        }
    }

    /// Counters since creation. Operations failed by an injected fault count
    /// only in `injectedFaults`.
    public struct Counters: Sendable, Hashable {
        public var writes: UInt64
        public var bytesWritten: UInt64
        public var reads: UInt64
        public var syncs: UInt64
        public var truncates: UInt64
        public var opens: UInt64
        public var deletes: UInt64
        public var kills: UInt64
        public var powerLosses: UInt64
        public var injectedFaults: UInt64
        /// Pending writes a power loss kept whole, lost whole, or tore.
        public var writesKept: UInt64
        public var writesDropped: UInt64
        public var writesTorn: UInt64
        /// Directories synced (`xDelete` with `syncDir`, a WAL's or journal's first sync).
        public var directorySyncs: UInt64 = 0
        /// Pending directory entry changes (a creation, a removal) a power loss kept or lost.
        public var entriesKept: UInt64 = 0
        public var entriesLost: UInt64 = 0
        /// Failed syncs that dropped the file's pending writes (``SyncFailure/drops``), and how
        /// many writes they dropped.
        public var failedSyncsDropping: UInt64 = 0
        public var writesLostToFailedSync: UInt64 = 0
    }

    /// What a failed `xSync` does to the file's pending writes.
    public enum SyncFailure: String, Sendable, Hashable, CaseIterable {
        /// Nothing changes: the writes stay pending and a later sync persists them.
        case keeps
        /// Linux after a writeback error: the dirty pages are marked clean, so the writes stay
        /// visible but never reach the platter, and the next sync succeeds.
        case drops

        var raw: Int32 {
            switch self {
            case .keeps: return Int32(BATON_DISK_SYNC_FAILURE_KEEPS)
            case .drops: return Int32(BATON_DISK_SYNC_FAILURE_DROPS)
            }
        }
    }

    /// The device a disk reports to SQLite and tears at.
    public struct Device: Sendable, Hashable, CustomStringConvertible {
        /// `xSectorSize`, and the unit a power loss cuts torn writes in.
        public var sectorSize: UInt32
        /// `xDeviceCharacteristics` (`SQLITE_IOCAP_*` bits).
        public var characteristics: Int32

        public init(sectorSize: UInt32, characteristics: Int32) {
            self.sectorSize = sectorSize
            self.characteristics = characteristics
        }

        /// 512-byte sectors and no characteristics: SQLite's most careful path (the default).
        public static let careful = Device(sectorSize: 512, characteristics: 0)
        /// What SQLite's unix VFS answers on Linux: 4096-byte sectors and power-safe overwrite.
        public static let linux = Device(sectorSize: 4096, characteristics: 0x0000_1000)

        public var description: String {
            characteristics == 0 ? "\(sectorSize)-byte sectors" : "\(sectorSize)-byte sectors, iocap 0x\(String(characteristics, radix: 16))"
        }
    }

    /// A count for ``fail(_:code:skipping:times:)`` meaning "until cleared".
    public static let forever: UInt32 = UInt32.max

    private let handle: OpaquePointer

    /// The seed that drives `xRandomness`.
    public let seed: UInt64
    /// The name to pass to `sqlite3_open_v2`; unique in this process.
    public let vfsName: String

    public init(seed: UInt64) {
        guard let handle = baton_disk_create(seed) else {
            fatalError("SimulatedDisk: cannot create the disk or register its VFS")
        }
        self.handle = handle
        self.seed = seed
        self.vfsName = String(cString: baton_disk_vfs_name(handle))
    }

    deinit {
        baton_disk_destroy(handle)
    }

    // MARK: Device and failure modes

    /// What a failed sync does (``SyncFailure/keeps`` unless set).
    public private(set) var syncFailure: SyncFailure = .keeps
    /// The device SQLite sees (``Device/careful`` unless set).
    public private(set) var device: Device = .careful

    /// What a failed sync does from now on.
    public func setSyncFailure(_ mode: SyncFailure) {
        syncFailure = mode
        baton_disk_set_sync_failure(handle, mode.raw)
    }

    /// The sector size and device characteristics SQLite sees; set before opening anything.
    public func setDevice(_ device: Device) {
        self.device = device
        baton_disk_set_device(handle, device.sectorSize, device.characteristics)
    }

    // MARK: Time

    /// Simulated wall-clock time (milliseconds since the Unix epoch) that
    /// SQLite reads through `xCurrentTime`; `xSleep` advances it.
    public var timeMilliseconds: Int64 {
        baton_disk_time_ms(handle)
    }

    public func setTime(milliseconds: Int64) {
        baton_disk_set_time_ms(handle, milliseconds)
    }

    // MARK: Crashes

    /// A process kill: files keep their current bytes (pending operations
    /// stay pending), shared memory and temporary files are dropped, open
    /// handles become dead.
    public func kill() {
        baton_disk_kill(handle)
    }

    /// A power loss: every pending write is kept, dropped or torn as the
    /// seed decides; nothing is pending afterwards. Then what a kill does.
    public func powerLoss(seed: UInt64) {
        baton_disk_power_loss(handle, seed)
    }

    /// Arms a crash inside what the process does next: `operations` more
    /// disk-changing operations (writes, syncs, truncations, file creations
    /// and deletions) succeed, and the next one never happens. The process
    /// dies there, by a kill or, with `powerLossSeed`, a power loss; its
    /// handles are dead and the disk refuses everything until ``thaw()``.
    public func armCrash(afterOperations operations: UInt32, powerLossSeed: UInt64?) {
        baton_disk_arm_crash(handle, operations, powerLossSeed == nil ? 0 : 1, powerLossSeed ?? 0)
    }

    /// Ends an armed crash for the next process: true when it struck, false
    /// when it was still waiting (it is disarmed).
    @discardableResult
    public func thaw() -> Bool {
        baton_disk_thaw(handle) != 0
    }

    /// The OS writes its cache back: every pending operation becomes
    /// durable. Open handles stay valid.
    public func flushAll() {
        baton_disk_flush_all(handle)
    }

    // MARK: Faults

    /// The next `xWrite` on any file fails with `code` and writes nothing.
    public func failNextWrite(code: Int32) {
        baton_disk_fail_next(handle, FaultKind.write.raw, code)
    }

    /// The next `xSync` on any file fails with `code` and syncs nothing.
    public func failNextSync(code: Int32) {
        baton_disk_fail_next(handle, FaultKind.sync.raw, code)
    }

    /// The `n`-th next operation of that kind fails (n = 1 is the next one).
    public func failNth(_ kind: FaultKind, _ n: UInt32, code: Int32) {
        baton_disk_fail_nth(handle, kind.raw, n, code)
    }

    /// `skip` operations of that kind succeed, then `times` fail in a row
    /// (``forever``: until ``clearFaults()``). A code of 0 picks the usual
    /// `SQLITE_IOERR_*` code of the kind. Arming a kind replaces its
    /// previous arming.
    public func fail(_ kind: FaultKind, code: Int32, skipping skip: UInt32 = 0, times: UInt32 = 1) {
        baton_disk_fail_range(handle, kind.raw, skip, times, code)
    }

    public func clearFaults() {
        baton_disk_clear_faults(handle)
    }

    /// Failures still armed for that kind (``forever`` when unbounded).
    public func armedFaults(_ kind: FaultKind) -> UInt32 {
        baton_disk_faults_armed(handle, kind.raw)
    }

    // MARK: Inspection

    public var counters: Counters {
        var raw = baton_disk_counters()
        baton_disk_get_counters(handle, &raw)
        return Counters(
            writes: raw.writes, bytesWritten: raw.bytes_written, reads: raw.reads,
            syncs: raw.syncs, truncates: raw.truncates, opens: raw.opens,
            deletes: raw.deletes, kills: raw.kills, powerLosses: raw.power_losses,
            injectedFaults: raw.injected_faults, writesKept: raw.writes_kept,
            writesDropped: raw.writes_dropped, writesTorn: raw.writes_torn,
            directorySyncs: raw.directory_syncs, entriesKept: raw.entries_kept, entriesLost: raw.entries_lost,
            failedSyncsDropping: raw.failed_syncs_dropping, writesLostToFailedSync: raw.writes_lost_to_failed_sync)
    }

    /// True when something is not durable yet: a file has writes or truncations not yet synced
    /// (or writes a failed sync dropped), or a directory entry change waits for a directory
    /// sync. Right after a commit, false means everything committed so far is durable.
    public var hasPendingWrites: Bool {
        baton_disk_has_pending(handle) != 0
    }

    /// Directory entry changes (creations, removals) not yet synced.
    public var pendingDirectoryEntries: Int {
        Int(baton_disk_pending_entries(handle))
    }

    /// Whether the platter's directory names the file (false: its creation is still pending),
    /// or nil when there is no such file.
    public func entryIsDurable(_ name: String) -> Bool? {
        let answer = baton_disk_entry_durable(handle, name)
        return answer < 0 ? nil : answer == 1
    }

    /// Whether a failed sync dropped writes of the file that reads still see, or nil when there
    /// is no such file.
    public func isDiverged(_ name: String) -> Bool? {
        let answer = baton_disk_file_diverged(handle, name)
        return answer < 0 ? nil : answer == 1
    }

    /// Pending operations of one file, or nil when there is no such file.
    public func pendingWriteCount(of name: String) -> Int? {
        let count = baton_disk_pending_count(handle, name)
        return count < 0 ? nil : Int(count)
    }

    /// SQLite file handles open now (handles made dead by a crash excluded).
    public var liveHandleCount: Int {
        Int(baton_disk_live_handles(handle))
    }

    /// Absolute names of the files, sorted by their bytes.
    public var fileNames: [String] {
        let count = baton_disk_file_count(handle)
        var names: [String] = []
        names.reserveCapacity(count)
        for index in 0..<count {
            if let name = baton_disk_file_name(handle, index) {
                names.append(String(cString: name))
            }
        }
        return names
    }

    public func fileExists(_ name: String) -> Bool {
        baton_disk_file_size(handle, name) >= 0
    }

    /// The file's size as the OS shows it, or nil when there is no such file.
    public func size(of name: String) -> Int? {
        let length = baton_disk_file_size(handle, name)
        return length < 0 ? nil : Int(length)
    }

    /// The size that surely survives a power loss, or nil when there is no such file.
    public func durableSize(of name: String) -> Int? {
        let length = baton_disk_durable_size(handle, name)
        return length < 0 ? nil : Int(length)
    }

    /// The file as the OS shows it (durable bytes plus pending writes).
    public func bytes(of name: String) -> [UInt8]? {
        copyOut(name, size: baton_disk_file_size, copy: baton_disk_copy_file)
    }

    /// What surely survives a power loss.
    public func durableBytes(of name: String) -> [UInt8]? {
        copyOut(name, size: baton_disk_durable_size, copy: baton_disk_copy_durable)
    }

    private func copyOut(
        _ name: String,
        size: (OpaquePointer?, UnsafePointer<CChar>?) -> Int64,
        copy: (OpaquePointer?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?, Int) -> Int64
    ) -> [UInt8]? {
        let length = size(handle, name)
        guard length >= 0 else { return nil }
        var result = [UInt8](repeating: 0, count: Int(length))
        let copied = result.withUnsafeMutableBytes { buffer in
            copy(handle, name, buffer.baseAddress, buffer.count)
        }
        precondition(copied == length, "SimulatedDisk: file changed size while copying")
        return result
    }

    /// Replaces a file's bytes, durable at once, dropping its pending
    /// operations; creates it when missing. For tests that corrupt files;
    /// do it while no live connection has the file open.
    public func overwrite(_ name: String, bytes: [UInt8]) {
        let rc = bytes.withUnsafeBytes { buffer in
            baton_disk_overwrite(handle, name, buffer.baseAddress, buffer.count)
        }
        precondition(rc == 0, "SimulatedDisk: cannot overwrite \(name)")
    }

    /// Removes a file (the removal is pending until the directory is synced, as an `xDelete`
    /// without `syncDir`); false when there was none.
    @discardableResult
    public func delete(_ name: String) -> Bool {
        baton_disk_delete_file(handle, name) == 0
    }

    /// FNV-1a 64 of every file's name, size and current bytes, in name
    /// order. Raw WAL bytes carry salts from SQLite's process-wide random
    /// generator: this repeats across runs only when the process runs one
    /// simulation at a time and calls ``seedSQLiteRandomness(_:)`` before
    /// each launch. Prefer ``contentHash`` for determinism checks.
    public var stateHash: UInt64 {
        baton_disk_state_hash(handle)
    }

    /// Like ``stateHash`` over the durable bytes.
    public var durableStateHash: UInt64 {
        baton_disk_durable_hash(handle)
    }

    /// Like ``stateHash``, but WAL files are hashed without their salts and
    /// checksums (each frame adds whether recovery would accept it instead),
    /// so it repeats whatever else uses SQLite in the process.
    public var contentHash: UInt64 {
        baton_disk_content_hash(handle)
    }

    /// Reseeds SQLite's process-wide random generator (WAL salts,
    /// `random()`, `randomblob()`) deterministically. Affects every
    /// connection in the process.
    public static func seedSQLiteRandomness(_ seed: UInt32) {
        baton_sqlite_seed_prng(seed)
    }
}
