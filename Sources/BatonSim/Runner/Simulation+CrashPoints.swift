import Baton

/// Crashes inside the store's own calls: a process that dies while it opens the image
/// (``SimEvent/openCrash(operations:powerLossSeed:build:)``), and a quit that dies part way
/// (``SimEvent/quitCrash(operations:powerLossSeed:)``). The call runs over the simulated disk with
/// a crash armed at one of its disk-changing operations, and whatever it then does (throw, or go
/// on over dead handles) reaches nothing.
extension Simulation {
    /// Why a crash point is not placed now, if it is not: a fault armed for the store must find
    /// the store, and damage the model holds aside must be read by a launch (and a drain's checks)
    /// that finish.
    private var crashPointSkipped: String? {
        if diskFaultArmed { return "skipped: a disk fault is armed" }
        let dormant = oracle.dormant
        guard oracle.rotted.isEmpty, dormant.records.isEmpty, dormant.root.isEmpty, dormant.fetches.isEmpty else {
            return "skipped: the image holds damage"
        }
        return nil
    }

    /// A new process of `build` opens the image and dies inside the open. The model widens the
    /// states the next launch may find (``Oracle/openCrashed(after:appVersion:powerLoss:)``); that
    /// launch checks them as any other.
    func openCrash(operations: Int, powerLossSeed: UInt64?, build: LaunchBuild, index: Int) throws -> String {
        if process != nil { _ = try quit(index: index) }
        if let skipped = crashPointSkipped { return skipped }
        let line = try prepare(build, index: index)
        startProcess()
        let end = lastEnd ?? .quit
        disk.armCrash(afterOperations: UInt32(clamping: operations), powerLossSeed: powerLossSeed)
        let image = try? openImage()
        let struck = disk.thaw()
        if !struck {
            if let powerLossSeed { disk.powerLoss(seed: powerLossSeed) } else { disk.kill() }
        }
        // Its handles are dead: closing it reaches nothing.
        if let image { storeWork.time { image.abandon() } }
        oracle.openCrashed(after: end, appVersion: appVersion, powerLoss: powerLossSeed != nil)
        lastEnd = .openCrash
        crashes.openCrashes += 1
        let death = powerLossSeed == nil ? "killed" : "power lost"
        return line + (struck ? "\(death) inside the open" : "the open finished first, then \(death)")
    }

    /// Readies what a process of `build` launches into, between processes: the next app version
    /// counted, or the file made the format before. Returns the trace's words for it, if any.
    func prepare(_ build: LaunchBuild, index: Int) throws -> String {
        switch build {
        case .same: return ""
        case .appUpgrade:
            appVersionNumber += 1
            return ""
        case .formatUpgrade: return try makePreviousFormat(index: index) + "; "
        }
    }

    /// The process quits, and dies inside its last drain or its close. The model needs nothing
    /// new: the drain committed or failed, as the writer said (a failed one's commit may still be
    /// found, as after any failed drain: ``Oracle/drainFailed(diskFull:)``), and the process ended
    /// by a kill or a power loss (or quit cleanly, when the crash never struck).
    func quitCrash(operations: Int, powerLossSeed: UInt64?, index: Int) throws -> String {
        guard let process else { return "skipped: no process" }
        if process.imageless { return try quit(index: index) }
        if let skipped = crashPointSkipped { return skipped }
        disk.armCrash(afterOperations: UInt32(clamping: operations), powerLossSeed: powerLossSeed)
        // A struck crash leaves the image unreadable: the drain's reading checks wait for the
        // launch after it, which checks the state the crash left.
        let drained: String
        do {
            drained = try drain(index: index, readsImageAfter: false)
        } catch {
            _ = disk.thaw()
            throw error
        }
        storeWork.time { process.image.close() }
        oracle.eraseMarkMayHaveGone()
        let struck = disk.thaw()
        self.process = nil
        guard struck else {
            if !disk.hasPendingWrites { oracle.noteSynced() }
            lastEnd = .quit
            crashes.quit += 1
            return "last drain \(drained); the quit finished first"
        }
        quitCrashes += 1
        crashes.quitCrashes += 1
        lastEnd = powerLossSeed == nil ? .kill : .powerLoss
        return "last drain \(drained); " + (powerLossSeed == nil ? "killed" : "power lost") + " inside the quit"
    }
}
