import Synchronization

/// The one writer of an image: takes what server commits changed and keeps it in the file.
///
/// `enqueue(_:)` is called on the main actor and returns at once; the executor decides when
/// ``drain()`` runs. A drain takes everything queued and writes it batch by batch in queue order in one
/// `BEGIN IMMEDIATE … COMMIT` transaction; on any SQLite error it rolls back, puts the work back
/// at the front of the queue and reports the error, and the next drain retries it. See
/// ``WriterLimits`` for the bound past which queued work is dropped.
package final class ImageWriter: Sendable {
    let core: ImageCore
    /// When drains run.
    package let executor: any WriterExecutor
    let limits: WriterLimits
    /// Where an erase leaves its mark (``EraseMark``); nil for an image with no file to erase.
    let eraseMark: EraseMark.Place?
    /// True when an erase writes its mark (the mutant `eraseUnmarked` says not): read outside the
    /// image's lock, where the state's rules are not.
    let marksErase: Bool
    /// The queue's rules (departures are mutants): read outside the image's lock, as
    /// `marksErase` is.
    let queueRules: WriterQueueRules
    private let queue: Mutex<WriterQueue>

    init(
        core: ImageCore, executor: any WriterExecutor, limits: WriterLimits, accepting: Bool,
        eraseMark: EraseMark.Place? = nil, marksErase: Bool = true, queueRules: WriterQueueRules = WriterQueueRules()
    ) {
        self.core = core
        self.executor = executor
        self.limits = limits
        self.eraseMark = eraseMark
        self.marksErase = marksErase
        self.queueRules = queueRules
        var initial = WriterQueue()
        initial.accepting = accepting
        queue = Mutex(initial)
    }

    /// Queues a server commit's changes and wakes the executor; returns at once.
    ///
    /// Dropped when the image has no file to write (a foreign file, an inspection, after close).
    package func enqueue(_ batch: WriteBatch) {
        guard !batch.isEmpty else { return }
        let limit = limits.maxQueuedItems
        let rules = queueRules
        let accepted = queue.withLock { queue -> Bool in
            guard queue.accepting else { return false }
            let items = batch.itemCount
            let held = queue.queuedItems + (rules.boundIgnoresInFlight ? 0 : queue.inFlightItems)
            if held + items > limit {
                // Over the bound: give up what the image would have held rather than grow without end.
                queue.dropAllAndWipe(movingEpoch: !rules.overflowKeepsEpoch)
                queue.status.overflows += 1
                if items > limit { return true }
            }
            queue.batches.append(batch)
            queue.queuedItems += items
            return true
        }
        if accepted { executor.writerHasWork(self) }
    }

    /// The commits kept for this image before it opened passed the bound (``OpeningImage``):
    /// what is queued is dropped and the image empties itself at the next drain that commits, as
    /// after an overflow here.
    package func overflowedBeforeOpen(times: Int) {
        let accepted = queue.withLock { queue -> Bool in
            guard queue.accepting else { return false }
            queue.dropAllAndWipe()
            queue.status.overflows += times
            return true
        }
        if accepted { executor.writerHasWork(self) }
    }

    /// The store was erased: the erase's mark is left beside the image (``EraseMark``), what is
    /// queued is dropped, reads miss, and the next drain that commits empties the image with its
    /// deleted bytes overwritten, then checkpoints the WAL into the file and truncates it, so
    /// neither keeps the erased rows (``Image/erase()``).
    ///
    /// `false` when the image takes no work (closed, foreign), or when the mark could not be
    /// written (a full disk, an I/O error): the erase then holds for this process, and reaches
    /// the file at the next drain that commits, but a process killed before that drain leaves
    /// the rows for the next launch.
    @discardableResult
    package func erase() -> Bool {
        erase(marking: true)
    }

    /// An erase; `marking` false when its mark is already beside the image (an open found it).
    @discardableResult
    func erase(marking: Bool) -> Bool {
        let marked = queue.withLock { queue -> Bool? in
            guard queue.accepting else { return nil }
            // Written under the queue's lock: a drain that finished an earlier erase deletes the
            // mark under it too, and only while no erase waits, so it cannot delete this one.
            var marked = true
            if marking, marksErase, let place = eraseMark { marked = EraseMark.write(place) != .failed }
            queue.dropAllAndWipe()
            queue.needsErase = true
            queue.status.erases += 1
            return marked
        }
        guard let marked else { return false }
        executor.writerHasWork(self)
        return marked
    }

    /// After a drain: deletes the erase's mark once the erase it records is in the file for good
    /// (its wipe committed and its truncating checkpoint run), unless another erase waits (its
    /// mark is the one beside the image now). A deletion that fails is tried again by the next
    /// drain, as an owed checkpoint is.
    func clearEraseMark(_ state: ImageState) {
        guard state.eraseMarkOwed, !state.eraseCheckpointOwed || state.rules.eraseMarkBeforeCheckpoint, !state.rules.eraseMarkKept else { return }
        guard let place = eraseMark else {
            state.eraseMarkOwed = false
            return
        }
        let ignoresLaterErase = queueRules.markClearedUnderLaterErase
        let cleared = queue.withLock { queue -> Bool in
            guard !queue.needsErase || ignoresLaterErase else { return false }
            return (try? EraseMark.remove(place)) != nil
        }
        if cleared { state.eraseMarkOwed = false }
    }

    /// Keys of snapshots queued or in a drain that has not committed (the query root too, when
    /// some of its fields wait): collection keeps them.
    package func pendingKeys() -> Set<RecordKey> {
        queue.withLock { queue in
            var keys = Set<RecordKey>()
            for batch in (queueRules.pendingKeysSkipInFlight ? [] : queue.inFlight) + queue.batches {
                for snapshot in batch.snapshots { keys.insert(snapshot.key) }
                if !batch.rootFields.isEmpty { keys.insert(.queryRoot) }
            }
            return keys
        }
    }

    /// How the writer is doing.
    package var status: WriterStatus {
        queue.withLock { queue in
            var status = queue.status
            status.queuedBatches = queue.batches.count
            status.pendingItems = queue.queuedItems + queue.inFlightItems
            status.wipePending = queue.needsWipe
            return status
        }
    }

    /// True while an erase's checkpoint failed and no drain has run it since (the WAL may hold
    /// the erased pages, ``ImageCheckpoint/afterCommit(_:erased:)``), or while its mark waits to
    /// be deleted (``EraseMark``). The production executor retries until it is false.
    package var owesEraseCheckpoint: Bool {
        core.withState { $0.eraseCheckpointOwed || $0.eraseMarkOwed }
    }

    /// The error of the last failed drain, `nil` once a drain commits.
    package var lastError: SQLiteError? { status.lastError }

    /// True when batches wait for a drain.
    package var hasQueuedWork: Bool {
        queue.withLock { !$0.batches.isEmpty || $0.needsWipe }
    }

    /// True after an overflow until the drain that empties the image commits: reads must miss.
    var needsWipe: Bool {
        queue.withLock { $0.needsWipe }
    }

    /// Stops accepting batches (the image closed or has no file).
    func stopAccepting() {
        queue.withLock { $0.accepting = false }
    }

    // MARK: Queue steps of a drain

    /// Takes everything queued into flight.
    func takeWork() -> TakenWork {
        queue.withLock { queue in
            let work = TakenWork(batches: queue.batches, wipe: queue.needsWipe, erase: queue.needsErase, epoch: queue.epoch)
            queue.inFlight = queue.batches
            queue.inFlightItems = queue.queuedItems
            queue.batches = []
            queue.queuedItems = 0
            return work
        }
    }

    /// The work in flight committed.
    func workCommitted(_ work: TakenWork) {
        let rules = queueRules
        queue.withLock { queue in
            queue.inFlight = []
            queue.inFlightItems = 0
            // An overflow or an erase while the drain was in flight asked for a wipe of its own.
            if work.wipe && queue.epoch == work.epoch { queue.needsWipe = false }
            if work.erase && queue.epoch == work.epoch { queue.needsErase = false }
            if rules.commitEndsLaterWipe {
                queue.needsWipe = false
                queue.needsErase = false
            }
            queue.status.commits += 1
            queue.status.consecutiveFailures = 0
            queue.status.lastError = nil
        }
    }

    /// The work in flight failed: back to the front of the queue, unless an overflow dropped it meanwhile.
    func workFailed(_ work: TakenWork, error: SQLiteError) {
        let rules = queueRules
        queue.withLock { queue in
            if queue.epoch == work.epoch || rules.failedWorkOutlivesDrop {
                queue.batches = rules.failedWorkRequeuedBehind ? queue.batches + queue.inFlight : queue.inFlight + queue.batches
                queue.queuedItems += queue.inFlightItems
            }
            queue.inFlight = []
            queue.inFlightItems = 0
            queue.status.consecutiveFailures += 1
            queue.status.lastError = error
        }
    }

    /// A failure before any work was taken (recreating the file).
    func noteFailure(_ error: SQLiteError) {
        queue.withLock { queue in
            queue.status.consecutiveFailures += 1
            queue.status.lastError = error
        }
    }
}

