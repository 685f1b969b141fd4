/// How often each of the oracle's rules took each path: what a campaign reports and a test floors,
/// so that a change which stops exercising a path fails.
package struct OracleCoverage: Hashable, Sendable, Codable {
    /// Snapshots merged over a present row (not hydrated, not deleted).
    package var partialRowMerges = 0
    /// Records a server commit deleted.
    package var deletions = 0
    /// Server commits that deleted two records or more (a bulk deletion's `@deleteRecord` list).
    package var bulkDeletions = 0
    /// Records named again by a server commit after their deletion.
    package var revivals = 0
    /// Records the check filled from their rows (absent records and missing slots alike).
    package var recordHydrations = 0
    /// Query-root fields the check filled from their rows.
    package var rootFieldHydrations = 0
    /// Rows a launch's first drain deleted because no launch used them for a whole launch.
    package var rowsAgedOut = 0
    /// Checks answered available from the image.
    package var checksFromImage = 0
    /// Collections that swept at least one hydrated record.
    package var collectionsSweepingHydrated = 0
    /// Connection pages that created a connection (no cursor, nothing held).
    package var connectionFirstPages = 0
    /// Pages appended after the stored end cursor.
    package var connectionAppends = 0
    /// Pages prepended before the stored start cursor.
    package var connectionPrepends = 0
    /// Pages without a cursor over a connection memory held.
    package var connectionRefreshes = 0
    /// Cursor pages that did not meet the stored cursor (or a connection memory held): ignored.
    package var connectionIgnoredPages = 0
    /// Edges dropped because an earlier edge held the same node.
    package var deduplicatedEdges = 0
    /// Relaunches after a power loss that found an older image than the last drain that returned.
    package var powerLossesOntoOlderCommit = 0
    /// Record rows whose read the disk failed during a check: a miss, the record left unhydrated.
    package var readFaultMisses = 0
    /// Root fields and fetch times whose read the disk failed (or that a failed read closed).
    package var readFaultOtherMisses = 0
    /// Drains that failed because the disk was full.
    package var fullDiskFailedDrains = 0
    /// Times the writer's queue went over its bound and the model dropped the queue.
    package var writerOverflows = 0
    /// Rows bit rot damaged that a relaunch found damaged (a miss, never served).
    package var rottedRowsMissed = 0
    /// Released roots that left a full release buffer (their records no longer protected).
    package var releasedRootsLeavingBuffer = 0
    /// Rows a damaged name hid that read again once a drain wrote the name (its checksum set right).
    package var rowsRevived = 0
    /// Launches of a new app version that wiped an image another version had opened.
    package var upgradeWipes = 0
    /// Automatic collection passes that ran at the end of a turn and swept at least one record.
    package var automaticCollections = 0
    /// Processes that died opening the image (``Oracle/openCrashed(after:appVersion:powerLoss:)``).
    package var openCrashes = 0
    /// Launches that found, after an open that died, a state that open committed part of.
    package var openCrashesCommitted = 0
    /// Relaunches that found the commit of a drain that had failed (its commit frame checked,
    /// the failed write's bytes being there already), see ``Oracle/drainFailed(diskFull:)``.
    package var failedDrainsFound = 0
    /// Checks under an expiration whose fetch was stamped after the clock's time: the clock had
    /// been set back since (``SimEvent/advanceClock(seconds:)`` with a negative step).
    package var fetchesAheadOfClock = 0
    /// Drains held on the writer's thread once they took their work (``SimEvent/drainBegins``).
    package var drainsHeld = 0
    /// Collection passes (asked for or automatic) while a held drain was in flight.
    package var collectionsDuringDrains = 0
    /// Erases while a held drain was in flight.
    package var erasesDuringDrains = 0
    /// Held drains that failed after events ran while they were in flight.
    package var heldDrainsFailed = 0
    /// Optimistic layers that write the query root (a query's predicted answer).
    package var queryRootLayers = 0
    /// Collection passes that swept query-root fields while such a layer was live.
    package var rootFieldsSweptUnderLayers = 0
    /// Checks given no expiration, of a fetch the store's default expiration then judged.
    package var checksUnderDefaultExpiration = 0
    /// Server responses with no data, errors only: a request the server refused, or a null that
    /// reached `data`.
    package var responsesWithoutData = 0
    /// String cells a server commit renewed into their Unicode twin (equal by Swift's `==`,
    /// different in bytes).
    package var twinRenewals = 0

    package init() {}

    /// Every counter by name, in a fixed order (for reports and floors).
    package var counters: [(name: String, value: Int)] {
        [
            ("partialRowMerges", partialRowMerges), ("deletions", deletions), ("bulkDeletions", bulkDeletions),
            ("revivals", revivals),
            ("recordHydrations", recordHydrations), ("rootFieldHydrations", rootFieldHydrations),
            ("rowsAgedOut", rowsAgedOut), ("checksFromImage", checksFromImage),
            ("collectionsSweepingHydrated", collectionsSweepingHydrated),
            ("connectionFirstPages", connectionFirstPages), ("connectionAppends", connectionAppends),
            ("connectionPrepends", connectionPrepends), ("connectionRefreshes", connectionRefreshes),
            ("connectionIgnoredPages", connectionIgnoredPages), ("deduplicatedEdges", deduplicatedEdges),
            ("powerLossesOntoOlderCommit", powerLossesOntoOlderCommit),
            ("readFaultMisses", readFaultMisses), ("readFaultOtherMisses", readFaultOtherMisses),
            ("fullDiskFailedDrains", fullDiskFailedDrains), ("writerOverflows", writerOverflows),
            ("rottedRowsMissed", rottedRowsMissed),
            ("releasedRootsLeavingBuffer", releasedRootsLeavingBuffer), ("rowsRevived", rowsRevived),
            ("upgradeWipes", upgradeWipes), ("automaticCollections", automaticCollections),
            ("openCrashes", openCrashes), ("openCrashesCommitted", openCrashesCommitted),
            ("failedDrainsFound", failedDrainsFound), ("fetchesAheadOfClock", fetchesAheadOfClock),
            ("drainsHeld", drainsHeld), ("collectionsDuringDrains", collectionsDuringDrains),
            ("erasesDuringDrains", erasesDuringDrains), ("heldDrainsFailed", heldDrainsFailed),
            ("queryRootLayers", queryRootLayers), ("rootFieldsSweptUnderLayers", rootFieldsSweptUnderLayers),
            ("checksUnderDefaultExpiration", checksUnderDefaultExpiration), ("responsesWithoutData", responsesWithoutData),
            ("twinRenewals", twinRenewals),
        ]
    }

    /// The sum of two coverages (a campaign adds its seeds').
    package static func + (lhs: OracleCoverage, rhs: OracleCoverage) -> OracleCoverage {
        var sum = lhs
        sum.partialRowMerges += rhs.partialRowMerges
        sum.deletions += rhs.deletions
        sum.bulkDeletions += rhs.bulkDeletions
        sum.revivals += rhs.revivals
        sum.recordHydrations += rhs.recordHydrations
        sum.rootFieldHydrations += rhs.rootFieldHydrations
        sum.rowsAgedOut += rhs.rowsAgedOut
        sum.checksFromImage += rhs.checksFromImage
        sum.collectionsSweepingHydrated += rhs.collectionsSweepingHydrated
        sum.connectionFirstPages += rhs.connectionFirstPages
        sum.connectionAppends += rhs.connectionAppends
        sum.connectionPrepends += rhs.connectionPrepends
        sum.connectionRefreshes += rhs.connectionRefreshes
        sum.connectionIgnoredPages += rhs.connectionIgnoredPages
        sum.deduplicatedEdges += rhs.deduplicatedEdges
        sum.powerLossesOntoOlderCommit += rhs.powerLossesOntoOlderCommit
        sum.readFaultMisses += rhs.readFaultMisses
        sum.readFaultOtherMisses += rhs.readFaultOtherMisses
        sum.fullDiskFailedDrains += rhs.fullDiskFailedDrains
        sum.writerOverflows += rhs.writerOverflows
        sum.rottedRowsMissed += rhs.rottedRowsMissed
        sum.releasedRootsLeavingBuffer += rhs.releasedRootsLeavingBuffer
        sum.rowsRevived += rhs.rowsRevived
        sum.upgradeWipes += rhs.upgradeWipes
        sum.automaticCollections += rhs.automaticCollections
        sum.openCrashes += rhs.openCrashes
        sum.openCrashesCommitted += rhs.openCrashesCommitted
        sum.failedDrainsFound += rhs.failedDrainsFound
        sum.fetchesAheadOfClock += rhs.fetchesAheadOfClock
        sum.drainsHeld += rhs.drainsHeld
        sum.collectionsDuringDrains += rhs.collectionsDuringDrains
        sum.erasesDuringDrains += rhs.erasesDuringDrains
        sum.heldDrainsFailed += rhs.heldDrainsFailed
        sum.queryRootLayers += rhs.queryRootLayers
        sum.rootFieldsSweptUnderLayers += rhs.rootFieldsSweptUnderLayers
        sum.checksUnderDefaultExpiration += rhs.checksUnderDefaultExpiration
        sum.responsesWithoutData += rhs.responsesWithoutData
        sum.twinRenewals += rhs.twinRenewals
        return sum
    }
}
