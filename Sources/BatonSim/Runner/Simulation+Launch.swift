import Baton
import CSQLite

extension Simulation {
    /// A new process: makes its store over production's `OpeningImage`, then opens the image
    /// at once (``finishOpen(index:)``). Returns what the open found, for the trace.
    @discardableResult
    func launch(index: Int) throws -> String {
        startProcess()
        beginProcess()
        return try finishOpen(index: index)
    }

    /// A new process whose image opens in the background (``SimEvent/relaunchOpeningLater``):
    /// its store is up at once and buffers commits; the open finishes when an event first needs
    /// the image.
    func launchOpeningLater() {
        startProcess()
        beginProcess()
    }

    /// The new process's store, over production's `OpeningImage` with its open held
    /// (``HeldOpen``), and the model's process with nothing in memory.
    private func beginProcess() {
        let heldOpen = HeldOpen()
        let opening = OpeningImage(
            start: heldOpen.hold, limits: WriterLimits(maxQueuedItems: writerBound), mutant: options.mutant,
            eraseMark: EraseMark.Place(path: Self.imagePath, vfs: disk.vfsName), open: heldOpen.open)
        let recorder = RecordingImage(opening, faultCount: { [disk] in disk.counters.injectedFaults })
        let store = storeWork.time { Store(image: recorder, clock: clock, configuration: storeConfiguration) }
        process = Process(store: store, opening: opening, recorder: recorder, heldOpen: heldOpen, openedImage: nil)
        oracle.processStarted()
    }

