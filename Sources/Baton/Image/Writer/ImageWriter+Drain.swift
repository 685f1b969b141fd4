extension ImageWriter {
    /// Writes everything queued, batch by batch in queue order, in one transaction; the executor
    /// calls it, and so does the simulator. A batch's records go in UTF-8 order of their keys (a
    /// key queued twice in order), the table's own order: SQLite appends instead of splitting
    /// pages, and the real page's drain is about 7 % faster (issue 10).
    ///
    /// Holds the image's lock throughout, so a read waits for it. On any SQLite error the
    /// transaction is rolled back, the work goes back to the front of the queue, the check's
    /// stamps are kept for the next drain, and the error is returned (and kept in ``status``).
    /// An error that says the file is unreadable also schedules the file's recreation.
    @discardableResult
    package func drain() -> DrainResult {
        drain(stoppingAfter: nil)
    }

    /// Drains like ``drain()`` but stops after `writes` row writes (snapshots, root fields and
    /// fetch times, counted in the order they are written; the eviction and the check's stamps
    /// come first and do not count), or before `COMMIT` when there are fewer: as a process killed
    /// in the middle of a drain would.
    ///
    /// The transaction is left open, uncommitted, and the image is halted: reads miss, drains
    /// answer `.unavailable`, the work stays pending. The only thing left to do with the image is
    /// to drop it (or ``Image/abandon()``) as the simulator drops a killed process; SQLite then
    /// rolls the transaction back, and a new open sees the file as it was at the last commit.
    /// Under the `drainInTwoTransactions` mutant the first half may already be committed.
    @discardableResult
    package func drain(stoppingAfter writes: Int?) -> DrainResult {
        core.withState { state in
            guard state.mode == .live, !state.halted, !state.foreign else { return .unavailable }
            if state.inRead {
                // Called from a read's body: writing now would end the read's transaction.
                return .failed(SQLiteError(extendedCode: .misuse, message: "drain called inside a read"))
            }
            var recreated = false
            if state.resetPending {
                do {
                    try ImageRecovery.recreate(state)
                    recreated = true
                } catch {
                    let failure = ImageRecovery.sqliteError(error)
                    state.unavailableBecause = failure
                    noteFailure(failure)
                    return .failed(failure)
                }
            }
            guard let connection = state.connection else { return .unavailable }
            if let failure = ImageCheckpoint.copyCleared(state) {
                noteFailure(failure)
                return .failed(failure)
            }
            let work = takeWork()
            if work.erase, let place = eraseMark, state.rules.eraseMarkDroppedEarly { try? EraseMark.remove(place) }
            let touches = state.touches.take()
            executor.drainTookWork(self)
            if work.isEmpty && touches.isEmpty && state.evictionDone && !recreated {
                // Nothing to write, but an erase's checkpoint may be owed: a logout is often the
                // last write for a while, and the erased pages must not wait for the next one.
                if state.eraseCheckpointOwed { _ = ImageCheckpoint.afterCommit(state) }
                clearEraseMark(state)
                return .nothingToDo
            }
            let transaction = DrainTransaction(connection: connection, state: state)
            transaction.summary.recreatedFile = recreated
            do throws(SQLiteError) {
                if try run(transaction, work: work, touches: touches, stoppingAfter: writes) {
                    state.halted = true
                    return .stopped(afterWrites: transaction.writes)
                }
            } catch {
                connection.rollbackIfNeeded()
                if state.rules.failedDrainKeepsTouches { state.touches.merge(touches) }
                workFailed(work, error: error)
                ImageCheckpoint.noteFailedWrite(state)
                if error.meansUnreadableFile { state.resetPending = true }
                return .failed(error)
            }
            state.names = transaction.names
            state.evictionDone = true
            workCommitted(work)
            if work.erase { state.eraseMarkOwed = true }
            let erased = work.erase || (state.rules.eraseCheckpointOnAnyWipe && work.wipe)
            transaction.summary.checkpoint = ImageCheckpoint.afterCommit(state, erased: erased)
            clearEraseMark(state)
            transaction.summary.batches = work.batches.count
            return .committed(transaction.summary)
        }
    }

    /// Runs the drain's transaction; `true` when it stopped on purpose before committing.
    private func run(
        _ transaction: DrainTransaction, work: TakenWork, touches: ImageTouches, stoppingAfter limit: Int?
    ) throws(SQLiteError) -> Bool {
        let connection = transaction.connection
        let state = transaction.state
        // A failure that SQLite did not roll back itself must not leave us inside a transaction.
        connection.rollbackIfNeeded()
        try connection.execute("BEGIN IMMEDIATE")
        if !state.evictionDone { try transaction.evict() }
        if work.wipe { try transaction.wipe(erasing: work.erase) }
        try transaction.stamp(touches)

        let total = work.batches.reduce(0) { $0 + $1.itemCount }
        let splitAt = state.rules.twoTransactions && total >= 2 ? total / 2 : nil
        func willWrite() throws(SQLiteError) -> Bool {
            if let limit, transaction.writes >= limit { return false }
            if let splitAt, transaction.writes == splitAt {
                // Mutant: the first half becomes durable on its own.
                try transaction.stampNames()
                try connection.execute("COMMIT")
                try connection.execute("BEGIN IMMEDIATE")
            }
            transaction.writes += 1
            return true
        }
        for batch in work.batches {
            // Records in key order, the order of the table's B-tree; the batches stay in queue order.
            let snapshots = batch.snapshots
            for index in utf8SortedPositions(of: snapshots.map(\.key.rawValue)) {
                guard try willWrite() else { return true }
                try transaction.write(snapshots[index])
            }
            var rootTypes: [RecordKey: String]?
            for field in batch.rootFields {
                guard try willWrite() else { return true }
                try transaction.write(rootField: field, of: batch, types: &rootTypes)
            }
            for fetch in batch.fetches {
                guard try willWrite() else { return true }
                try transaction.write(fetch: fetch)
            }
        }
        if limit != nil { return true }
        try transaction.stampNames()
        try connection.execute("COMMIT")
        return false
    }
}
