import Baton
import CSQLite

/// A read fault waiting for the next check that reads records' rows from the disk far enough.
struct ArmedReadFault: Sendable {
    /// The result code the disk answers the failed read with.
    var code: Int32
    /// Reads of the check that succeed before the one that fails.
    var skip: UInt32
    /// True for "not now" codes (busy): the check's other reads go on.
    var transient: Bool
}

extension Simulation {
    // MARK: - One-off faults

    /// Arms a `fault` event: the (skip+1)-th next write, sync, truncation, open or deletion of the
    /// disk fails (an open always with `SQLITE_CANTOPEN`: no descriptor left, a locked device; a
    /// deletion with an I/O error, the file staying), or a read of the next check that reads the
    /// disk.
    func armFault(on: String, code: String, skip: Int) -> String {
        let full = code == "full"
        let skipping = UInt32(clamping: skip)
        switch on {
        case "read":
            readFault = ArmedReadFault(code: full ? SQLITE_FULL : SimulatedDisk.Code.ioErrRead, skip: skipping, transient: false)
        case "sync": disk.fail(.sync, code: full ? SQLITE_FULL : SimulatedDisk.Code.ioErrFsync, skipping: skipping)
        case "truncate": disk.fail(.truncate, code: full ? SQLITE_FULL : SimulatedDisk.Code.ioErrTruncate, skipping: skipping)
        case "open": disk.fail(.open, code: SQLITE_CANTOPEN, skipping: skipping)
        case "delete": disk.fail(.delete, code: SimulatedDisk.Code.ioErrDelete, skipping: skipping)
        default: disk.fail(.write, code: full ? SQLITE_FULL : SimulatedDisk.Code.ioErrWrite, skipping: skipping)
        }
        return "armed"
    }

    /// Arms a `readFault` event for the next check that reads the disk more than `skip` times.
    func armReadFault(code: String, skip: Int) -> String {
        let busy = code == "busy"
        readFault = ArmedReadFault(
            code: busy ? SQLITE_BUSY : SimulatedDisk.Code.ioErrRead, skip: UInt32(clamping: skip), transient: busy)
        return "armed"
    }

    /// Runs the store's check with the armed read fault (if any) on the disk for exactly its
    /// duration; returns the check's answer and where the disk failed reads.
    ///
    /// An I/O error fails the lookup it happens in. "Busy" is "not now": SQLite's busy handler
    /// may wait and read again, so a lookup during which the disk answered busy either failed (the
    /// store saw the error: a record unreadable, a root field or fetch time not found) or read
    /// normally; the model is told which, and checks the normal answers as ever.
    func checkUnderReadFault(_ process: Process, _ run: () -> Availability) -> (Availability, OracleReadFaults, outside: Int) {
        let armed = readFault
        let before = disk.counters.injectedFaults
        if let armed {
            // A memory warning first: the check then reads the file, not SQLite's cached pages.
            // The fault targets row reads: it arms itself when the check first looks a record up.
            process.openedImage?.releaseCachedPages()
            process.recorder.beforeNextRecordLookup { [disk] in
                disk.fail(.read, code: armed.code, skipping: armed.skip)
            }
        }
        let result = run()
        if armed != nil {
            process.recorder.beforeNextRecordLookup(nil)
            disk.fail(.read, code: 0, times: 0)
        }
        if disk.counters.injectedFaults > before { readFault = nil }
        let fired = process.recorder.takeFaults()
        guard let armed, armed.transient else {
            return (result, OracleReadFaults(failedLookups: fired.lookups), fired.outside)
        }
        let lookups = process.recorder.peekLookups()
        let failed = fired.lookups.filter { position in
            guard position < lookups.count else { return false }
            switch lookups[position] {
            case .record(_, .unreadable), .rootField(_, found: false), .fetch(_, found: false): return true
            default: return false
            }
        }
        return (result, OracleReadFaults(failedLookups: failed, transient: true), fired.outside)
    }

    // MARK: - A full disk

    /// The disk fills up: writes, syncs and truncations fail with `SQLITE_FULL` for `events`
    /// events of this process (or until it ends).
    func startFullDisk(events: Int) -> String {
        guard events > 0 else { return "skipped: no events" }
        for kind in [SimulatedDisk.FaultKind.write, .sync, .truncate] {
            disk.fail(kind, code: SQLITE_FULL, times: SimulatedDisk.forever)
        }
        fullDiskEventsLeft = events
        return "full"
    }

    /// Space returns: the full disk's faults are cleared.
    func endFullDisk() {
        fullDiskEventsLeft = 0
        for kind in [SimulatedDisk.FaultKind.write, .sync, .truncate] {
            disk.fail(kind, code: 0, times: 0)
        }
    }

    /// After each event: a full disk's stretch counts down, and ends with the process.
    func endOfEvent(_ event: SimEvent) -> String {
        guard fullDiskEventsLeft > 0 else { return "" }
        if case .diskFull = event, process != nil { return "" }
        fullDiskEventsLeft -= 1
        guard process == nil || fullDiskEventsLeft == 0 else { return "" }
        endFullDisk()
        return "; space returns"
    }

