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
        var mark = MarkWalk(store: self)
        for root in retention.protecting {
            mark.begin(root.variables)
            mark.visit(root.plan.selections, at: root.plan.rootKey)
        }
        for (key, data) in overlay {
            mark.marked.insert(key)
            for cell in data.cells.values {
                cell.value.forEachLink { mark.marked.insert($0) }
            }
        }
        let pending = image?.pendingKeys() ?? []
        mark.marked.formUnion(pending)
        // A connection kept for any reason keeps what it owns: its edge copies and its page info,
        // so a later page always meets the whole connection in memory.
        for key in mark.marked where ConnectionPage.isClientRecordKey(key) {
            guard let connection = base[key] else { continue }
            for slot in [ChangeSetApplier.edgesSlot, ChangeSetApplier.pageInfoSlot] {
                if let cell = connection.cells[slot] { cell.value.forEachLink { mark.marked.insert($0) } }
            }
        }

        var swept: [RecordKey] = []
        for key in base.keys where !mark.marked.contains(key) && !Self.isOperationRoot(key) {
            swept.append(key)
        }
        for key in swept {
            base[key] = nil
            if !configuration.mutant.isOn(.sweptKeepsHydrated) {
                hydrated.remove(key)
            }
        }
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
        refreshObjects(swept)
        return CollectionResult(kept: base.count, swept: swept.count - (sweptRootFields > 0 ? 1 : 0), sweptRootFields: sweptRootFields)
    }

    static func isOperationRoot(_ key: RecordKey) -> Bool {
        key == .queryRoot || key == .mutationRoot || key == .subscriptionRoot
    }
}

/// The mark phase of collection.
@MainActor
struct MarkWalk {
    let store: Store
    var variables = Variables()
    var marked = Set<RecordKey>()
    /// The query-root slots some root reaches.
    var rootSlots = Set<SlotID>()
    private var visited = Set<VisitKey>()

    init(store: Store) {
        self.store = store
    }

    /// Starts the walk of one root: what was visited under other variables says nothing here.
    mutating func begin(_ variables: Variables) {
        self.variables = variables
        visited.removeAll(keepingCapacity: true)
    }

    mutating func visit(_ set: SelectionSet, at key: RecordKey) {
        guard visited.insert(VisitKey(key: key, set: ObjectIdentifier(set))).inserted else { return }
        marked.insert(key)
        for data in [store.base[key], store.overlay[key]] {
            guard let data, !data.deleted else { continue }
            for field in set.fields(for: data.typename, variables: variables) where !field.isTypename {
                let slot = field.readSlot(variables)
                if key == .queryRoot { rootSlots.insert(slot) }
                guard let cell = data.cells[slot], let subselections = field.selections else { continue }
                var targets: [RecordKey] = []
                cell.value.forEachLink { targets.append($0) }
                for target in targets {
                    visit(subselections, at: target)
                }
            }
        }
    }
}
