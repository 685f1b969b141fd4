/// How the writer is doing: what waits, what failed, how often the queue overflowed.
package struct WriterStatus: Sendable, Hashable {
    /// Batches queued and not yet taken by a drain.
    package var queuedBatches = 0
    /// Snapshots, root fields and fetch times waiting, a drain's work in flight included.
    package var pendingItems = 0
    /// Drains that failed in a row since the last commit; above 0 the image is behind memory.
    package var consecutiveFailures = 0
    /// The error of the last failed drain, cleared by a commit.
    package var lastError: SQLiteError?
    /// Drains committed.
    package var commits = 0
    /// How many times queued work went over the bound and was dropped (the image then empties itself).
    package var overflows = 0
    /// How many times the store was erased (``Image/erase()``).
    package var erases = 0
    /// True while an overflow's or an erase's wipe waits for a drain that commits it.
    package var wipePending = false

    /// True while drains fail: the writer keeps retrying; memory is ahead of the image.
    package var isBehind: Bool { consecutiveFailures > 0 }
}

/// What one drain did.
package enum DrainResult: Sendable, Hashable {
    /// Nothing was queued, nothing to stamp, nothing to age out.
    case nothingToDo
    /// Everything taken was written in one transaction (two under the `drainInTwoTransactions` mutant).
    case committed(DrainSummary)
    /// The transaction was rolled back and the work put back at the front of the queue.
    case failed(SQLiteError)
    /// `drain(stoppingAfter:)` stopped after this many row writes, leaving the transaction open.
    case stopped(afterWrites: Int)
    /// No file to write: a foreign file, an inspection, a closed, abandoned or halted image.
    case unavailable
}

/// The counts of one committed drain.
package struct DrainSummary: Sendable, Hashable {
    package var batches = 0
    package var snapshots = 0
    /// Snapshots merged over an existing row (the rest replaced theirs or had none to merge with).
    package var merged = 0
    package var rootFields = 0
    package var fetches = 0
    /// Rows and names stamped because the check read them.
    package var touches = 0
    /// Names the drain added to the image.
    package var newNames = 0
    /// True when this drain aged out the rows of earlier launches.
    package var evicted = false
    /// True when this drain emptied the image after the queue overflowed or the store was erased.
    package var wiped = false
    /// True when the wipe was an erase's: deleted bytes overwritten, and a truncating
    /// checkpoint after the commit (``checkpoint``).
    package var erased = false
    /// True when this drain first recreated a file a read found unreadable.
    package var recreatedFile = false
    /// The checkpoint that followed the commit (``ImageCheckpoint``), if the WAL had grown long.
    package var checkpoint = DrainCheckpoint.none
}

/// The checkpoint a committed drain ran after its commit.
package enum DrainCheckpoint: Sendable, Hashable {
    /// None: the WAL holds fewer pages than the image checkpoints at.
    case none
    /// A checkpoint as SQLite runs its own.
    case plain
    /// A checkpoint behind a copy of the WAL (a write of this process failed before).
    case guarded
    /// A checkpoint that failed, or could not take its copy; the drain's commit stands.
    case failed
}
