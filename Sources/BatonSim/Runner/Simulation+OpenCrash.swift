import Baton

/// A process that dies while it opens the image (``SimEvent/openCrash(operations:powerLossSeed:build:)``):
/// the open runs over the simulated disk with a crash armed at one of its disk-changing
/// operations, and whatever the open then does (throw, or go on over dead handles) reaches
/// nothing. The model widens the states the next launch may find (``Oracle/openCrashed(after:appVersion:powerLoss:)``);
/// that launch checks them as any other.
extension Simulation {
    func openCrash(operations: Int, powerLossSeed: UInt64?, build: LaunchBuild, index: Int) throws -> String {
        if process != nil { _ = try quit(index: index) }
        // A fault armed for the store must find the store; damage the model holds aside must be
        // read by a launch that finishes.
        if SimulatedDisk.FaultKind.allCases.contains(where: { disk.armedFaults($0) > 0 }) {
            return "skipped: a disk fault is armed"
        }
        guard oracle.rotted.isEmpty, oracle.dormant.records.isEmpty, oracle.dormant.root.isEmpty, oracle.dormant.fetches.isEmpty else { return "skipped: the image holds damage" }
        var line = ""
        switch build {
        case .same: break
        case .appUpgrade: appVersionNumber += 1
        case .formatUpgrade: line = try makePreviousFormat(index: index) + "; "
        }
        launches += 1
        if fullDiskEventsLeft > 0 { endFullDisk() }
        SimulatedDisk.seedSQLiteRandomness(UInt32(truncatingIfNeeded: disk.seed &+ UInt64(launches)))
        let end = lastEnd ?? .quit
        var configuration = ImageConfiguration(executor: ManualWriterExecutor(), limits: WriterLimits(maxQueuedItems: writerBound))
        #if BATON_MUTANTS
        configuration.mutant = options.mutant.flatMap(ImageMutant.init(mutant:))
        #endif
        disk.armCrash(afterOperations: UInt32(clamping: operations), powerLossSeed: powerLossSeed)
        let image = try? storeWork.time {
            try Image.open(path: Self.imagePath, vfs: disk.vfsName, appVersion: appVersion, configuration: configuration)
        }
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
}

/// A quit that dies part way (``SimEvent/quitCrash(operations:powerLossSeed:)``): the last drain
/// and the close run over the simulated disk with a crash armed at one of their disk-changing
/// operations. The model needs nothing new: the drain committed or failed, as the writer said,
/// and the process ended by a kill or a power loss (or quit cleanly, when the crash never struck).
extension Simulation {
    func quitCrash(operations: Int, powerLossSeed: UInt64?, index: Int) throws -> String {
        guard let process else { return "skipped: no process" }
        if SimulatedDisk.FaultKind.allCases.contains(where: { disk.armedFaults($0) > 0 }) {
            return "skipped: a disk fault is armed"
        }
        // The drain's own checks read the image, which a struck crash leaves unreadable; damage
        // the model holds aside waits for those checks.
        guard oracle.rotted.isEmpty, oracle.dormant.records.isEmpty, oracle.dormant.root.isEmpty, oracle.dormant.fetches.isEmpty else {
            return "skipped: the image holds damage"
        }
        disk.armCrash(afterOperations: UInt32(clamping: operations), powerLossSeed: powerLossSeed)
        let result = storeWork.time { process.image.writer.drain() }
        let drained: String
        switch result {
        case .nothingToDo:
            if oracle.hasWriterWork {
                _ = disk.thaw()
                throw violation("writer-keeps-work", "the writer had nothing to do while the model holds work for it", at: index)
            }
            drained = "nothing to do"
        case .committed:
            if !oracle.hasWriterWork {
                _ = disk.thaw()
                throw violation("writer-accounted", "the writer committed a drain the model has no work for", at: index)
            }
            oracle.drainCommitted(synced: false)
            drained = "committed"
        default:
            oracle.drainFailed(diskFull: fullDiskEventsLeft > 0)
            drained = "\(result)"
        }
        storeWork.time { process.image.close() }
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
        if powerLossSeed == nil {
            lastEnd = .kill
            return "last drain \(drained); killed inside the quit"
        }
        lastEnd = .powerLoss
        return "last drain \(drained); power lost inside the quit"
    }
}
