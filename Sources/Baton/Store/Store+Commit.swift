/// How a batch reaches the store.
public enum BatchKind: Sendable {
    /// Server data: stamps the operation's fetch time and reaches the image.
    case server
    /// The runtime's own writes (hydration, tools): never written back to the image.
    case local
}

/// The identity of an optimistic layer, to answer or revert it.
public struct OptimisticLayerID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public var description: String { "layer \(rawValue)" }
}

/// A live optimistic layer: a change set applied over the base until answered or reverted.
struct OptimisticLayer {
    let id: OptimisticLayerID
    let changeSet: ChangeSet
}

extension Store {
    /// Commits `changeSet` as one atomic batch; only changed slots notify.
    ///
    /// A server commit under live layers reverts them, applies, and re-applies the rest;
    /// `answering` names the layer this response answers, which is dropped.
    public func commit(_ changeSet: ChangeSet, kind: BatchKind = .server, answering layer: OptimisticLayerID? = nil) {
        var view = SourceView { [base] in base[$0] }
        ChangeSetApplier.apply(changeSet, to: &view, mutant: configuration.mutant)
        let previousRoot = base[.queryRoot]
        var changed: [RecordKey] = []
        var droppedLink = false
        for (key, data) in view.writes {
            let old = base[key]
            guard old != data else { continue }
            if let old, Self.dropsLink(from: old, to: data) { droppedLink = true }
            base[key] = data
            changed.append(key)
        }
        changed.sort()
        // A record deleted here holds, from now on, everything its row will hold (nothing from
        // before): it counts as hydrated, so the check never fills it from the row the deletion
        // has not replaced yet, and its next snapshot replaces that row.
        for key in changeSet.deletions {
            hydrated.insert(key)
        }
        if kind == .server {
            commitSequence += 1
        }
        var fetchStamp: FetchStamp?
        // A response without data (errors only) refreshes nothing, so it stamps no fetch time.
        if kind == .server, let operation = changeSet.operation, !changeSet.records.isEmpty {
            let time = clock.now()
            fetches[operation] = Fetch(time: time, sequence: commitSequence)
            fetchStamp = FetchStamp(operation: operation, time: time)
        }
        var affected = Set(changed)
        if !layers.isEmpty || !overlay.isEmpty {
            if let layer { layers.removeAll { $0.id == layer } }
            affected.formUnion(rebuildOverlay())
        }
        refreshObjects(affected)
        if kind == .server {
            handToWriter(changed: changed, previousRoot: previousRoot, fetch: fetchStamp)
        }
        if droppedLink { noteCollectionNeeded() }
    }

    /// Applies `changeSet` as an optimistic layer over the base; it never reaches the image.
    @discardableResult
    public func commitOptimistic(_ changeSet: ChangeSet) -> OptimisticLayerID {
        let id = OptimisticLayerID(rawValue: nextLayerID)
        nextLayerID += 1
        layers.append(OptimisticLayer(id: id, changeSet: changeSet))
        var view = SourceView { [base, overlay] in overlay[$0] ?? base[$0] }
        ChangeSetApplier.apply(changeSet, to: &view, mutant: configuration.mutant)
        for (key, data) in view.writes { overlay[key] = data }
        refreshObjects(view.writes.keys)
        return id
    }

    /// Reverts the layer `id` (a failed mutation); the other layers stay applied.
    public func revert(_ id: OptimisticLayerID) {
        guard layers.contains(where: { $0.id == id }) else { return }
        layers.removeAll { $0.id == id }
        refreshObjects(rebuildOverlay())
    }

    /// Recomputes the overlay from the base and the live layers; returns every key whose visible
    /// version may have changed (old and new overlay keys).
    func rebuildOverlay() -> Set<RecordKey> {
        var touched = Set(overlay.keys)
        var view = SourceView { [base] in base[$0] }
        for layer in layers {
            ChangeSetApplier.apply(layer.changeSet, to: &view, mutant: configuration.mutant)
        }
        overlay = view.writes
        touched.formUnion(overlay.keys)
        return touched
    }

    /// True when a slot that held a link no longer holds the same link.
    static func dropsLink(from old: RecordData, to new: RecordData) -> Bool {
        if new.deleted && !old.deleted { return true }
        for (slot, cell) in old.cells {
            switch cell.value {
            case .link, .links, .list:
                if new.cells[slot]?.value != cell.value { return true }
            default:
                continue
            }
        }
        return false
    }

    /// Hands the writer a snapshot of every changed record (and the query root's changed fields).
    func handToWriter(changed: [RecordKey], previousRoot: RecordData?, fetch: FetchStamp?) {
        guard let image else { return }
        var batch = WriteBatch()
        if let fetch { batch.fetches = [fetch] }
        let fromView = configuration.mutant.isOn(.optimisticReachesImage)
        for key in changed {
            guard let data = fromView ? visible(key) : base[key] else { continue }
            if key == .queryRoot {
                let before = previousRoot?.cells ?? [:]
                batch.rootFields = data.namedCells.filter { named in
                    before[SlotID.named(named.storageKey)] != named.cell
                }
                continue
            }
            batch.snapshots.append(snapshot(key, data))
        }
        if fromView {
            for key in overlay.keys.sorted() where !changed.contains(key) {
                guard key != .queryRoot, let data = overlay[key] else { continue }
                batch.snapshots.append(snapshot(key, data))
            }
        }
        if !batch.isEmpty { image.enqueue(batch) }
    }

    private func snapshot(_ key: RecordKey, _ data: RecordData) -> Snapshot {
        var linkTypes: [RecordKey: String] = [:]
        for cell in data.cells.values {
            cell.value.forEachLink { target in
                if let typename = base[target]?.typename { linkTypes[target] = typename }
            }
        }
        return Snapshot(
            key: key, typename: data.typename, cells: data.deleted ? [] : data.namedCells,
            deleted: data.deleted, hydrated: hydrated.contains(key), linkTypes: linkTypes)
    }
}