    /// The writer holds exactly the items the model queued (the bound counts the same items):
    /// checked in runs with a bound of their own, where the count decides when the queue drops.
    func checkWriterQueue(_ process: Process, index: Int) throws {
        guard writerBound != WriterLimits().maxQueuedItems, let image = process.openedImage else { return }
        let held = image.writer.status.pendingItems
        guard held == oracle.queuedItems else {
            throw violation(
                "writer-queue-bound",
                "the writer holds \(held) items; the model queued \(oracle.queuedItems) (bound \(writerBound))", at: index)
        }
    }

    // MARK: - Bit rot

    /// Kills the process (or quits it cleanly, `afterQuit`: its last drain, then the file closed
    /// and checkpointed, so this launch's rows lie in the main file and the next launch still
    /// reads them), lets the OS write its cache back, then flips one bit in each of up to
    /// three record rows or root cells whose bytes lie whole in the image's main file (rows
    /// still only in the WAL, or spilled over pages, are left alone), three times in four among
    /// the record rows checks found lately. The model learns which keys rotted: their rows may
    /// read as misses from now on, never as other data.
    func rot(seed: UInt64, afterQuit: Bool, index: Int) throws -> String {
        guard let process else { return "skipped: no process" }
        guard !process.imageless else { return endWithoutImage("killed, no rows read to rot") }
        let quitLine = afterQuit ? "quit (\(try lastDrain(index: index))); " : ""
        let tables: ImageRawTables
        do {
            tables = try process.image.rawTables()
        } catch {
            throw violation("image-readable", "the image's tables cannot be read: \(error)", at: index)
        }
        if afterQuit {
            closeAfterQuit()
        } else {
            disk.kill()
            storeWork.time { process.image.abandon() }
            self.process = nil
            lastEnd = .kill
            crashes.kill += 1
        }
        disk.flushAll()
        let ended = afterQuit ? quitLine : "killed; "
        guard var file = disk.bytes(of: Self.imagePath) else { return ended + "no file to rot" }
        // A row whose page has a copy in the WAL (a kill leaves the log) is not rotted: the next
        // open's checkpoint writes that copy over the main file's, and the flip is gone (seed
        // 21632257 of the default world at 3,000 events: a launch's stamp had put a root cell's
        // page in the log, the rot flipped the cell in the file's older copy, and the model
        // expected the cell lost when a later drain repaired the name hiding it).
        let log = disk.bytes(of: Self.imagePath + "-wal") ?? []
        var random = SimRandom(seed: seed)
        // A row already rotted is a miss already; a second flip can only add nothing or undo the
        // first (seed 3507 of the default world flipped the same bit back, and the row rightly read
        // as it was written, which the model had forgotten).
        // Record rows, then root cells, then fetch times (each in key order). A fetch time's bytes
        // are its checksum's, as SQLite stores the integer: a flip there fails the row as one in
        // the time would.
        let records = tables.records
            .filter { $0.row.count >= 8 && !oracle.rotted.contains(OracleText($0.key), in: .records) }
            .sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            .map { RotCandidate(key: $0.key, table: .records, bytes: $0.row) }
        let root = tables.root
            .filter { $0.cell.count >= 8 && !oracle.rotted.contains(OracleText($0.field), in: .root) }
            .sorted { $0.field.utf8.lexicographicallyPrecedes($1.field.utf8) }
            .map { RotCandidate(key: $0.field, table: .root, bytes: $0.cell) }
        let fetches = tables.fetches
            .filter { !oracle.rotted.contains(OracleText($0.operation), in: .fetches) }
            .sorted { $0.operation.utf8.lexicographicallyPrecedes($1.operation.utf8) }
            .map { RotCandidate(key: $0.operation, table: .fetches, bytes: Self.storedInteger($0.crc)) }
            .filter { $0.bytes.count >= 4 }
        var candidates = records + root + fetches
        // Mostly rows a check found lately, which the screens may read again: picked from the
        // whole image, no rotted row was ever read by a check in 300 seeds of either built-in
        // world; so picked, 2 were, and 14 once rot also followed quits and reached root cells
        // (``Coverage/rottedRowsRead``).
        let recent = Set(recentlyReadRows)
        var rotted = ImageDamage()
        while rotted.count < 3, !candidates.isEmpty {
            let pickable = random.chance(0.75) ? candidates.indices.filter { candidates[$0].table == .records && recent.contains(OracleText(candidates[$0].key)) } : []
            let position = pickable.isEmpty ? random.int(0...(candidates.count - 1)) : pickable[random.int(0...(pickable.count - 1))]
            let candidate = candidates.remove(at: position)
            guard let offset = Self.onlyOccurrence(of: candidate.bytes, in: file), !Self.bytes(log, contain: candidate.bytes) else { continue }
            let byte = offset + random.int(0...(candidate.bytes.count - 1))
            file[byte] ^= UInt8(1) << UInt8(random.int(0...7))
            rotted.insert(OracleText(candidate.key), in: candidate.table)
            if random.chance(0.4) { break }
        }
        // Then, one time in three, a name's checksum (drawn after the rows, so the rows a seed
        // rots are the ones it rotted before names could rot): every row that uses the name
        // misses until a drain writes the name again, which sets the checksum right and brings
        // those rows back (``Oracle/reviveDormant(seen:)``).
        let rowsFlipped = rotted
        var nameLine = ""
        if random.chance(1.0 / 3.0) {
            let names = tables.names
                .filter { !oracle.rotted.contains(OracleText("#\($0.id)"), in: .names) }
                .map { (id: $0.id, bytes: Self.storedInteger($0.crc)) }
                .filter { $0.bytes.count >= 4 }
            if !names.isEmpty {
                let name = names[random.int(0...(names.count - 1))]
                if let offset = Self.onlyOccurrence(of: name.bytes, in: file), !Self.bytes(log, contain: name.bytes) {
                    file[offset + random.int(0...(name.bytes.count - 1))] ^= UInt8(1) << UInt8(random.int(0...7))
                    let using = rowsUsing(name: name.id, in: tables)
                    rotted.formUnion(using)
                    let users = using.count - 1
                    nameLine = "the checksum of name #\(name.id) (\(tables.names.first { $0.id == name.id }?.name ?? "?"), used by \(Self.count(users, "row")))"
                }
            }
        }
        guard !rotted.isEmpty else { return ended + "no row lies whole in the main file" }
        disk.overwrite(Self.imagePath, bytes: file)
        oracle.noteRot(rotted)
        let rowsLine = rowsFlipped.isEmpty ? "" : Self.count(rowsFlipped.count, "row") + Self.keyList(rowsFlipped.names)
        return ended + "one bit flipped in " + [rowsLine, nameLine].filter { !$0.isEmpty }.joined(separator: " and in ")
    }

