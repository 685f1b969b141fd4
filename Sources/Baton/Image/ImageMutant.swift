#if BATON_MUTANTS
/// Known bug classes the image can reintroduce on purpose, so a campaign can prove it catches them.
///
/// Compiled only with `BATON_MUTANTS` (debug builds); chosen per image through
/// ``ImageConfiguration/mutant``, so images of one process never share a mutant.
package enum ImageMutant: String, Sendable, Hashable, CaseIterable {
    /// A snapshot of a record memory has not read replaces its row instead of merging over it.
    case partialSnapshotReplaces
    /// A deletion keeps the old cells under the deleted flag, and a merge over a deleted row
    /// merges its cells too: a revived record gets its old cells back.
    case deletedCellsRevive
    /// Rows age out one launch early: unread in the previous launch is already gone (the
    /// eviction and the read filter both use `used < G` instead of `used < G - 1`).
    case evictOneLaunchEarly
    /// Rows never age out: no eviction, no read filter.
    case evictNever
    /// A drain commits the first half of its work, then the rest in a second transaction.
    case drainInTwoTransactions
    /// An open keeps the previous launch's WAL instead of checkpointing and truncating it.
    case walKeptAtOpen
    /// A structure check that could not read a page counts as finding the file corrupt, so the
    /// file is started again (the rule until 2026-12-05).
    case failedStructureReadDiscards
    /// The writer leaves a damaged name's checksum as it found it.
    case nameRepairSkipped
    /// An app update's wipe leaves the old version in `meta`.
    case wipeKeepsOldVersion
    /// The wipe marks the new version in a transaction before the one deleting the rows.
    case wipeMarksFirst
    /// The reader takes a list nested deeper than 128 for damage, though ingest accepts and the
    /// writer writes lists as deep as a response nests (the rule until 2026-12-06).
    case deepListsReadAsDamage
    /// The row encoder writes negative zero as zero, so a Float's sign is lost at the next launch.
    case negativeZeroNormalized
    /// Opening a format 2–6 file marks it 7 without moving its `used` stamps.
    case stampsLeftAtFormatUpgrade
    /// Opening a format 2–6 file moves its stamps in a transaction after the one marking it 7.
    case stampsMovedApart
    /// The open's checkpoint runs without a copy of the WAL taken first.
    case checkpointUnguarded
    /// A process's own checkpoints (the writer's, the close's) never take a copy of the WAL, even
    /// after one of its writes or checkpoints failed (the rule until 2026-12-06).
    case checkpointUnguardedAfterFailure
    /// The check's slot rows keep a cell's value without its field errors.
    case slotRowsDropErrors
    /// An open that cannot open the file (a locked device, no descriptor left) takes it for
    /// unusable and starts the image again.
    case cantOpenDiscards
    /// An erase's wipe deletes without overwriting what it deletes.
    case eraseLeavesBytes
    /// An erase's drain runs no checkpoint of its own.
    case eraseNotCheckpointed
    /// An erase's checkpoint that failed is not run again by the drains after it.
    case eraseCheckpointForgotten
    /// An erase leaves no mark beside the image, so a process killed before the erase's drain
    /// leaves the erased rows for the next launch (the rule until 2026-12-07).
    case eraseUnmarked
    /// An open does not look for an erase's mark.
    case eraseMarkIgnored
    /// An erase's mark is never deleted: every later launch erases the image again.
    case eraseMarkKept
    /// An erase's mark is deleted as its drain begins, before the wipe is committed and
    /// checkpointed.
    case eraseMarkDroppedEarly
    /// An erase's wipe leaves the names table, whose storage keys hold the arguments the app sent.
    case eraseKeepsNames
    /// An erase's mark is deleted once its wipe committed, though its checkpoint failed.
    case eraseMarkBeforeCheckpoint
    /// A drain checkpoints only when the WAL holds exactly `checkpointPages` frames.
    case checkpointOnlyAtThreshold
    /// The writer's pending keys leave out the batches a drain has taken and not committed.
    case pendingKeysSkipInFlight
    /// A drain that commits ends the wipe an erase or an overflow asked for while it was in flight.
    case commitEndsLaterWipe
    /// A drain that fails puts its work back though an erase or an overflow dropped the queue
    /// while it was in flight.
    case failedWorkOutlivesDrop
    /// A drain that fails puts its work back behind what was queued while it was in flight.
    case failedWorkRequeuedBehind
    /// The writer's bound leaves out the items a drain has in flight.
    case boundIgnoresInFlight
    /// An overflow drops the queue without moving its epoch.
    case overflowKeepsEpoch
    /// A drain that finished an erase deletes the mark though another erase came meanwhile.
    case markClearedUnderLaterErase
    /// Any wipe, an overflow's too, gets an erase's truncating checkpoint and its debt.
    case eraseCheckpointOnAnyWipe
    /// A drain that fails drops the names it was to stamp as used.
    case failedDrainDropsTouches
    /// An erase's checkpoint paid by a later drain runs passive, not truncating.
    case owedEraseCheckpointPassive
}
#endif

