import Baton
import CSQLite

extension Simulation {
    /// Runs one event, then checks every invariant whose inputs the event touched.
    ///
    /// `execution` is the server's answer with its provenance when the event was just generated
    /// (a replay has the response's text only, which the model reads on its own).
    func execute(_ scheduled: ScheduledEvent, index: Int, execution: Execution?) throws {
        let event = scheduled.event
        var launched = ""
        if heldDrain != nil, !event.runsWhileDrainInFlight {
            // The event waits for the image's lock: the drain in flight finishes first.
            launched = try finishHeldDrain(before: event, index: index)
        }
        if process == nil, !event.endsProcess, !event.launches, !event.armsDisk {
            launched += try launch(before: event, index: index)
        } else if let process, process.opensLater, !event.runsBeforeTheOpen {
            launched += try finishOpen(before: event, index: index)
        }
        let storeBefore = process?.store
        var visibleBefore = storeBefore.map { observers.watch($0) }
        let reachBefore = process != nil && event.mayStrandRecords ? oracle.reachFromRoots() : nil
        let outcome: String
        do {
            let performed = try perform(event, index: index, execution: execution)
            if let store = process?.store, store.collectionScheduled, store === storeBefore, let before = visibleBefore {
                // Automatic collection runs in a turn of its own, after the event's: the views
                // may draw between the two, so each turn's notifications are checked apart.
                statesChecked += 1
                if let problem = observers.verify(store, before: before) {
                    throw violation("observers-notify-exactly", problem, at: index)
                }
                visibleBefore = observers.watch(store)
            }
            outcome = try performed + endTurn(reachBefore: reachBefore, index: index)
        } catch {
            // The failing event is on the trace and the timeline too, with the state it left.
            let failure = error as? InvariantViolation ?? violation("unexpected-error", "\(error)", at: index)
            note("#\(index) \(event.summary) → FAILED \(failure.invariant)")
            recordTimeline(event, index: index, outcome: "FAILED \(failure.invariant)")
            throw failure
        }
        let ending = endOfEvent(event)
        note("#\(index) \(event.summary) → \(launched)\(outcome)\(ending)")
        recordTimeline(event, index: index, outcome: launched + outcome + ending)
        if let process {
            try checkMemory(process, index: index)
            if process.store === storeBefore, let visibleBefore {
                statesChecked += 1
                if let problem = observers.verify(process.store, before: visibleBefore) {
                    throw violation("observers-notify-exactly", problem, at: index)
                }
            }
        }
        if process?.store !== storeBefore {
            observers = ObserverAudit()
            // An erase committed and never searched (the disk failed its drain's checkpoint, then
            // the process ended): a power loss may have taken the erase back.
            if eraseCommitted {
                eraseCommitted = false
                erasedTexts = []
                textsWrittenSinceErase = []
            }
        }
        if let expect = scheduled.expect {
            try checkExpectation(expect, index: index)
        }
    }