    /// The name `#id` and every record row and root cell that uses it, as the model's reader
    /// finds them when the name's checksum fails.
    private func rowsUsing(name id: Int, in tables: ImageRawTables) -> ImageDamage {
        var raw = OracleBridge.raw(tables)
        for index in raw.names.indices where raw.names[index].id == id { raw.names[index].crc = -1 }
        var damage = ImageDamage()
        damage.insert(OracleText("#\(id)"), in: .names)
        for problem in Oracle.decodeKeepingDamage(raw, memo: nil).damaged where problem.damagedName == id {
            if let table = ImageDamage.Table(rawValue: problem.table) { damage.insert(OracleText(problem.key), in: table) }
        }
        return damage
    }

    /// A row bit rot may reach: a record's row, a root field's cell or a fetch time's checksum.
    struct RotCandidate {
        var key: String
        var table: ImageDamage.Table
        var bytes: [UInt8]
    }

    /// The bytes SQLite stores an integer column's value as in a record: big-endian, in the
    /// fewest of 1, 2, 3, 4, 6 or 8 bytes that hold it (none for 0 and 1, which the serial type
    /// itself says).
    nonisolated package static func storedInteger(_ value: Int64) -> [UInt8] {
        if value == 0 || value == 1 { return [] }
        let size: Int
        switch value {
        case -128...127: size = 1
        case -32_768...32_767: size = 2
        case -8_388_608...8_388_607: size = 3
        case -2_147_483_648...2_147_483_647: size = 4
        case -140_737_488_355_328...140_737_488_355_327: size = 6
        default: size = 8
        }
        return (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// Where `needle` starts in `haystack`, when it occurs exactly once.
    nonisolated package static func onlyOccurrence(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard let found = ByteSearch.firstOffset(of: needle[...], in: haystack) else { return nil }
        return ByteSearch.firstOffset(of: needle[...], in: haystack, from: found + 1) == nil ? found : nil
    }
}

extension Simulation {
    /// `damage-never-served`: a rotted row that still verifies after a relaunch holds exactly
    /// what one of the allowed states holds for it (a flip the checksum missed would show here).
    func checkRotServedNothing(_ observed: OracleImage, allowed: [OracleImage], index: Int) throws {
        for (table, key) in oracle.rotted.entries {
            let found = observed.only(key, in: table, generation: observed.generation)
            guard found.hasRows, !allowed.contains(where: { $0.only(key, in: table, generation: observed.generation) == found }) else { continue }
            let expected = allowed.last?.only(key, in: table, generation: observed.generation) ?? OracleImage(generation: observed.generation)
            throw violation(
                "damage-never-served", "\(ImageDamage.name(table, key)) rotted at rest and reads as a row the model never had",
                differences: OracleDifference.images(expected: expected, actual: found), at: index)
        }
    }
}

extension Simulation {
    /// True while a fault of any kind is armed on the disk.
    var diskFaultArmed: Bool {
        SimulatedDisk.FaultKind.allCases.contains { disk.armedFaults($0) > 0 }
    }
}
