extension Oracle {
    /// True when the next drain has something to commit: queued batches, stamps of rows the check
    /// read, or the launch's eviction (the first drain of a launch always commits).
    package var hasWriterWork: Bool {
        !queue.isEmpty || !touches.isEmpty || !evictionDone || writerMustWipe
    }

    /// Items waiting for the writer, counted as the writer's bound counts them: snapshots, root
    /// fields and fetch times.
    /// A drain in flight holds its items until it ends, as the writer's count does.
    package var queuedItems: Int {
        let inFlight = drainInFlight.map { $0.later == nil ? $0.itemCount : 0 } ?? 0
        return inFlight + queue.reduce(0) { $0 + $1.itemCount }
    }

    /// Hands a server commit's batch to the writer. Over the bound (``writerBound``) the whole
    /// queue is dropped and the image must empty itself at the next drain that commits (until
    /// then every read misses); the batch itself is queued unless it alone is over the bound.
    mutating func enqueue(_ batch: OracleBatch) {
        let items = batch.itemCount
        if queuedItems + items > writerBound {
            queue = []
            writerMustWipe = true
            drainOvertaken(byErase: false, promised: false)
            coverage.writerOverflows += 1
            if items > writerBound { return }
        }
        queue.append(batch)
    }

    /// A drain committed: the image after it, appended to the states a power loss may return to.
    ///
    /// In one transaction: the launch's eviction (first drain only: rows whose `used` is older
    /// than the previous generation go), the check's stamps, then every queued batch in order. A
    /// snapshot of a hydrated or deleted record replaces its row; any other is merged over the
    /// row, its own cells first and then the row's cells it does not write (a deleted row gives
    /// none). Every row written or stamped gets `used` = this launch's generation.
    /// `synced`: the commit is known durable.
    @discardableResult
    package mutating func drainCommitted(synced: Bool) -> OracleImage {
        let next = nextImage()
        let erased = eraseMustWipe
        dormant = dormantAfterDrain()
        evictionDone = true
        writerMustWipe = false
        eraseMustWipe = false
        queue = []
        touches = OracleTouches()
        image = next
        states.append(next.adding(dormant))
        if synced { durable = states.count - 1 }
        if erased && erasePromised {
            erasedThrough = states.count - 1
            erasePromised = false
        }
        failedDrainStates = []
        return next
    }

    /// The image the next drain commits: the eviction (first drain of a launch), the wipe after
    /// an overflow, the check's stamps, then every queued batch in order.
    private mutating func nextImage() -> OracleImage {
        var next = image
        let generation = image.generation
        if !evictionDone {
            let before = next.rowCount
            next.records = next.records.filter { $0.value.used >= generation - 1 }
            next.root = next.root.filter { $0.value.used >= generation - 1 }
            next.fetches = next.fetches.filter { $0.value.used >= generation - 1 }
            coverage.rowsAgedOut += before - next.rowCount
        }
        if writerMustWipe {
            next.records = [:]
            next.root = [:]
            next.fetches = [:]
        }
        for key in touches.records { next.records[key]?.used = generation }
        for field in touches.rootFields { next.root[field]?.used = generation }
        for operation in touches.fetches { next.fetches[operation]?.used = generation }
        for batch in queue {
            for snapshot in batch.snapshots {
                next.records[snapshot.key] = row(for: snapshot, over: next.records[snapshot.key], generation: generation)
            }
            for (field, cell) in batch.rootFields {
                next.root[field] = OracleRootRow(used: generation, cell: cell)
            }
            if let fetch = batch.fetch, !fetch.time.isNaN {
                next.fetches[fetch.operation] = OracleFetchRow(used: generation, time: fetch.time)
            }
        }
        return next
    }

    /// The row a snapshot leaves: its own, or merged over a present row it may not replace.
    private mutating func row(for snapshot: OracleSnapshot, over old: OracleRow?, generation: Int) -> OracleRow {
        let record = snapshot.record
        if record.deleted { return OracleRow(used: generation, typename: record.typename, deleted: true) }
        var cells = record.cells
        if !snapshot.hydrated, let old, !old.deleted {
            for (slot, cell) in old.cells where cells[slot] == nil { cells[slot] = cell }
            coverage.partialRowMerges += 1
        }
        return OracleRow(used: generation, typename: record.typename, cells: cells)
    }

    /// A drain failed: the image is unchanged for the process, and the work waits for the next
    /// drain.
    ///
    /// A crash before the next drain commits may still find the failed drain's commit. In WAL
    /// mode a frame's header, the commit mark included, is written before its page; when the
    /// write that failed was the commit frame's page, and the bytes already at that place in the
    /// WAL (an earlier frame of the same page, before a checkpoint restarted the log) are the
    /// page it would have written, the frame checks, and SQLite's recovery takes the commit
    /// (seed 978900508 of GitHub's world at 2,000 events: a quit died at that write). The process
    /// never sees it: its WAL index still ends before the frame, and its next commit writes over
    /// it. So the state this drain would have left joins the states a crash may return to, until
    /// a drain commits (``failedDrainStates``). `diskFull`: the failure was a full disk's
    /// (counted).
    package mutating func drainFailed(diskFull: Bool = false) {
        if diskFull { coverage.fullDiskFailedDrains += 1 }
        var attempt = self
        let next = attempt.nextImage().adding(attempt.dormantAfterDrain())
        // A full disk fails drain after drain with nothing new between them: one state each.
        if !failedDrainStates.contains(next) { failedDrainStates.append(next) }
    }

