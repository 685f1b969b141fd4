import Baton

/// What a collection must do to memory.
package struct ExpectedCollection: Hashable, Sendable {
    /// Records swept from memory, sorted.
    package var swept: [OracleText]
    /// Query-root fields swept from memory, sorted.
    package var sweptRootFields: [OracleText]
    /// Records memory keeps.
    package var kept: Int
}

extension Oracle {
    /// Retains `operation` under `variables`: what it reaches survives collection until the token
    /// is released, and then until ten newer roots were released.
    package mutating func retain(token: Int, operation name: String, variables: [String: JSONValue]) {
        guard let operation = operations[name] else { return }
        retained[token] = Root(operation: operation, variables: operation.variables(variables))
    }

    /// Releases `token`: its root waits in the release buffer, the oldest buffered root leaving
    /// when the buffer holds more than ``releaseBufferSize``.
    package mutating func release(token: Int) {
        guard let root = retained.removeValue(forKey: token) else { return }
        releaseBuffer.append(root)
        if releaseBuffer.count > releaseBufferSize {
            coverage.releasedRootsLeavingBuffer += releaseBuffer.count - releaseBufferSize
            releaseBuffer.removeFirst(releaseBuffer.count - releaseBufferSize)
        }
    }

    /// The number of retained roots and of released roots still protecting.
    package var retainedCount: (retained: Int, buffered: Int) {
        (retained.count, releaseBuffer.count)
    }

    /// Records whose snapshots wait for the writer, and the query root while root fields wait.
    /// A drain in flight holds its batches until it commits.
    package var pendingKeys: Set<OracleText> {
        var keys = Set<OracleText>()
        for batch in (drainInFlight.map { $0.later == nil ? $0.batches : [] } ?? []) + queue {
            for snapshot in batch.snapshots { keys.insert(snapshot.key) }
            if !batch.rootFields.isEmpty { keys.insert(OracleKeys.queryRoot) }
        }
        return keys
    }

    /// What collection's mark reaches from the roots alone: every retained or buffered root
    /// walked over memory and the layers, everything the layers touch, what each connection
    /// among them owns, and the query-root slots the walks read. The writer's pending keys are
    /// left out: their protection ends with a drain, which by the store's rule makes nothing
    /// garbage that a pass must follow at once.
    package func reachFromRoots() -> RootReach {
        var mark = MarkWalk(oracle: self)
        for token in retained.keys.sorted() {
            mark.visit(root: retained[token]!)
        }
        for root in releaseBuffer {
            mark.visit(root: root)
        }
        if !layers.isEmpty {
            for (key, record) in overlay {
                mark.marked.insert(key)
                for cell in record.cells.values { cell.value.forEachLink { mark.marked.insert($0) } }
            }
        }
        return RootReach(records: ownedByConnections(mark.marked), rootSlots: mark.rootSlots)
    }

    /// Records and query-root fields memory holds now that `before`, the roots' reach at the
    /// start of a turn, protected and the roots protect no longer: the garbage this turn made,
    /// which automatic collection must sweep after it.
    package func stranded(since before: RootReach) -> (records: [OracleText], rootFields: [OracleText]) {
        let now = reachFromRoots()
        let lostRecords = before.records.subtracting(now.records)
        let records = lostRecords.filter { base[$0] != nil && !OracleKeys.isOperationRoot($0) }.sorted()
        let rootCells = base[OracleKeys.queryRoot]?.cells
        let rootFields = before.rootSlots.subtracting(now.rootSlots).filter { rootCells?[$0] != nil }.sorted()
        return (records, rootFields)
    }

    /// `marked` with what every kept connection owns: its edge copies and its page info.
    private func ownedByConnections(_ marked: Set<OracleText>) -> Set<OracleText> {
        var marked = marked
        for key in marked.sorted() where connectionRecords.contains(key) {
            guard let connection = base[key] else { continue }
            for slot in [OracleApply.edges, OracleApply.pageInfo] {
                connection.cells[slot]?.value.forEachLink { marked.insert($0) }
            }
        }
        return marked
    }