    /// The running process's open: opens the image over the simulated disk, checks its
    /// integrity and that it is one of the states the model allows after the way the last
    /// process that opened it ended, then hands it to the process's `OpeningImage`, which passes
    /// on the commits it buffered. Returns what it found, for the trace.
    @discardableResult
    func finishOpen(index: Int) throws -> String {
        guard var process, process.opensLater else { return "" }
        let erasesAtOpen = try eraseMarkBeforeOpen(index: index)
        var image: Image?
        var lastError: (any Error)?
        var attempts = 0
        // A launch tries again after a failed open. An attempt the disk failed on purpose does
        // not count against the three the open is allowed: several faults may be armed (one per
        // kind of operation), and each may fail an attempt of its own.
        var unexplained = 0
        while image == nil, unexplained < 3, attempts < Self.openAttemptLimit {
            attempts += 1
            let faultsBefore = disk.counters.injectedFaults
            do {
                image = try openImage()
            } catch {
                lastError = error
                if disk.counters.injectedFaults == faultsBefore { unexplained += 1 }
            }
        }
        guard let image else {
            if fullDiskEventsLeft > 0, launched, let error = lastError as? ImageError {
                return try runWithoutImage(process, after: error, index: index)
            }
            let how = unexplained >= 3 ? "three times in a row" : "in \(attempts) attempts"
            throw violation("image-opens", "the image did not open \(how): \(lastError.map { "\($0)" } ?? "")", at: index)
        }
        let integrity = image.integrityCheck()
        statesChecked += 1
        guard integrity == "ok" else {
            throw violation("integrity-check", integrity, at: index)
        }
        let (observed, damaged, hidden) = try observeKeepingDamage(image, index: index)
        guard observed.appVersion == appVersion else {
            throw violation(
                "launch-marks-version",
                "the image opened by \(appVersion) holds version \(observed.appVersion.map { "\"\($0)\"" } ?? "none") in meta", at: index)
        }
        let opening = image.opening
        var foundLine = ""
        if launched {
            let end = lastEnd ?? .quit
            // The states a crash left, as this launch leaves each once opened (another version's
            // rows wiped), before it counts itself.
            let left = oracle.allowedStates(after: end)
            let states = left.map { $0.opened(by: appVersion) }
            let expectedOpenings = left.map { $0.expectedOpening(under: appVersion) }
            let allowed = states.map { $0.removing(damaged) }
            try checkRotServedNothing(observed, allowed: allowed, index: index)
            // A hidden row verified its own checksum (only its name's fails): it is in the file, so
            // the state found holds it (or the model keeps it aside, hidden since an earlier
            // launch), though it cannot be compared. Two states that differ only in such a row
            // look alike without it (seeds 21704 and 23561 of the default world found the older
            // one, which lacked the row, and the row never came back in the model).
            // The hidden row's stamp, outside its checksum, must be the state's too.
            let dormant = oracle.dormant
            func matches(_ position: Int) -> Bool {
                let state = allowed[position]
                return state.generation + 1 == observed.generation && state.sameRows(as: observed)
                    && Self.agrees(opening, with: expectedOpenings[position], retried: attempts > 1)
                    && hidden.held(by: states[position], keptAside: dormant)
            }
            guard let found = allowed.indices.first(where: matches) else {
                // Against the newest committed state (failed drains' states come after it).
                var closest: [String] = []
                if let position = allowed.indices.last.map({ $0 - oracle.failedDrainStates.count }), position >= 0 {
                    let state = allowed[position]
                    if state.generation + 1 != observed.generation {
                        closest.append("generation: expected \(state.generation + 1) ≠ actual \(observed.generation)")
                    }
                    closest += OracleDifference.images(expected: state, actual: observed)
                    if !Self.agrees(opening, with: expectedOpenings[position], retried: attempts > 1) {
                        closest.append("opening: expected \(Self.describe(expectedOpenings[position])) ≠ actual \(Self.describe(opening))")
                    }
                    closest += hidden.differences(from: states[position], keptAside: dormant)
                }
                let described = allowed.indices.map {
                    "generation \(allowed[$0].generation) with \(allowed[$0].records.count) rows, \(Self.describe(expectedOpenings[$0]))"
                }.joined(separator: "; ")
                throw violation(
                    "relaunch-allowed-state",
                    "after \(end.rawValue) the image (generation \(observed.generation) after the open, \(observed.records.count) rows, \(Self.describe(opening))) is none of the allowed states [\(described)]; against the newest",
                    differences: closest, at: index)
            }
            // States the relaunch cannot tell apart (they differ only in rows it could not read):
            // a hidden row may hold what any of them holds.
            let possible = hidden.isEmpty ? [] : allowed.indices.filter { $0 != found && matches($0) }.map { states[$0] }
            oracle.relaunched(found: found, generation: observed.generation, after: end, appVersion: appVersion, processStarted: true)
            if !oracle.rotted.isEmpty || !damaged.isEmpty { oracle.forgetDamaged(damaged, hidden: hidden.damage, alsoPossible: possible) }
            foundLine = Self.launchLine(observed, found: found, of: allowed.count)
            if !damaged.isEmpty {
                let names = damaged.keys(in: .names).count
                let rows = Self.count(damaged.count - names, "row") + (names > 0 ? " and " + Self.count(names, "name") : "")
                foundLine += "; damaged and left out: " + rows + Self.keyList(damaged.names)
            }
        } else {
            guard observed.records.isEmpty && observed.root.isEmpty && observed.fetches.isEmpty else {
                throw violation("relaunch-allowed-state", "the first launch found rows", at: index)
            }
            guard Self.agrees(opening, with: .created, retried: attempts > 1) else {
                throw violation("relaunch-allowed-state", "the first launch says the file was \(Self.describe(opening))", at: index)
            }
            oracle.firstLaunch(generation: observed.generation, appVersion: appVersion, processStarted: true)
            foundLine = Self.launchLine(observed, found: nil, of: 1)
        }
        if erasesAtOpen { foundLine += erasedAtOpen() }
        if attempts > 1 {
            opensRetried += 1
            foundLine += "; opened at attempt \(attempts), after \(lastError.map { "\($0)" } ?? "a failure")"
        }
        if !disk.hasPendingWrites { oracle.noteSynced() }
        let faultsBeforeHandOver = disk.counters.injectedFaults
        storeWork.time { process.heldOpen.finish(with: image) }
        eraseRepeatedAtOpen(diskFailedSome: disk.counters.injectedFaults != faultsBeforeHandOver)
        guard process.opening.wait() === image else {
            throw violation("image-opens", "the store's image did not take the image that opened", at: index)
        }
        process.openedImage = image
        self.process = process
        lastEnd = nil
        launched = true
        try checkWriterQueue(process, index: index)
        return foundLine
    }

    /// What every new process does first: counts itself, ends a full disk's stretch (it ends with
    /// the process that saw it), and seeds SQLite's generator. That generator (WAL salts) is
    /// process-wide: seeded from the disk's seed and the launch's number (not from anything a
    /// trace line or a timeline could change), a run repeats in any process.
    func startProcess() {
        launches += 1
        lastDrainLog = nil
        erasesInProcess = 0
        if fullDiskEventsLeft > 0 { endFullDisk() }
        SimulatedDisk.seedSQLiteRandomness(UInt32(truncatingIfNeeded: disk.seed &+ UInt64(launches)))
    }

    /// The store's image opened over the simulated disk, as this run's app version, with the
    /// run's writer bound and mutant; its time counted as the store's.
    func openImage() throws -> Image {
        var configuration = ImageConfiguration(
            executor: writerExecutor, limits: WriterLimits(maxQueuedItems: writerBound), checkpointPages: checkpointPages)
        #if BATON_MUTANTS
        configuration.mutant = options.mutant.flatMap(ImageMutant.init(mutant:))
        #endif
        return try storeWork.time {
            try Image.open(path: Self.imagePath, vfs: disk.vfsName, appVersion: appVersion, configuration: configuration)
        }
    }

    /// Attempts a launch makes at most, faults the disk injected included (a full disk fails
    /// every one).
    static let openAttemptLimit = 12

    /// A new process on a locked device (``SimEvent/relaunchLocked``): every open of a file fails
    /// while its image opens (three attempts, as any launch), so production's `OpeningImage`
    /// leaves the store without an image. Nothing may touch the file: every file beside the
    /// image must hold the bytes it held, and the next launch finds a state the last end left.
    func launchLocked(index: Int) throws -> String {
        startProcess()
        beginProcess()
        guard let process else { return "" }
        let before = imageFiles()
        disk.fail(.open, code: SQLITE_CANTOPEN, times: SimulatedDisk.forever)
        var refusal: ImageError?
        for _ in 0..<3 {
            do {
                let image = try openImage()
                disk.fail(.open, code: 0, times: 0)
                storeWork.time { image.abandon() }
                throw violation("image-opens", "the image opened on a locked device, where no file can be opened", at: index)
            } catch let error as ImageError {
                refusal = error
            }
        }
        disk.fail(.open, code: 0, times: 0)
        let changed = Self.changedFiles(before: before, after: imageFiles())
        if !changed.isEmpty {
            throw violation(
                "locked-open-leaves-file", "an open that could open no file changed \(changed.joined(separator: ", "))", at: index)
        }
        guard let refusal else { return "" }
        storeWork.time { process.heldOpen.fail(with: refusal) }
        guard process.opening.wait() == nil, process.opening.pendingKeys().isEmpty else {
            throw violation("image-opens", "the store's image took an image though its open failed: \(refusal)", at: index)
        }
        oracle.openRefused(after: launched ? (lastEnd ?? .quit) : nil)
        if launched { lastEnd = .openCrash }
        imagelessProcesses += 1
        lockedLaunches += 1
        return "the device is locked: the open failed three times (\(refusal)), the store runs without an image, the files as they were"
    }

    /// Every file of the simulated disk with its bytes, by name.
    private func imageFiles() -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in disk.fileNames { files[name] = disk.bytes(of: name) ?? [] }
        return files
    }

    /// The names of the files that appeared, went or changed, in name order.
    nonisolated static func changedFiles(before: [String: [UInt8]], after: [String: [UInt8]]) -> [String] {
        let names = Set(before.keys).union(after.keys)
        return names.filter { before[$0] != after[$0] }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The background open failed on a full disk, as production's may: `OpeningImage` leaves the
    /// store running without an image (its buffered commits dropped, reads missing), and the
    /// file holds what a dying open may have committed (``Oracle/openFailed(after:appVersion:)``).
    private func runWithoutImage(_ process: Process, after error: ImageError, index: Int) throws -> String {
        let buffered = oracle.queue.count
        storeWork.time { process.heldOpen.fail(with: error) }
        guard process.opening.wait() == nil, process.opening.openError == error else {
            throw violation("image-opens", "the store's image took an image though its open failed: \(error)", at: index)
        }
        guard process.opening.pendingKeys().isEmpty else {
            throw violation("image-opens", "the store's image still holds commits for an image that failed to open", at: index)
        }
        oracle.openFailed(after: lastEnd ?? .quit, appVersion: appVersion)
        lastEnd = .openCrash
        imagelessProcesses += 1
        let dropped = buffered > 0 ? "; \(Self.count(buffered, "buffered commit")) dropped" : ""
        return "the open failed on the full disk (\(error)), the store runs without an image\(dropped)"
    }

    /// True when the store's account of the open is the one the model expects of a state.
    ///
    /// After a failed attempt the next may find what the failed one committed (the creation, or
    /// the wipe), and open it as it is.
    nonisolated static func agrees(_ opening: ImageOpening, with expected: OracleOpening, retried: Bool) -> Bool {
        switch (expected, opening) {
        case (.created, .created), (.created, .recreated), (.opened, .opened):
            return true
        case (.wiped(let previous), .wiped(let reported)):
            return previous == reported
        case (.created, .opened), (.wiped, .opened):
            return retried
        default:
            return false
        }
    }

    nonisolated static func describe(_ opening: ImageOpening) -> String {
        switch opening {
        case .created: "created"
        case .opened: "opened as it was"
        case .recreated(let reason): "started again (\(reason))"
        case .wiped(let previous): "wiped as \(previous)'s"
        case .foreign: "left alone as another app's"
        }
    }

    nonisolated static func describe(_ expected: OracleOpening) -> String {
        switch expected {
        case .created: "to be created"
        case .opened: "to open as it was"
        case .wiped(let previous): "to be wiped as \(previous)'s"
        }
    }
}