    /// The last committed state became durable (a sync, a checkpoint, a clean close).
    package mutating func noteSynced() {
        durable = states.count - 1
    }

    // MARK: Launches

    /// The first launch: an empty image opened at `generation` by `appVersion`. Before the open
    /// committed the file held nothing, so a power loss may still find it empty, or created and
    /// not yet counted (the creation is a transaction of its own).
    /// `processStarted`: the process began before its open (``processStarted()``), and what it
    /// holds in memory stays.
    package mutating func firstLaunch(generation: Int, appVersion: String = Oracle.firstAppVersion, processStarted: Bool = false) {
        image = OracleImage(generation: generation, appVersion: appVersion)
        states = [.empty(generation: 0), OracleImage.empty(generation: 0).opened(by: appVersion), image]
        durable = 0
        erasedThrough = nil
        if !processStarted { startLaunch() }
    }

    /// The image states a relaunch may find after the process ended as `end`, oldest first:
    /// after a quit or a kill the last drain that returned; after a power loss any state from the
    /// last one known durable to the last that returned; after garbage, an empty image; after a
    /// process died in its open, each state its open could have left (``allowedChains(after:)``).
    ///
    /// Every state holds the rows a damaged name hides, as the file does (``dormant``), so the
    /// state a relaunch opens keeps them for a later power loss to return to.
    package func allowedStates(after end: ProcessEnd) -> [OracleImage] {
        allowedChains(after: end).map { $0[$0.count - 1] }
    }

    /// A new launch of `appVersion` found `allowedStates(after: end)[found]` and opened it at
    /// `generation`: memory, layers, retention, the writer's queue and the check's stamps start
    /// empty (unless `processStarted`: the process began before its open, ``processStarted()``,
    /// and what it holds in memory stays). A state another version wrote is wiped first
    /// (``OracleImage/opened(by:)``).
    package mutating func relaunched(
        found: Int, generation: Int, after end: ProcessEnd, appVersion: String = Oracle.firstAppVersion, processStarted: Bool = false
    ) {
        let allowed = allowedStates(after: end)
        let index = min(max(found, 0), allowed.count - 1)
        let landed = allowed[index]
        // A file with no image is created, and another version's is wiped, in a transaction of
        // its own before the launch counts itself: a power loss may keep it and lose the count.
        let marks = landed.appVersion != appVersion
        let wipes = landed.wipes(under: appVersion)
        switch end {
        case .powerLoss, .corruption:
            if end == .corruption { dormant = OracleImage(generation: 0) }
            // The failed drains' states come after the newest committed one.
            let newest = allowed.count - 1 - failedDrainStates.count
            if end == .powerLoss, index > newest {
                coverage.failedDrainsFound += 1
            } else if end == .powerLoss, landed != allowed[newest] {
                coverage.powerLossesOntoOlderCommit += 1
            }
            states = [landed]
            erasedThrough = nil
        case .quit, .kill:
            // A failed drain's state (after the base chain's last) follows the base chain.
            erasedThrough = erasedThrough.flatMap { $0 > durable ? $0 - durable : nil }
            states = Array(states[durable...]) + (index > 0 ? [landed] : [])
            if index > 0 { coverage.failedDrainsFound += 1 }
        case .openCrash:
            if crashFollowedCorruption { dormant = OracleImage(generation: 0) }
            states = crashChains[index]
            erasedThrough = nil
            if crashCommitted.contains(landed) { coverage.openCrashesCommitted += 1 }
        }
        durable = 0
        failedDrainStates = []
        if marks { states.append(landed.opened(by: appVersion)) }
        if wipes {
            // The rows a damaged name hid are gone with the rest.
            dormant = OracleImage(generation: 0)
            dormantRecordChoices = [:]
            dormantRootChoices = [:]
            coverage.upgradeWipes += 1
        }
        var opened = landed.opened(by: appVersion)
        opened.generation = generation
        image = opened
        states.append(opened)
        if !processStarted { startLaunch() }
    }

    /// A new process begins, before its image opens: memory, layers, retention, the writer's
    /// queue and the check's stamps start empty. Its commits queue for the writer as ever; the
    /// open (``relaunched(found:generation:after:appVersion:processStarted:)``) finishes later.
    package mutating func processStarted() {
        startLaunch()
        hasImage = true
    }

    /// Everything a process holds, dropped: a new process starts from the image alone.
    private mutating func startLaunch() {
        forgetServerData()
        serverCommits = 0
        invalidatedThrough = -1
        retained = [:]
        releaseBuffer = []
        queue = []
        touches = OracleTouches()
        drainInFlight = nil
        evictionDone = false
        writerMustWipe = false
        eraseMustWipe = false
    }
}