    /// The pass automatic collection runs at the end of a turn: ``collect()``, counted for the
    /// coverage when it sweeps a record.
    package mutating func collectAfterTurn() -> ExpectedCollection {
        let expected = collect()
        if !expected.swept.isEmpty { coverage.automaticCollections += 1 }
        return expected
    }

    /// Collection (Relay's GC): marks what every retained or buffered root reaches over memory
    /// and the layers, everything the layers touch, every record waiting for the writer (the
    /// query root while root fields wait) and a kept connection's edge copies and page info;
    /// sweeps every other record from memory (never the operation roots), un-hydrating it, and
    /// drops the query-root fields no root reaches unless root fields wait for the writer.
    package mutating func collect() -> ExpectedCollection {
        let reach = reachFromRoots()
        let pending = pendingKeys
        if drainInFlight != nil { coverage.collectionsDuringDrains += 1 }
        let marked = reach.records.union(ownedByConnections(pending))

        let swept = base.keys.filter { !marked.contains($0) && !OracleKeys.isOperationRoot($0) }.sorted()
        var sweptHydrated = false
        for key in swept {
            base[key] = nil
            if hydrated.remove(key) != nil { sweptHydrated = true }
        }
        if sweptHydrated { coverage.collectionsSweepingHydrated += 1 }
        var sweptRootFields: [OracleText] = []
        if !pending.contains(OracleKeys.queryRoot), var root = base[OracleKeys.queryRoot] {
            sweptRootFields = root.cells.keys.filter { !reach.rootSlots.contains($0) }.sorted()
            for slot in sweptRootFields { root.cells[slot] = nil }
            if !sweptRootFields.isEmpty { base[OracleKeys.queryRoot] = root }
        }
        if !sweptRootFields.isEmpty, overlay[OracleKeys.queryRoot] != nil { coverage.rootFieldsSweptUnderLayers += 1 }
        if !layers.isEmpty { rebuildOverlay() }
        return ExpectedCollection(swept: swept, sweptRootFields: sweptRootFields, kept: base.count)
    }
}

/// What collection's mark reaches from the roots (``Oracle/reachFromRoots()``).
package struct RootReach: Sendable {
    /// Records reached, with every reached connection's edge copies and page info.
    var records: Set<OracleText>
    /// Query-root slots the walks read.
    var rootSlots: Set<OracleText>
}

/// The mark of collection: each root walked from its operation's root record.
private struct MarkWalk {
    let oracle: Oracle
    var marked = Set<OracleText>()
    /// Query-root slots some root's walk reaches (whether memory holds them or not).
    var rootSlots = Set<OracleText>()
    /// (record, set) pairs this root's walk already visited.
    private var visited = Set<CheckWalk.Visit>()
    private var variables: [String: JSONValue] = [:]
    /// Each field's read slot under this root's variables.
    private var slots: [ObjectIdentifier: OracleText] = [:]

    init(oracle: Oracle) {
        self.oracle = oracle
    }

    mutating func visit(root: Oracle.Root) {
        variables = root.variables
        visited.removeAll()
        slots.removeAll()
        visit(root.operation.selections, at: root.operation.rootKey)
    }

    private mutating func visit(_ set: OracleSelectionSet, at key: OracleText) {
        guard visited.insert(CheckWalk.Visit(key: key, set: ObjectIdentifier(set))).inserted else { return }
        marked.insert(key)
        let versions = oracle.layers.isEmpty ? [oracle.base[key]] : [oracle.base[key], oracle.overlay[key]]
        for case let record? in versions where !record.deleted {
            for field in set.fields(for: record.typename, variables: variables, schema: oracle.schema) where !field.isTypename {
                let slot = slots[ObjectIdentifier(field)] ?? field.readSlot(variables)
                slots[ObjectIdentifier(field)] = slot
                if key == OracleKeys.queryRoot { rootSlots.insert(slot) }
                guard let cell = record.cells[slot], let selections = field.selections else { continue }
                var targets: [OracleText] = []
                cell.value.forEachLink { targets.append($0) }
                for target in targets { visit(selections, at: target) }
            }
        }
    }
}
