import Baton

/// The simulator's oracle: what a correct store and image would hold, written out plainly.
///
/// `logical` is the server data a correct store knows (every server commit merged in, deletions
/// applied); `image` is what the file must hold after the last writer commit. At a writer commit
/// each row the writer touched becomes the logical record, stamped with the launch; the first
/// write of a launch drops what went unused for a whole launch. Every committed image state since
/// the last one known to be durable is kept, so a relaunch can be checked against them.
package struct ReferenceModel: Sendable {
    package struct Fetch: Hashable, Sendable {
        package var time: Double
        package var epoch: Int
    }

    package struct Layer: Sendable {
        package var id: Int
        package var changeSet: ChangeSet
    }

    /// What reads of the image stamped, waiting for the next writer commit.
    package struct Touches: Hashable, Sendable {
        package var records = Set<RecordKey>()
        package var rootFields = Set<String>()
        package var fetches = Set<OperationIdentity>()

        package var isEmpty: Bool { records.isEmpty && rootFields.isEmpty && fetches.isEmpty }
    }

    package private(set) var logical = ModelDatabase()
    package private(set) var layers: [Layer] = []
    package private(set) var fetches: [OperationIdentity: Fetch] = [:]
    private var epoch = 0
    private var invalidatedEpoch = -1

    /// The image after the last writer commit.
    package private(set) var image = ImageState(generation: 0)
    /// Committed image states, oldest first; `states[durable]` is the newest known to be durable.
    package private(set) var states: [ImageState] = []
    package private(set) var durable = 0
    /// Batches handed to the writer and not yet committed, in order.
    package private(set) var pendingBatches: [WriteBatch] = []
    package private(set) var pendingTouches = Touches()
    private var wroteThisLaunch = false

    package init() {}

    // MARK: - The store's side

    /// A server commit: merges the change set and stamps the operation's fetch time.
    package mutating func serverCommit(_ changeSet: ChangeSet, now: Double, heldConnections: Set<RecordKey>? = nil) {
        logical.apply(changeSet, heldConnections: heldConnections)
        epoch += 1
        if let operation = changeSet.operation, !changeSet.records.isEmpty {
            fetches[operation] = Fetch(time: now, epoch: epoch)
        }
    }

    package mutating func addLayer(_ id: Int, _ changeSet: ChangeSet) {
        layers.append(Layer(id: id, changeSet: changeSet))
    }

    package mutating func removeLayer(_ id: Int) {
        layers.removeAll { $0.id == id }
    }

    package mutating func invalidate() {
        invalidatedEpoch = epoch
    }

    /// The records as the UI should see them: the live layers applied over the logical data.
    package func visible() -> ModelDatabase {
        guard !layers.isEmpty else { return logical }
        var view = logical
        for layer in layers { view.apply(layer.changeSet) }
        return view
    }

    /// The freshness the check must answer for `operation`.
    package func expectedFreshness(_ operation: OperationIdentity, expiration: Double?, now: Double) -> Availability.Freshness {
        guard let fetch = fetches[operation] else {
            return expiration == nil && invalidatedEpoch < 0 ? .fresh : .stale
        }
        if fetch.epoch <= invalidatedEpoch { return .stale }
        if let expiration, now - fetch.time >= expiration { return .stale }
        return .fresh
    }

    // MARK: - The writer's side

    package mutating func handedToWriter(_ batch: WriteBatch) {
        pendingBatches.append(batch)
    }

    package mutating func noteTouches(_ touches: Touches) {
        pendingTouches.records.formUnion(touches.records)
        pendingTouches.rootFields.formUnion(touches.rootFields)
        pendingTouches.fetches.formUnion(touches.fetches)
    }

    /// True when the next drain has anything to write: batches, or stamps that would change a
    /// row (a row already stamped with this launch needs none).
    package var hasPendingWork: Bool {
        if !pendingBatches.isEmpty { return true }
        let generation = image.generation
        return pendingTouches.records.contains { image.records[$0].map { $0.used != generation } ?? false }
            || pendingTouches.rootFields.contains { image.root[$0].map { $0.used != generation } ?? false }
            || pendingTouches.fetches.contains { image.fetches[$0].map { $0.used != generation } ?? false }
    }

    /// The writer found nothing to do: stamps that change nothing are done with.
    package mutating func writerIdle() {
        pendingTouches = Touches()
    }

    /// The writer committed everything pending: the image becomes the logical data for every
    /// row it wrote, stamped with this launch. Returns a problem when the writer wrote something
    /// the model cannot account for.
    package mutating func writerCommitted(synced: Bool) -> String? {
        var next = image
        let generation = image.generation
        var problem: String?
        if !wroteThisLaunch {
            next.records = next.records.filter { $0.value.used >= generation - 1 }
            next.root = next.root.filter { $0.value.used >= generation - 1 }
            next.fetches = next.fetches.filter { $0.value.used >= generation - 1 }
            wroteThisLaunch = true
        }
        for batch in pendingBatches {
            for snapshot in batch.snapshots {
                guard let record = logical.records[snapshot.key] else {
                    problem = problem ?? "the writer wrote \(snapshot.key), which no server commit made"
                    continue
                }
                next.records[snapshot.key] = ModelRow(record: record.deleted ? ModelRecord(typename: record.typename, deleted: true) : record, used: generation)
            }
            for field in batch.rootFields {
                guard let cell = logical.records[.queryRoot]?.cells[field.storageKey] else {
                    problem = problem ?? "the writer wrote root field \(field.storageKey), which no server commit made"
                    continue
                }
                next.root[field.storageKey] = ModelRootRow(cell: cell, used: generation)
            }
            for stamp in batch.fetches {
                guard let fetch = fetches[stamp.operation] else { continue }
                next.fetches[stamp.operation] = ModelFetchRow(time: fetch.time, used: generation)
            }
        }
        for key in pendingTouches.records {
            next.records[key]?.used = generation
        }
        for field in pendingTouches.rootFields {
            next.root[field]?.used = generation
        }
        for operation in pendingTouches.fetches {
            next.fetches[operation]?.used = generation
        }
        pendingBatches = []
        pendingTouches = Touches()
        image = next
        states.append(next)
        if synced { durable = states.count - 1 }
        return problem
    }

    /// After a commit that returned, a sync may have made it durable (a checkpoint).
    package mutating func noteSynced() {
        durable = states.count - 1
    }

    // MARK: - Launches and crashes

    /// The image states a relaunch may find after `crash`.
    package func allowedStates(after crash: CrashKind) -> [ImageState] {
        switch crash {
        case .quit, .kill: return [image]
        case .powerLoss: return Array(states[durable...])
        case .corruption: return [ImageState(generation: 0)]
        }
    }

    /// A new launch found `found` (one of the allowed states) and bumped the generation to
    /// `generation`: the model continues from there, memory empty.
    package mutating func relaunched(found: ImageState, generation: Int, crash: CrashKind) {
        if crash == .powerLoss || crash == .corruption {
            states = [found]
            durable = 0
        } else {
            states = Array(states[durable...])
            durable = 0
            if states.last != found { states.append(found) }
        }
        var bumped = found
        bumped.generation = generation
        image = bumped
        states.append(bumped)
        pendingBatches = []
        pendingTouches = Touches()
        layers = []
        wroteThisLaunch = false
        epoch = 0
        invalidatedEpoch = -1
        // What a new process can know: the rows not yet aged out.
        var records: [RecordKey: ModelRecord] = [:]
        for (key, row) in bumped.records where row.used >= generation - 1 {
            records[key] = row.record
        }
        var rootCells: [String: Cell] = [:]
        for (field, row) in bumped.root where row.used >= generation - 1 {
            rootCells[field] = row.cell
        }
        if !rootCells.isEmpty {
            records[.queryRoot] = ModelRecord(typename: records[.queryRoot]?.typename ?? "Query", cells: rootCells)
        }
        logical = ModelDatabase(records: records)
        fetches = [:]
        for (operation, row) in bumped.fetches where row.used >= generation - 1 {
            fetches[operation] = Fetch(time: row.time, epoch: 0)
        }
    }

    /// The first launch: an empty image at generation `generation`.
    package mutating func firstLaunch(generation: Int) {
        image = ImageState(generation: generation)
        // Before the first open committed, the file held nothing: a power loss may return there.
        states = [ImageState(generation: 0), image]
        durable = 0
        wroteThisLaunch = false
    }
}

/// How a process ended.
package enum CrashKind: String, Sendable {
    case quit, kill, powerLoss
    /// The file was overwritten with garbage: the image must start again, empty.
    case corruption
}
