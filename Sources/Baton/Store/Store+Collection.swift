/// What one collection pass did.
public struct CollectionResult: Hashable, Sendable {
    /// Records kept in memory.
    public var kept: Int
    /// Records swept from memory.
    public var swept: Int
    /// Query-root fields swept from memory.
    public var sweptRootFields: Int
}

extension Store {
    /// Collection: marks from every retained or buffered root (walking its selections over the
    /// base and the optimistic view), from optimistic layers, and from records the writer still
    /// holds; sweeps the rest from memory. The image is untouched: rows age out by launch.
    @discardableResult
    public func collect() -> CollectionResult {
        needsCollection = false
        var mark = MarkWalk(capacity: base.idCount, queryRoot: base.id(of: .queryRoot), overlay: overlay, mutant: configuration.mutant)
        for root in retention.protecting {
            mark.mark(root, in: &base)
        }
        for (key, data) in overlay {
            mark.marked.insert(base.intern(key))
            for cell in data.cells.values {
                cell.value.forEachLink { if let id = self.base.id(of: $0) { mark.marked.insert(id) } }
            }
        }
        let pending = image?.pendingKeys() ?? []
        for key in pending {
            if let id = base.id(of: key) { mark.marked.insert(id) }
        }
        // A connection kept for any reason keeps what it owns: its edge copies and its page info,
        // so a later page always meets the whole connection in memory.
        if !configuration.mutant.isOn(.connectionEdgesSwept) { base.markOwnedByConnections(&mark.marked) }
        var swept = base.sweep(keeping: mark.marked, keepsHydrated: configuration.mutant.isOn(.sweptKeepsHydrated))
        var sweptRootFields = 0
        if !pending.contains(.queryRoot), var root = base[.queryRoot] {
            let before = root.cells.count
            root.cells = root.cells.filter { mark.rootSlots.contains($0.key) }
            sweptRootFields = before - root.cells.count
            if sweptRootFields > 0 {
                base[.queryRoot] = root
                swept.append(.queryRoot)
            }
        }
        // The overlay holds merged copies of the base: what was swept from under a layer (the
        // query root's fields, above all) must leave them too.
        var changed = swept
        if !layers.isEmpty, !swept.isEmpty, !configuration.mutant.isOn(.collectionLeavesOverlay) {
            changed += rebuildOverlay()
        }
        refreshObjects(changed)
        if !base.compact(slack: configuration.compactionSlack, mutant: configuration.mutant) { base.reclaimOutlines() }
        return CollectionResult(kept: base.count, swept: swept.count - (sweptRootFields > 0 ? 1 : 0), sweptRootFields: sweptRootFields)
    }

    nonisolated static func isOperationRoot(_ key: RecordKey) -> Bool {
        key == .queryRoot || key == .mutationRoot || key == .subscriptionRoot
    }
}

/// The mark phase of collection: walks each root's selections over record ids, keeping its
/// marks in ``IDSet``s (one for the pass, one per selection set and root).
///
/// It works on the store's memory passed in (`inout`), so that reading a record's flags, type
/// and links is a plain array read.
struct MarkWalk {
    var marked: IDSet
    /// The query-root slots some root reaches.
    var rootSlots = Set<SlotID>()
    private let queryRoot: Int
    private let overlay: [RecordKey: RecordData]
    private var plan = WalkPlan(variables: Variables(), capacity: 0)
    private let mutant: Mutant?

    init(capacity: Int, queryRoot: Int?, overlay: [RecordKey: RecordData], mutant: Mutant? = nil) {
        self.marked = IDSet(capacity: capacity)
        self.queryRoot = queryRoot ?? -1
        self.overlay = overlay
        self.mutant = mutant
    }

    /// Marks what `root` reaches. What was reached under other variables says nothing here, so
    /// each root walks with a plan (and marks per selection set) of its own.
    mutating func mark(_ root: RetainedRoot, in memory: inout RecordMemory) {
        plan = WalkPlan(variables: root.variables, capacity: memory.idCount)
        let node = plan.node(for: root.plan.selections)
        visit(node, at: memory.intern(root.plan.rootKey), in: &memory)
    }

    private mutating func visit(_ node: Int, at id: Int, in memory: inout RecordMemory) {
        guard plan.reached[node].insert(id) else { return }
        marked.insert(id)
        let flags = memory.flags[id]
        let baseSkipped = mutant.isOn(.markSkipsBaseOfOverlaid) && flags.contains(.overlaid) && overlay[memory.keys[id]] != nil
        if flags.contains(.present) && !flags.contains(.deleted) && !baseSkipped {
            let type = Int(memory.types[id])
            if plan.steps(node, type: type) == nil { plan.resolve(node, type: type, typename: memory.typenames[type]) }
            if id == queryRoot {
                for index in plan.steps(node, type: type)! { rootSlots.insert(plan.steps[index].slot) }
            }
            // Only fields with sub-selections lead anywhere; a record without them needs no outline.
            let linked = plan.linkedSteps(node, type: type)!
            if !linked.isEmpty {
                let start = memory.outline(of: id)
                for index in linked {
                    let step = plan.steps[index]
                    for position in memory.outlines.targets(at: start, slot: step.slot) {
                        visit(Int(step.child), at: memory.outlines[position], in: &memory)
                    }
                }
            }
        }
        guard flags.contains(.overlaid), let data = overlay[memory.keys[id]], !data.deleted else { return }
        // The overlay's version of the record: memory's outlines do not describe it.
        let type = memory.typeID(of: data.typename)
        let steps = plan.steps(node, type: type) ?? plan.resolve(node, type: type, typename: data.typename)
        for index in steps {
            let step = plan.steps[index]
            if id == queryRoot { rootSlots.insert(step.slot) }
            guard step.child >= 0, let cell = data.cells[step.slot] else { continue }
            var targets: [Int] = []
            cell.value.forEachLink { targets.append(memory.intern($0)) }
            for target in targets {
                visit(Int(step.child), at: target, in: &memory)
            }
        }
    }
}