/// The rules the writer and the reader follow; each departure is a mutant (debug builds only).
struct ImageRules: Sendable, Hashable {
    /// When rows age out, relative to the launch's generation.
    enum Eviction: Sendable, Hashable {
        /// Unread for one whole launch, then gone: visible while `used >= G - 1`.
        case afterOneLaunch
        /// Mutant: visible while `used >= G`.
        case oneLaunchEarly
        /// Mutant: always visible, never deleted.
        case never
    }

    var partialSnapshotReplaces = false
    var deletedCellsRevive = false
    var eviction = Eviction.afterOneLaunch
    var twoTransactions = false
    /// Mutant: the open does not restart the WAL.
    var keepsWALAtOpen = false
    /// Mutant: a structure check that could not read a page finds the file corrupt.
    var failedStructureReadDiscards = false
    /// Mutant: a name whose stored checksum fails is written again without setting it right.
    var nameRepairSkipped = false
    /// Mutant: another version's wipe does not record the new version.
    var wipeKeepsOldVersion = false
    /// The wipe's mark and its deletions share one transaction (mutant: the mark commits first).
    var wipeMarksFirst = false
    /// Mutant: rows hold `-0.0` as `0.0`.
    var negativeZeroNormalized = false
    /// How deep a row's lists may nest before a read takes them for damage (the mutant: 128).
    var listDepthLimit = RowFormat.maxDepth
    /// Opening a file from before ``ImageSchema/stampsFormat`` moves its stamps (mutant: not).
    var movesOldStamps = true
    /// The move shares the count's transaction (mutant: a transaction after it).
    var movesStampsApart = false
    /// The open's checkpoint is guarded by a durable copy of the WAL (mutant: not).
    var guardsCheckpoint = true
    /// After a failed write a process's own checkpoints are guarded too (mutant: never).
    var guardsCheckpointAfterFailure = true
    /// Mutant: the check's slot rows drop their cells' field errors.
    var slotRowsDropErrors = false
    /// Mutant: a file SQLite cannot open is deleted and started again.
    var cantOpenDiscards = false
    /// An erase's wipe overwrites what it deletes (mutant: not).
    var eraseOverwrites = true
    /// Mutant: an erase's drain runs no truncating checkpoint.
    var eraseNotCheckpointed = false
    /// Mutant: an erase's checkpoint that failed is not owed to the drains after it.
    var eraseCheckpointForgotten = false
    /// An erase leaves its mark beside the image (``EraseMark``) before it returns (mutant: not).
    var eraseMarks = true
    /// An open erases the image when it finds an erase's mark (mutant: not).
    var honoursEraseMark = true
    /// Mutant: the erase's mark is never deleted.
    var eraseMarkKept = false
    /// Mutant: the erase's mark is deleted as the erase's drain takes its work, before the wipe
    /// is committed and checkpointed.
    var eraseMarkDroppedEarly = false
    /// Mutant: an erase's wipe deletes every table's rows but the names'.
    var eraseKeepsNames = false
    /// Mutant: the mark is deleted after the wipe commits, whether or not its checkpoint ran.
    var eraseMarkBeforeCheckpoint = false
    /// Mutant: a drain checkpoints only when the WAL holds exactly `checkpointPages` frames.
    var checkpointOnlyAtThreshold = false
    /// Mutant: a wipe that is no erase's (an overflow's) is checkpointed as an erase's is.
    var eraseCheckpointOnAnyWipe = false
    /// A failed drain puts back the names it was to stamp (mutant: not).
    var failedDrainKeepsTouches = true
    /// Mutant: the owed erase checkpoint a later drain pays runs passive.
    var owedEraseCheckpointPassive = false
    /// How the writer's queue treats a drain in flight (mutants: ``WriterQueueRules``).
    var queue = WriterQueueRules()

