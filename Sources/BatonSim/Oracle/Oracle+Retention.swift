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
    package var pendingKeys: Set<OracleText> {
        var keys = Set<OracleText>()
        for batch in queue {
            for snapshot in batch.snapshots { keys.insert(snapshot.key) }
            if !batch.rootFields.isEmpty { keys.insert(OracleKeys.queryRoot) }
        }
        return keys
    }

    /// Collection (Relay's GC): marks what every retained or buffered root reaches over memory
    /// and the layers, everything the layers touch, every record waiting for the writer (the
    /// query root while root fields wait) and a kept connection's edge copies and page info;
    /// sweeps every other record from memory (never the operation roots), un-hydrating it, and
    /// drops the query-root fields no root reaches unless root fields wait for the writer.
    package mutating func collect() -> ExpectedCollection {
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
        let pending = pendingKeys
        mark.marked.formUnion(pending)
        for key in mark.marked.sorted() where connectionRecords.contains(key) {
            guard let connection = base[key] else { continue }
            for slot in [OracleApply.edges, OracleApply.pageInfo] {
                connection.cells[slot]?.value.forEachLink { mark.marked.insert($0) }
            }
        }

        let swept = base.keys.filter { !mark.marked.contains($0) && !OracleKeys.isOperationRoot($0) }.sorted()
        var sweptHydrated = false
        for key in swept {
            base[key] = nil
            if hydrated.remove(key) != nil { sweptHydrated = true }
        }
        if sweptHydrated { coverage.collectionsSweepingHydrated += 1 }
        var sweptRootFields: [OracleText] = []
        if !pending.contains(OracleKeys.queryRoot), var root = base[OracleKeys.queryRoot] {
            sweptRootFields = root.cells.keys.filter { !mark.rootSlots.contains($0) }.sorted()
            for slot in sweptRootFields { root.cells[slot] = nil }
            if !sweptRootFields.isEmpty { base[OracleKeys.queryRoot] = root }
        }
        if !layers.isEmpty { rebuildOverlay() }
        return ExpectedCollection(swept: swept, sweptRootFields: sweptRootFields, kept: base.count)
    }
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
