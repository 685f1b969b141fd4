import Baton
import CSQLite

extension Simulation {
    /// Runs one event, then checks every invariant that applies.
    func execute(_ scheduled: ScheduledEvent, index: Int) throws {
        let event = scheduled.event
        if process == nil, !event.endsProcess, event != .relaunch {
            try launch(index: index)
        }
        let outcome = try perform(event, index: index)
        note("#\(index) \(event.summary) → \(outcome)")
        if let process {
            absorbLog(process)
            try checkMemory(process, index: index)
        }
        if let expect = scheduled.expect {
            try checkExpectation(expect, index: index)
        }
    }

    private func perform(_ event: SimEvent, index: Int) throws -> String {
        switch event {
        case .response(let operation, let variables, let body):
            return try serverCommit(operation, variables, body, answering: nil, index: index)
        case .answer(let layer, let operation, let variables, let body):
            return try serverCommit(operation, variables, body, answering: layer, index: index)
        case .optimistic(let layer, let operation, let variables, let body):
            guard var process, process.layers[layer] == nil else { return "skipped: layer in use" }
            guard let changeSet = try ingest(operation, variables, body, index: index) else { return "skipped: unknown operation" }
            process.layers[layer] = process.store.commitOptimistic(changeSet)
            self.process = process
            model.addLayer(layer, changeSet)
            return "layer over \(changeSet.records.count) records"
        case .fail(let layer):
            guard var process, let id = process.layers.removeValue(forKey: layer) else { return "skipped: no such layer" }
            process.store.revert(id)
            self.process = process
            model.removeLayer(layer)
            return "reverted"
        case .retain(let token, let operation, let variables):
            guard var process, process.tokens[token] == nil, let plan = plans.plan(operation) else { return "skipped" }
            process.tokens[token] = (process.store.retain(plan, variables: try plan.variables(variables)), operation, variables)
            self.process = process
            return "retained"
        case .release(let token):
            guard var process, let retained = process.tokens.removeValue(forKey: token) else { return "skipped: not retained" }
            process.store.release(retained.token)
            self.process = process
            return "released"
        case .check(let operation, let variables, let expiration):
            return try check(operation, variables, expiration: expiration, index: index)
        case .collect:
            guard let process else { return "skipped" }
            let retained = retainedInMemory(process)
            let result = process.store.collect()
            for key in retained.sorted() where process.store.data(of: key) == nil {
                throw violation("collection-keeps-retained", "collection swept \(key), which a retained operation reaches", at: index)
            }
            statesChecked += 1
            return "kept \(result.kept), swept \(result.swept) records and \(result.sweptRootFields) root fields"
        case .drain:
            return try drain(index: index)
        case .drainPartway(let steps):
            guard let process else { return "skipped" }
            absorbLog(process)
            let result = process.image.writer.drain(stoppingAfter: steps)
            disk.kill()
            process.image.abandon()
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
            process.store.invalidate()
            model.invalidate()
            return "invalidated"
        case .quit:
            return try quit(index: index)
        case .kill:
            guard let process else { return "skipped: no process" }
            disk.kill()
            process.image.abandon()
            self.process = nil
            lastEnd = .kill
            crashes.kill += 1
            return "killed"
        case .powerLoss(let seed):
            guard let process else { return "skipped: no process" }
            disk.powerLoss(seed: seed)
            process.image.abandon()
            self.process = nil
            lastEnd = .powerLoss
            crashes.powerLoss += 1
            return "power lost"
        case .relaunch:
            if process != nil { _ = try quit(index: index) }
            try launch(index: index)
            return "launched generation \(process?.image.generation ?? -1)"
        case .corruptFile(let seed):
            if let process {
                disk.kill()
                process.image.abandon()
                self.process = nil
            }
            var random = SimRandom(seed: seed)
            let size = max(disk.bytes(of: Self.imagePath)?.count ?? 0, 4096)
            // The whole image is replaced (a bad restore, another program): garbage where the file
            // was, and no WAL beside it, so nothing of the old image can be read.
            disk.overwrite(Self.imagePath, bytes: (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            _ = disk.delete(Self.imagePath + "-wal")
            _ = disk.delete(Self.imagePath + "-shm")
            disk.flushAll()
            lastEnd = .corruption
            crashes.corruptions += 1
            return "\(size) bytes of garbage"
        case .fault(let on, let code):
            // SQLITE_IOERR_FSYNC and SQLITE_IOERR_WRITE are macros Swift cannot import: IOERR | (4 << 8), IOERR | (3 << 8).
            // SQLITE_IOERR_READ likewise: IOERR | (1 << 8).
            switch on {
            case "read":
                // A read fault targets the next check's reads (hydration), not the oracle's own
                // look at the file: it is armed when that check starts.
                readFaultForNextCheck = code == "full" ? SQLITE_FULL : SQLITE_IOERR | (1 << 8)
            case "sync": disk.failNextSync(code: code == "full" ? SQLITE_FULL : SQLITE_IOERR | (4 << 8))
            default: disk.failNextWrite(code: code == "full" ? SQLITE_FULL : SQLITE_IOERR | (3 << 8))
            }
            crashes.faults += 1
            return "armed"
        }
    }

    private func ingest(_ operation: String, _ variables: [String: JSONValue], _ body: JSONValue, index: Int) throws -> ChangeSet? {
        guard let plan = plans.plan(operation) else { return nil }
        let bytes = Array(CanonicalJSON.render(body).utf8)
        do {
            return try Ingest.normalize(plan: plan, variables: plan.variables(variables), response: bytes)
        } catch {
            throw violation("ingest-accepts-server-response", "\(operation): \(error)", at: index)
        }
    }

    private func serverCommit(_ operation: String, _ variables: [String: JSONValue], _ body: JSONValue, answering layer: Int?, index: Int) throws -> String {
        guard var process else { return "skipped" }
        guard let changeSet = try ingest(operation, variables, body, index: index) else { return "skipped: unknown operation" }
        let id = layer.flatMap { process.layers.removeValue(forKey: $0) }
        let held = heldConnections(changeSet, in: process.store)
        process.store.commit(changeSet, answering: id)
        self.process = process
        if let layer, id != nil { model.removeLayer(layer) }
        model.serverCommit(changeSet, now: clock.now(), heldConnections: held)
        return "\(changeSet.records.count) records, \(changeSet.deletions.count) deletions, \(changeSet.connectionPages.count) pages"
    }

    /// Every record in memory that a retained (not released) operation reaches.
    private func retainedInMemory(_ process: Process) -> Set<RecordKey> {
        var keys = Set<RecordKey>()
        let store = process.store
        for token in process.tokens.keys.sorted() {
            guard let retained = process.tokens[token], let plan = plans.plan(retained.operation),
                  let variables = try? plan.variables(retained.variables) else { continue }
            let reader = ModelReader(variables: variables) { key in
                store.data(of: key).map(ModelRecord.init)
            }
            keys.formUnion(reader.reachable(plan))
        }
        return keys
    }

    /// The connections of a change set's pages that memory holds (with their page info): only
    /// those can match a cursor.
    private func heldConnections(_ changeSet: ChangeSet, in store: Store) -> Set<RecordKey> {
        var held = Set<RecordKey>()
        for page in changeSet.connectionPages {
            guard let connection = store.baseData(of: page.connectionRecord), !connection.deleted else { continue }
            if case .link(let info)? = connection.cells[SlotID.named("pageInfo")]?.value, store.baseData(of: info) != nil {
                held.insert(page.connectionRecord)
            }
        }
        return held
    }

    /// Moves what the store handed the writer and what the check read into the model.
    func absorbLog(_ process: Process) {
        let log = process.recorder.takeLog()
        for batch in log.batches { model.handedToWriter(batch) }
        model.noteTouches(log.touches)
    }

    private func drain(index: Int) throws -> String {
        guard let process else { return "skipped" }
        absorbLog(process)
        let result = process.image.writer.drain()
        switch result {
        case .nothingToDo:
            if model.hasPendingWork {
                throw violation("writer-keeps-work", "the writer had nothing to do while the model holds work for it", at: index)
            }
            model.writerIdle()
            return "nothing to do"
        case .committed:
            if let problem = model.writerCommitted(synced: !disk.hasPendingWrites) {
                throw violation("writer-accounted", problem, at: index)
            }
            try checkImage(process.image, index: index)
            return "committed"
        default:
            try checkImage(process.image, index: index, expectUnchanged: true)
            return "\(result)"
        }
    }

    private func quit(index: Int) throws -> String {
        guard let process else { return "skipped: no process" }
        var outcome = ""
        for _ in 0..<3 {
            outcome = try drain(index: index)
            if outcome == "committed" || outcome == "nothing to do" { break }
        }
        process.image.close()
        if !disk.hasPendingWrites { model.noteSynced() }
        self.process = nil
        lastEnd = .quit
        crashes.quit += 1
        return "quit (\(outcome))"
    }

    // MARK: - Launch

    func launch(index: Int) throws {
        // SQLite's own generator (WAL salts) is process-wide: seed it so a run repeats in any process.
        SimulatedDisk.seedSQLiteRandomness(UInt32(truncatingIfNeeded: disk.seed &+ UInt64(trace.count)))
        var image: Image?
        var lastError = ""
        for _ in 0..<3 {
            do {
                var configuration = ImageConfiguration(executor: ManualWriterExecutor())
                #if BATON_MUTANTS
                configuration.mutant = options.mutant.flatMap(ImageMutant.init(mutant:))
                #endif
                image = try Image.open(path: Self.imagePath, vfs: disk.vfsName, appVersion: Self.appVersion, configuration: configuration)
                break
            } catch {
                lastError = "\(error)"
            }
        }
        guard let image else {
            throw violation("image-opens", "the image did not open three times in a row: \(lastError)", at: index)
        }
        let integrity = image.integrityCheck()
        statesChecked += 1
        guard integrity == "ok" else {
            throw violation("integrity-check", integrity, at: index)
        }
        let observed = try observe(image, index: index)
        if launched {
            let end = lastEnd ?? .quit
            let allowed = model.allowedStates(after: end)
            guard let found = allowed.first(where: { $0.generation + 1 == observed.generation && $0.difference(from: observed, ignoringGeneration: true) == nil }) else {
                let closest = allowed.last.map { state in
                    state.difference(from: observed, ignoringGeneration: true) ?? "same rows, generation \(state.generation) + 1 ≠ \(observed.generation)"
                } ?? "none"
                let described = allowed.map { "generation \($0.generation) with \($0.records.count) rows" }.joined(separator: "; ")
                throw violation("relaunch-allowed-state", "after \(end.rawValue) the image (generation \(observed.generation) after the open, \(observed.records.count) rows) is none of the allowed states [\(described)]; against the newest: \(closest)", at: index)
            }
            model.relaunched(found: found, generation: observed.generation, crash: end)
        } else {
            guard observed.records.isEmpty && observed.root.isEmpty && observed.fetches.isEmpty else {
                throw violation("relaunch-allowed-state", "the first launch found rows", at: index)
            }
            model.firstLaunch(generation: observed.generation)
        }
        if !disk.hasPendingWrites { model.noteSynced() }
        let recorder = RecordingImage(image)
        let store = Store(image: recorder, clock: clock, configuration: .init(collectsAutomatically: false, mutant: options.mutant))
        process = Process(store: store, image: image, recorder: recorder)
        lastEnd = nil
        launched = true
    }

    /// The image as SQL shows it, decoded row by row.
    func observe(_ image: Image, index: Int) throws -> ImageState {
        var state = ImageState(generation: image.generation)
        for row in image.dumpRecords() {
            guard let record = row.record else {
                throw violation("image-rows-decode", "row \(row.key) does not decode", at: index)
            }
            state.records[row.key] = ModelRow(record: ModelRecord(record), used: row.used)
        }
        for row in image.dumpRootFields() {
            guard let cell = row.cell else {
                throw violation("image-rows-decode", "root field \(row.field) does not decode", at: index)
            }
            state.root[row.field] = ModelRootRow(cell: cell, used: row.used)
        }
        for row in image.dumpFetches() {
            state.fetches[row.operation] = ModelFetchRow(time: row.time, used: row.used)
        }
        return state
    }
}