/// The writer's queue, under its own lock (never held while waiting for the connection).
struct WriterQueue: Sendable {
    var batches: [WriteBatch] = []
    var queuedItems = 0
    /// What a drain took and has not committed yet.
    var inFlight: [WriteBatch] = []
    var inFlightItems = 0
    /// Bumped by each overflow, so a failed drain does not put back work an overflow dropped.
    var epoch = 0
    /// Set by an overflow or an erase: the next drain empties the image first.
    var needsWipe = false
    /// Set by an erase: the next drain's wipe overwrites what it deletes and is followed by a
    /// truncating checkpoint.
    var needsErase = false
    var accepting = true
    var status = WriterStatus()

    /// Drops everything queued (a drain in flight keeps its work, which the new epoch stops it
    /// from putting back) and makes the next drain that commits empty the image first.
    mutating func dropAllAndWipe(movingEpoch: Bool = true) {
        batches.removeAll()
        queuedItems = 0
        if movingEpoch { epoch += 1 }
        needsWipe = true
    }
}

/// How the writer's queue treats a drain in flight; each departure is a mutant (debug builds only).
struct WriterQueueRules: Sendable, Hashable {
    /// Mutant: the pending keys leave out the batches a drain has in flight.
    var pendingKeysSkipInFlight = false
    /// Mutant: a drain that commits ends a wipe an overflow or an erase asked for while it was
    /// in flight.
    var commitEndsLaterWipe = false
    /// Mutant: a drain that fails puts its work back though an overflow or an erase dropped the
    /// queue while it was in flight.
    var failedWorkOutlivesDrop = false
    /// Mutant: a drain that fails puts its work back behind the batches queued while it was in
    /// flight, so the older data is written over the newer.
    var failedWorkRequeuedBehind = false
    /// Mutant: the bound leaves out the items a drain has in flight.
    var boundIgnoresInFlight = false
    /// Mutant: an overflow drops the queue without moving its epoch.
    var overflowKeepsEpoch = false
    /// Mutant: a drain that finished an erase deletes the mark though another erase came while
    /// it was in flight.
    var markClearedUnderLaterErase = false
}

/// What one drain took from the queue.
struct TakenWork {
    var batches: [WriteBatch]
    var wipe: Bool
    /// The wipe is an erase's (``ImageWriter/erase()``).
    var erase: Bool
    var epoch: Int

    var isEmpty: Bool { batches.isEmpty && !wipe }
}

extension WriteBatch {
    /// Snapshots, root fields and fetch times: the unit of the writer's bound.
    var itemCount: Int { snapshots.count + rootFields.count + fetches.count }
}