    private func perform(_ event: SimEvent, index: Int, execution: Execution?) throws -> String {
        switch event {
        case .response(let operation, let variables, let body):
            return try serverCommit(operation, variables, body, answering: nil, execution: execution, index: index)
        case .answer(let layer, let operation, let variables, let body):
            return try serverCommit(operation, variables, body, answering: layer, execution: execution, index: index)
        case .optimistic(let layer, let operation, let variables, let body):
            guard var process, process.layers[layer] == nil else { return "skipped: layer in use" }
            guard let changeSet = try ingest(operation, variables, body, index: index) else { return "skipped: unknown operation" }
            let response = try modelResponse(operation, variables, body, execution: execution, index: index)
            process.layers[layer] = storeWork.time { process.store.commitOptimistic(changeSet) }
            self.process = process
            oracle.optimistic(layer: layer, response, operation: operation, variables: variables)
            return "layer over \(Self.count(changeSet.records.count, "record"))" + Self.keyList(changeSet.records.map { OracleText($0.key.rawValue) }.sorted())
        case .fail(let layer):
            guard var process, let id = process.layers.removeValue(forKey: layer) else { return "skipped: no such layer" }
            storeWork.time { process.store.revert(id) }
            self.process = process
            oracle.revert(layer: layer)
            return "reverted"
        case .retain(let token, let operation, let variables):
            guard var process, process.tokens[token] == nil, let plan = plans.plan(operation) else { return "skipped" }
            let resolved = try resolve(plan, operation, variables, index: index)
            process.tokens[token] = storeWork.time { process.store.retain(plan, variables: resolved) }
            self.process = process
            oracle.retain(token: token, operation: operation, variables: variables)
            return "retained"
        case .release(let token):
            guard var process, let retained = process.tokens.removeValue(forKey: token) else { return "skipped: not retained" }
            storeWork.time { process.store.release(retained) }
            self.process = process
            oracle.release(token: token)
            return "released"
        case .check(let operation, let variables, let expiration):
            return try check(operation, variables, expiration: expiration, index: index)
        case .collect:
            return try collect(index: index)
        case .drain:
            return try drain(index: index)
        case .drainBegins:
            return try beginHeldDrain(index: index)
        case .drainEnds:
            return try finishHeldDrain(index: index)
        case .drainPartway(let steps):
            guard let process else { return "skipped" }
            guard !process.imageless else { return endWithoutImage("killed") }
            let result = storeWork.time { process.image.writer.drain(stoppingAfter: steps) }
            disk.kill()
            storeWork.time { process.image.abandon() }
            self.process = nil
            lastEnd = .kill
            crashes.drainPartway += 1
            return "stopped after \(steps) writes (\(result)), process killed"
        case .advanceClock(let seconds):
            clock.advance(seconds)
            disk.setTime(milliseconds: Int64(clock.now() * 1000))
            return "now \(clock.now())"
        case .invalidate:
            guard let process else { return "skipped" }
            storeWork.time { process.store.invalidate() }
            oracle.invalidate()
            return "invalidated"
        case .erase:
            return try erase(index: index)
        case .quit:
            return try quit(index: index)
        case .kill:
            guard let process else { return "skipped: no process" }
            guard process.openedImage != nil else { return endWithoutImage("killed") }
            disk.kill()
            storeWork.time { process.image.abandon() }
            self.process = nil
            lastEnd = .kill
            crashes.kill += 1
            return "killed"
        case .powerLoss(let seed):
            guard let process else { return powerLossWhileClosed(seed: seed) }
            guard process.openedImage != nil else { return endWithoutImage("power lost; " + powerLossWhileClosed(seed: seed)) }
            disk.powerLoss(seed: seed)
            storeWork.time { process.image.abandon() }
            self.process = nil
            lastEnd = .powerLoss
            crashes.powerLoss += 1
            return "power lost"
        case .relaunch:
            if process != nil { _ = try quit(index: index) }
            let found = try launch(index: index)
            return "launched generation \(process?.image.generation ?? -1), \(found)"
        case .relaunchLocked:
            if process != nil { _ = try quit(index: index) }
            return try launchLocked(index: index)
        case .relaunchOpeningLater(let build):
            if process != nil { _ = try quit(index: index) }
            let line = try prepare(build, index: index)
            launchOpeningLater()
            return line + (build == .appUpgrade ? "\(appVersion)'s store is up" : "the store is up") + ", the image opening in the background"
        case .upgrade:
            if process != nil { _ = try quit(index: index) }
            appVersionNumber += 1
            let found = try launch(index: index)
            return "launched \(appVersion), generation \(process?.image.generation ?? -1), \(found)"
        case .quitCrash(let operations, let seed):
            return try quitCrash(operations: operations, powerLossSeed: seed, index: index)
        case .openCrash(let operations, let seed, let build):
            return try openCrash(operations: operations, powerLossSeed: seed, build: build, index: index)
        case .formatUpgrade:
            if process != nil { _ = try quit(index: index) }
            let made = try makePreviousFormat(index: index)
            let found = try launch(index: index)
            return "\(made); launched generation \(process?.image.generation ?? -1), \(found)"
        case .corruptFile(let seed):
            if let process {
                if process.openedImage == nil {
                    process.heldOpen.abandon()
                } else {
                    disk.kill()
                    storeWork.time { process.image.abandon() }
                }
                self.process = nil
            }
            var random = SimRandom(seed: seed)
            let size = max(disk.bytes(of: Self.imagePath)?.count ?? 0, 4096)
            // The whole image is replaced (a bad restore, another program): garbage where the file
            // was, and no WAL beside it (nor the copy of one an open that died left), so nothing
            // of the old image can be read.
            disk.overwrite(Self.imagePath, bytes: (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            _ = disk.delete(Self.imagePath + "-wal")
            _ = disk.delete(Self.imagePath + CheckpointCopy.suffix)
            _ = disk.delete(Self.imagePath + "-shm")
            disk.flushAll()
            lastEnd = .corruption
            crashes.corruptions += 1
            return "\(size) bytes of garbage"
        case .fault(let on, let code, let skip):
            crashes.faults += 1
            return armFault(on: on, code: code, skip: skip ?? 0)
        case .readFault(let code, let skip):
            crashes.faults += 1
            return armReadFault(code: code, skip: skip)
        case .diskFull(let events):
            return startFullDisk(events: events)
        case .bitRot(let seed, let afterQuit):
            return try rot(seed: seed, afterQuit: afterQuit, index: index)
        }
    }

    // MARK: - Commits

    /// How the store and the model read a response with no provenance.
    private enum ReadAlone {
        /// Both read it.
        case read(ChangeSet, ModelResponse)
        /// Both refused it, for the trace: the store's reason.
        case refused(String)
        /// The world has no such operation.
        case unknownOperation
    }

    /// A response with no provenance (garbled on its way, or written in a replay file): the store
    /// and the model read it on their own, once each, and must agree whether it can be read. One
    /// both refuse changes nothing (the checks after the event hold the store to that).
    private func readAlone(_ operation: String, _ variables: [String: JSONValue], _ body: ResponseBody, index: Int) throws -> ReadAlone {
        guard let plan = plans.plan(operation) else { return .unknownOperation }
        let resolved = try resolve(plan, operation, variables, index: index)
        let store: Result<ChangeSet, any Error>
        do {
            store = .success(try storeRead(plan, resolved, body))
        } catch {
            store = .failure(error)
        }
        let model: Result<ModelResponse, any Error>
        do {
            model = .success(try oracle.normalize(text: body.bytes, operation: operation, variables: variables))
        } catch {
            model = .failure(error)
        }
        switch (store, model) {
        case (.success(let changeSet), .success(let response)):
            return .read(changeSet, response)
        case (.failure(let store), .success):
            throw violation("ingest-accepts-server-response", "the store refuses a response to \(operation) that the model reads: \(store)", at: index)
        case (.success, .failure(let model)):
            throw violation("ingest-refuses-bad-response", "the store reads a response to \(operation) that the model refuses: \(model)", at: index)
        case (.failure(let store), .failure):
            refusedResponses += 1
            return .refused("refused: \(store)")
        }
    }

    private func ingest(_ operation: String, _ variables: [String: JSONValue], _ body: ResponseBody, index: Int) throws -> ChangeSet? {
        guard let plan = plans.plan(operation) else { return nil }
        let resolved = try resolve(plan, operation, variables, index: index)
        do {
            return try storeRead(plan, resolved, body)
        } catch {
            throw violation("ingest-accepts-server-response", "\(operation): \(error)", at: index)
        }
    }

    /// The store's ingest of `body`, timed as the store's own work.
    private func storeRead(_ plan: Plan, _ variables: Variables, _ body: ResponseBody) throws -> ChangeSet {
        try storeWork.time { try Ingest.normalize(plan: plan, variables: variables, response: body.bytes, mutant: options.mutant) }
    }

    /// What the model learns from a response: the server's provenance when the run has it (and
    /// then the model's own reading of the text must agree with it), else the model's own reading
    /// of the text.
    private func modelResponse(
        _ operation: String, _ variables: [String: JSONValue], _ body: ResponseBody, execution: Execution?, index: Int
    ) throws -> ModelResponse {
        let fromText: ModelResponse
        do {
            fromText = try oracle.normalize(text: body.bytes, operation: operation, variables: variables)
        } catch {
            throw violation("oracle-reads-response", "the model cannot read the response to \(operation): \(error)", at: index)
        }
        guard let execution, let syntax = world.operation(named: operation) else { return fromText }
        let fromProvenance: ModelResponse
        do {
            fromProvenance = try ModelResponse.from(execution, operation: syntax, schema: world.schema, catalog: oracle.fieldCatalog)
        } catch {
            throw violation("oracle-self-consistent", "the model cannot read the server's provenance for \(operation): \(error)", at: index)
        }
        guard fromProvenance == fromText else {
            throw violation(
                "oracle-self-consistent",
                "the server's provenance and the model's reading of the response text differ for \(operation): " + fromProvenance.difference(from: fromText),
                at: index)
        }
        return fromProvenance
    }

    private func serverCommit(
        _ operation: String, _ variables: [String: JSONValue], _ body: ResponseBody, answering layer: Int?, execution: Execution?, index: Int
    ) throws -> String {
        guard var process else { return "skipped" }
        let changeSet: ChangeSet
        let response: ModelResponse
        if execution == nil {
            switch try readAlone(operation, variables, body, index: index) {
            case .read(let read, let model): (changeSet, response) = (read, model)
            case .refused(let line): return line
            case .unknownOperation: return "skipped: unknown operation"
            }
        } else {
            guard let read = try ingest(operation, variables, body, index: index) else { return "skipped: unknown operation" }
            changeSet = read
            response = try modelResponse(operation, variables, body, execution: execution, index: index)
        }
        let id = layer.flatMap { process.layers.removeValue(forKey: $0) }
        let notJoined = storeWork.time { process.store.commit(changeSet, answering: id) }
        self.process = process
        let effect = oracle.serverCommit(response, operation: operation, variables: variables, now: clock.now(), answering: id == nil ? nil : layer)
        let reported = notJoined.map { OracleText($0.connectionRecord.rawValue) }
        guard reported == effect.pagesNotJoined else {
            throw violation(
                "commit-reports-unjoined-pages",
                "the store answers \(Self.count(reported.count, "page")) that joined no connection\(Self.keyList(reported)); the model has \(Self.count(effect.pagesNotJoined.count, "page"))\(Self.keyList(effect.pagesNotJoined))",
                at: index)
        }
        try checkWriterQueue(process, index: index)
        return Self.commitLine(changeSet, changed: effect.changed)
    }

    // MARK: - The writer

    /// The writer's drain, checked against the model. Without `readsImageAfter` (a crash point
    /// may have left the image unreadable) the image's rows are not read back afterwards.
    func drain(index: Int, readsImageAfter: Bool = true) throws -> String {
        guard let process else { return "skipped" }
        guard !process.imageless else { return "skipped: no image" }
        let start = DrainStart(oracle, faults: disk.counters.injectedFaults)
        let result = storeWork.time { process.image.writer.drain() }
        return try checkDrain(result, start: start, process: process, readsImageAfter: readsImageAfter, index: index)
    }

    /// A drain's result, checked against the model as it stood when the drain began (`start`).
    func checkDrain(_ result: DrainResult, start: DrainStart, process: Process, readsImageAfter: Bool, index: Int) throws -> String {
        let (queue, touches, imageBefore, evicts, erasing) = (start.queue, start.touches, start.image, start.evicts, start.erasing)
        let queued = queue.flatMap { $0.snapshots.map(\.key) }
        let diskFailedSome = !readsImageAfter || disk.counters.injectedFaults != start.faults
        if erasesInProcess == 0, readsImageAfter, process.image.writer.owesEraseCheckpoint {
            throw violation(
                "writer-owes-only-erases",
                "after a drain that \(String(describing: result).prefix { $0 != "(" }) the writer owes an erase's checkpoint, though no erase reached this process's image: production's executor would retry drains with a backoff for nothing",
                at: index)
        }
        switch result {
        case .nothingToDo, .committed: oracle.eraseMarkAfterDrain(finished: true, diskFailedSome: diskFailedSome)
        default: break
        }
        switch result {
        case .nothingToDo:
            if oracle.hasWriterWork {
                throw violation("writer-keeps-work", "the writer had nothing to do while the model holds work for it (\(queued.count) rows queued)", at: index)
            }
            return "nothing to do"
        case .committed(let summary):
            if !oracle.hasWriterWork {
                throw violation("writer-accounted", "the writer committed a drain the model has no work for", at: index)
            }
            let checkpointed = checkpointLine(summary.checkpoint)
            // After a crash point the disk's pending writes tell nothing of this commit (a power
            // loss there resolved them all): it is not counted durable.
            oracle.drainCommitted(synced: readsImageAfter && !disk.hasPendingWrites)
            guard readsImageAfter else {
                lastDrainLog = nil
                return "committed" + checkpointed
            }
            try checkImage(process.image, index: index)
            try checkWALLength(clean: !diskFailedSome, index: index)
            if erasing { eraseCommitted = true }
            let erased = try checkErasedBytes(faultsDuringDrain: diskFailedSome, index: index)
            let revived = revivedByLastDrain > 0 ? "; a damaged name written again brought back \(Self.count(revivedByLastDrain, "row"))" : ""
            return drainLine(queue: queue, touches: touches, before: imageBefore, evicts: evicts) + erased + revived + checkpointed
        default:
            lastDrainLog = nil
            oracle.drainFailed(diskFull: fullDiskEventsLeft > 0)
            if readsImageAfter { try checkImage(process.image, index: index, expectUnchanged: true) }
            return "\(result)"
        }
    }

    /// The trace's words for the checkpoint after a commit, counted for the coverage.
    private func checkpointLine(_ checkpoint: DrainCheckpoint) -> String {
        switch checkpoint {
        case .none: return ""
        case .plain:
            processCheckpoints += 1
            return "; checkpointed"
        case .guarded:
            processCheckpoints += 1
            guardedCheckpoints += 1
            return "; checkpointed behind a copy of the WAL"
        case .failed:
            processCheckpoints += 1
            return "; the checkpoint failed"
        }
    }

    func quit(index: Int) throws -> String {
        guard let process else { return "skipped: no process" }
        if process.imageless {
            crashes.quit += 1
            return endWithoutImage("quit")
        }
        let outcome = try lastDrain(index: index)
        closeAfterQuit()
        return "quit (\(outcome))"
    }

    /// A quit's last drain (retried twice after a failure, as the writer would), checked.
    func lastDrain(index: Int) throws -> String {
        var outcome = ""
        for _ in 0..<3 {
            outcome = try drain(index: index)
            if outcome.hasPrefix("committed") || outcome == "nothing to do" { break }
        }
        return outcome
    }

    /// A quit's end, after its last drain: the image closes (SQLite checkpoints the WAL).
    func closeAfterQuit() {
        guard let process else { return }
        storeWork.time { process.image.close() }
        // The close drains once more when the last drain failed, and may finish an erase.
        oracle.eraseMarkMayHaveGone()
        if !disk.hasPendingWrites { oracle.noteSynced() }
        self.process = nil
        lastEnd = .quit
        crashes.quit += 1
    }
}

extension Simulation {
    /// The running process ends without an image: before its background open ran (its
    /// buffered commits gone with it), or after that open failed. Either way it never touched
    /// the file after what its open did, so the next launch finds what the last open left
    /// (``lastEnd`` stays).
    func endWithoutImage(_ line: String) -> String {
        guard let process else { return line }
        self.process = nil
        if process.imageless { return line + " (the store had no image)" }
        process.heldOpen.abandon()
        deathsBeforeTheOpen += 1
        return line + " before the image opened"
    }

    /// The power goes while no process runs: what the OS still held (the directory changes of the
    /// last close, writes of a killed process) may be lost. After garbage was written (durable at
    /// once) the image stays garbage; otherwise the next launch may find any state from the last
    /// one known durable on.
    func powerLossWhileClosed(seed: UInt64) -> String {
        let lostBefore = disk.counters.entriesLost
        disk.powerLoss(seed: seed)
        if lastEnd == .openCrash {
            oracle.powerLostAfterOpenCrash()
        } else if lastEnd != .corruption {
            lastEnd = .powerLoss
        }
        crashes.powerLoss += 1
        let lost = disk.counters.entriesLost - lostBefore
        return "power lost while closed" + (lost > 0 ? " (\(lost) directory \(lost == 1 ? "entry" : "entries") lost)" : "")
    }
}
