import Baton

/// The paths a run's rules took: the reference model's counters (merges, deletions, revivals,
/// hydrations, rows aged out, checks from the image, collections that swept hydrated records,
/// connection pages by kind, power losses that landed on an older commit) and the disk's paths
/// (torn writes, directory entries lost, failed syncs that dropped writes, 4096-byte devices), and
/// the field errors read back. A campaign adds its seeds' coverage, reports it, and a test floors
/// it over a fixed range of seeds, so a change that stops reaching a path fails.
package struct Coverage: Hashable, Sendable {
    package var model = OracleCoverage()
    /// Pending writes a power loss tore (WAL frames and pages cut at a sector).
    package var tornWrites = 0
    /// Pending directory entries (a file created or removed, its directory never synced) a power
    /// loss lost.
    package var directoryEntriesLost = 0
    /// Failed syncs that dropped a file's pending writes (the Linux behaviour).
    package var failedSyncsDroppingWrites = 0
    /// Runs whose disk has 4096-byte sectors and power-safe overwrite.
    package var seedsWith4096Sectors = 0
    /// Disk operations an injected fault failed (reads, writes, syncs, truncations).
    package var faultsInjected = 0
    /// Field errors the read-backs of available checks gave, each compared with the model's.
    package var errorsReadBack = 0
    /// Fields among them that held several errors (list elements that failed one by one, a field
    /// asked for under two aliases, a record met twice).
    package var fieldsWithSeveralErrorsReadBack = 0
    /// Errors among them about a list element that a failed field deeper down nulled (read back
    /// at the element, though their paths go on past it).
    package var errorsAtNulledElementsReadBack = 0
    /// Errors among them that carried `extensions` (canonical JSON, kept by the image).
    package var errorsWithExtensionsReadBack = 0
    /// Errors among them that carried other members (`locations`, a server's own `type`).
    package var errorsWithOtherMembersReadBack = 0
    /// Places where the read-backs of missing checks found nothing (``ReadResult/missing``),
    /// each list compared with the model's.
    package var partialReadsMissing = 0
    /// Lookups of checks that met a record row or root cell rotted at rest: its checksum failed
    /// and it read as absent, as the model had it.
    package var rottedRowsRead = 0
    /// Responses with no provenance (garbled on their way, or in a replay file) that the store
    /// and the model both refused, the store left as it was.
    package var refusedResponses = 0
    /// Responses of the world's recorded ones (``RecordedResponse``) the schedules delivered.
    package var recordedResponses = 0
    /// Format upgrades that found a sound image and made it the previous format for the new
    /// build to open (``SimEvent/formatUpgrade``).
    package var formatUpgrades = 0
    /// Quits that died inside their last drain or close (``SimEvent/quitCrash(operations:powerLossSeed:)``).
    package var quitCrashes = 0
    /// Checkpoints a drain ran inside a process once the WAL had grown to the disk model's
    /// `checkpointPages` (``DrainCheckpoint``), and those behind a copy of the WAL because a
    /// write of the process had failed before.
    package var processCheckpoints = 0
    package var guardedCheckpoints = 0
    /// Commits a process made while its image opened in the background, handed to the image
    /// when the open finished (``SimEvent/relaunchOpeningLater``).
    package var commitsBufferedBeforeTheOpen = 0
    /// Processes killed (or whose power went) before their background open ran.
    package var deathsBeforeTheOpen = 0
    /// Processes whose background open failed (the disk was full), so their store ran without
    /// an image.
    package var imagelessProcesses = 0
    /// Launches whose image opened only at a second or third attempt, the first failed by the
    /// disk (an open that could not open a file, a write or sync that failed).
    package var opensRetried = 0
    /// Launches on a locked device (``SimEvent/relaunchLocked``): no file could be opened, the
    /// store ran without an image.
    package var lockedLaunches = 0
    /// Erases (``SimEvent/erase``), and the drains that committed one and searched the files for
    /// the erased texts.
    package var erases = 0
    package var erasesSearched = 0
    /// Launches whose open found an erase's mark (its process ended before the erase's drain
    /// finished it) and erased the image before anything read it.
    package var erasesAtOpen = 0

    package init(model: OracleCoverage = OracleCoverage(), tornWrites: Int = 0, faultsInjected: Int = 0) {
        self.model = model
        self.tornWrites = tornWrites
        self.faultsInjected = faultsInjected
    }

    /// Every counter by name, in a fixed order.
    package var counters: [(name: String, value: Int)] {
        model.counters + [("tornWrites", tornWrites), ("faultsInjected", faultsInjected)]
            + [("directoryEntriesLost", directoryEntriesLost)]
            + [("failedSyncsDroppingWrites", failedSyncsDroppingWrites)]
            + [("seedsWith4096Sectors", seedsWith4096Sectors)]
            + [("errorsReadBack", errorsReadBack), ("fieldsWithSeveralErrorsReadBack", fieldsWithSeveralErrorsReadBack)]
            + [("errorsAtNulledElementsReadBack", errorsAtNulledElementsReadBack)]
            + [("errorsWithExtensionsReadBack", errorsWithExtensionsReadBack),
                ("errorsWithOtherMembersReadBack", errorsWithOtherMembersReadBack), ("partialReadsMissing", partialReadsMissing)]
            + [("rottedRowsRead", rottedRowsRead), ("refusedResponses", refusedResponses)]
            + [("recordedResponses", recordedResponses), ("formatUpgrades", formatUpgrades), ("quitCrashes", quitCrashes)]
            + [("processCheckpoints", processCheckpoints), ("guardedCheckpoints", guardedCheckpoints)]
            + [("commitsBufferedBeforeTheOpen", commitsBufferedBeforeTheOpen), ("deathsBeforeTheOpen", deathsBeforeTheOpen)]
            + [("imagelessProcesses", imagelessProcesses), ("opensRetried", opensRetried), ("lockedLaunches", lockedLaunches), ("erases", erases), ("erasesSearched", erasesSearched), ("erasesAtOpen", erasesAtOpen)]
    }

    package static func + (lhs: Coverage, rhs: Coverage) -> Coverage {
        var sum = Coverage(model: lhs.model + rhs.model, tornWrites: lhs.tornWrites + rhs.tornWrites, faultsInjected: lhs.faultsInjected + rhs.faultsInjected)
        sum.directoryEntriesLost = lhs.directoryEntriesLost + rhs.directoryEntriesLost
        sum.failedSyncsDroppingWrites = lhs.failedSyncsDroppingWrites + rhs.failedSyncsDroppingWrites
        sum.seedsWith4096Sectors = lhs.seedsWith4096Sectors + rhs.seedsWith4096Sectors
        sum.errorsReadBack = lhs.errorsReadBack + rhs.errorsReadBack
        sum.fieldsWithSeveralErrorsReadBack = lhs.fieldsWithSeveralErrorsReadBack + rhs.fieldsWithSeveralErrorsReadBack
        sum.errorsAtNulledElementsReadBack = lhs.errorsAtNulledElementsReadBack + rhs.errorsAtNulledElementsReadBack
        sum.errorsWithExtensionsReadBack = lhs.errorsWithExtensionsReadBack + rhs.errorsWithExtensionsReadBack
        sum.errorsWithOtherMembersReadBack = lhs.errorsWithOtherMembersReadBack + rhs.errorsWithOtherMembersReadBack
        sum.partialReadsMissing = lhs.partialReadsMissing + rhs.partialReadsMissing
        sum.rottedRowsRead = lhs.rottedRowsRead + rhs.rottedRowsRead
        sum.refusedResponses = lhs.refusedResponses + rhs.refusedResponses
        sum.recordedResponses = lhs.recordedResponses + rhs.recordedResponses
        sum.formatUpgrades = lhs.formatUpgrades + rhs.formatUpgrades
        sum.quitCrashes = lhs.quitCrashes + rhs.quitCrashes
        sum.processCheckpoints = lhs.processCheckpoints + rhs.processCheckpoints
        sum.guardedCheckpoints = lhs.guardedCheckpoints + rhs.guardedCheckpoints
        sum.commitsBufferedBeforeTheOpen = lhs.commitsBufferedBeforeTheOpen + rhs.commitsBufferedBeforeTheOpen
        sum.deathsBeforeTheOpen = lhs.deathsBeforeTheOpen + rhs.deathsBeforeTheOpen
        sum.imagelessProcesses = lhs.imagelessProcesses + rhs.imagelessProcesses
        sum.opensRetried = lhs.opensRetried + rhs.opensRetried
        sum.lockedLaunches = lhs.lockedLaunches + rhs.lockedLaunches
        sum.erases = lhs.erases + rhs.erases
        sum.erasesSearched = lhs.erasesSearched + rhs.erasesSearched
        sum.erasesAtOpen = lhs.erasesAtOpen + rhs.erasesAtOpen
        return sum
    }

    /// The counters as a JSON object.
    package var json: JSONValue {
        var object: [String: JSONValue] = [:]
        for (name, value) in counters { object[name] = .int(value) }
        return .object(object)
    }

    /// Reads back ``json`` (a shard's report); counters it lacks are 0.
    package init(json: JSONValue?) {
        self.init()
        guard case .object(let object)? = json else { return }
        func int(_ name: String) -> Int {
            if case .int(let value)? = object[name] { return value }
            return 0
        }
        model.partialRowMerges = int("partialRowMerges")
        model.deletions = int("deletions")
        model.bulkDeletions = int("bulkDeletions")
        model.revivals = int("revivals")
        model.recordHydrations = int("recordHydrations")
        model.rootFieldHydrations = int("rootFieldHydrations")
        model.rowsAgedOut = int("rowsAgedOut")
        model.checksFromImage = int("checksFromImage")
        model.collectionsSweepingHydrated = int("collectionsSweepingHydrated")
        model.connectionFirstPages = int("connectionFirstPages")
        model.connectionAppends = int("connectionAppends")
        model.connectionPrepends = int("connectionPrepends")
        model.connectionRefreshes = int("connectionRefreshes")
        model.connectionIgnoredPages = int("connectionIgnoredPages")
        model.deduplicatedEdges = int("deduplicatedEdges")
        model.powerLossesOntoOlderCommit = int("powerLossesOntoOlderCommit")
        model.readFaultMisses = int("readFaultMisses")
        model.readFaultOtherMisses = int("readFaultOtherMisses")
        model.fullDiskFailedDrains = int("fullDiskFailedDrains")
        model.writerOverflows = int("writerOverflows")
        model.rottedRowsMissed = int("rottedRowsMissed")
        model.releasedRootsLeavingBuffer = int("releasedRootsLeavingBuffer")
        model.rowsRevived = int("rowsRevived")
        model.upgradeWipes = int("upgradeWipes")
        model.automaticCollections = int("automaticCollections")
        model.openCrashes = int("openCrashes")
        model.openCrashesCommitted = int("openCrashesCommitted")
        model.failedDrainsFound = int("failedDrainsFound")
        model.fetchesAheadOfClock = int("fetchesAheadOfClock")
        model.drainsHeld = int("drainsHeld")
        model.collectionsDuringDrains = int("collectionsDuringDrains")
        model.erasesDuringDrains = int("erasesDuringDrains")
        model.heldDrainsFailed = int("heldDrainsFailed")
        model.queryRootLayers = int("queryRootLayers")
        model.rootFieldsSweptUnderLayers = int("rootFieldsSweptUnderLayers")
        model.checksUnderDefaultExpiration = int("checksUnderDefaultExpiration")
        model.responsesWithoutData = int("responsesWithoutData")
        model.twinRenewals = int("twinRenewals")
        tornWrites = int("tornWrites")
        directoryEntriesLost = int("directoryEntriesLost")
        failedSyncsDroppingWrites = int("failedSyncsDroppingWrites")
        seedsWith4096Sectors = int("seedsWith4096Sectors")
        faultsInjected = int("faultsInjected")
        errorsReadBack = int("errorsReadBack")
        fieldsWithSeveralErrorsReadBack = int("fieldsWithSeveralErrorsReadBack")
        errorsAtNulledElementsReadBack = int("errorsAtNulledElementsReadBack")
        errorsWithExtensionsReadBack = int("errorsWithExtensionsReadBack")
        errorsWithOtherMembersReadBack = int("errorsWithOtherMembersReadBack")
        partialReadsMissing = int("partialReadsMissing")
        rottedRowsRead = int("rottedRowsRead")
        refusedResponses = int("refusedResponses")
        recordedResponses = int("recordedResponses")
        formatUpgrades = int("formatUpgrades")
        quitCrashes = int("quitCrashes")
        processCheckpoints = int("processCheckpoints")
        guardedCheckpoints = int("guardedCheckpoints")
        commitsBufferedBeforeTheOpen = int("commitsBufferedBeforeTheOpen")
        deathsBeforeTheOpen = int("deathsBeforeTheOpen")
        imagelessProcesses = int("imagelessProcesses")
        opensRetried = int("opensRetried")
        lockedLaunches = int("lockedLaunches")
        erases = int("erases")
        erasesSearched = int("erasesSearched")
        erasesAtOpen = int("erasesAtOpen")
    }
}
