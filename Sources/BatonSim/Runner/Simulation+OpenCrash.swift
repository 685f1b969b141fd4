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