    /// The decision records' rules.
    static let production = ImageRules()

    /// The oldest `used` a row may have and still be read, in a launch of `generation` (`nil`: any).
    func visibleFrom(generation: Int) -> Int? {
        switch eviction {
        case .afterOneLaunch: generation - 1
        case .oneLaunchEarly: generation
        case .never: nil
        }
    }

    #if BATON_MUTANTS
    init(mutant: ImageMutant?) {
        switch mutant {
        case nil: break
        case .partialSnapshotReplaces: partialSnapshotReplaces = true
        case .deletedCellsRevive: deletedCellsRevive = true
        case .evictOneLaunchEarly: eviction = .oneLaunchEarly
        case .evictNever: eviction = .never
        case .drainInTwoTransactions: twoTransactions = true
        case .walKeptAtOpen: keepsWALAtOpen = true
        case .failedStructureReadDiscards: failedStructureReadDiscards = true
        case .nameRepairSkipped: nameRepairSkipped = true
        case .wipeKeepsOldVersion: wipeKeepsOldVersion = true
        case .wipeMarksFirst: wipeMarksFirst = true
        case .deepListsReadAsDamage: listDepthLimit = RowFormat.oldMaxDepth
        case .negativeZeroNormalized: negativeZeroNormalized = true
        case .stampsLeftAtFormatUpgrade: movesOldStamps = false
        case .stampsMovedApart: movesStampsApart = true
        case .checkpointUnguarded: guardsCheckpoint = false
        case .checkpointUnguardedAfterFailure: guardsCheckpointAfterFailure = false
        case .slotRowsDropErrors: slotRowsDropErrors = true
        case .cantOpenDiscards: cantOpenDiscards = true
        case .eraseLeavesBytes: eraseOverwrites = false
        case .eraseNotCheckpointed: eraseNotCheckpointed = true
        case .eraseCheckpointForgotten: eraseCheckpointForgotten = true
        case .eraseUnmarked: eraseMarks = false
        case .eraseMarkIgnored: honoursEraseMark = false
        case .eraseMarkKept: eraseMarkKept = true
        case .eraseMarkDroppedEarly: eraseMarkDroppedEarly = true
        case .eraseKeepsNames: eraseKeepsNames = true
        case .eraseMarkBeforeCheckpoint: eraseMarkBeforeCheckpoint = true
        case .checkpointOnlyAtThreshold: checkpointOnlyAtThreshold = true
        case .pendingKeysSkipInFlight: queue.pendingKeysSkipInFlight = true
        case .commitEndsLaterWipe: queue.commitEndsLaterWipe = true
        case .failedWorkOutlivesDrop: queue.failedWorkOutlivesDrop = true
        case .failedWorkRequeuedBehind: queue.failedWorkRequeuedBehind = true
        case .boundIgnoresInFlight: queue.boundIgnoresInFlight = true
        case .overflowKeepsEpoch: queue.overflowKeepsEpoch = true
        case .markClearedUnderLaterErase: queue.markClearedUnderLaterErase = true
        case .eraseCheckpointOnAnyWipe: eraseCheckpointOnAnyWipe = true
        case .failedDrainDropsTouches: failedDrainKeepsTouches = false
        case .owedEraseCheckpointPassive: owedEraseCheckpointPassive = true
        }
    }
    #endif

    init() {}
}

#if BATON_MUTANTS
extension ImageMutant {
    /// The image's side of a project-wide mutant, if it has one.
    package init?(mutant: Mutant) {
        self.init(rawValue: mutant.rawValue)
    }
}
#endif
