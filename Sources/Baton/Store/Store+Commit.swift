/// How a batch reaches the store.
public enum BatchKind: Sendable {
    /// Server data: stamps the operation's fetch time and reaches the image.
    case server
    /// The runtime's own writes of what the image already holds (as hydration's): the commit
    /// stamps no fetch time and hands the writer nothing. Memory holds the cells all the same, so
    /// a later server commit's snapshot of the same record carries them to the image with the
    /// rest; client-only state that must never reach the disk belongs in an optimistic layer.
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
    ///
    /// - Returns: the connection pages that joined nothing: a page `after` (or `before`) a cursor
    ///   that is not the end (or start) cursor the connection holds in memory, or whose
    ///   connection memory does not hold (a check that reads it hydrates it). Their records are
    ///   committed all the same; only the connection is left as it was.
    @discardableResult
    public func commit(_ changeSet: ChangeSet, kind: BatchKind = .server, answering layer: OptimisticLayerID? = nil) -> [ConnectionPage] {
        let written: [SourceView.Write]
        let notJoined: [ConnectionPage]
        do {
            // The view reads a copy of the base; it ends here, before the base is written, so the
            // base's storage is never copied for it.
            var view = SourceView(capacity: changeSet.records.count) { [base] in base[$0] }
            notJoined = ChangeSetApplier.apply(changeSet, to: &view, mutant: configuration.mutant)
            written = view.written
        }
        let previousRoot = base[.queryRoot]
        var changed: [(id: Int, holdsEarlierCells: Bool)] = []
        changed.reserveCapacity(written.count)
        var droppedLink = false
        base.reserveCapacity(written.count)
        for write in written {
            let id = base.intern(write.key)
            let old = base.data[id]
            guard old != write.data else { continue }
            if configuration.mutant.isOn(.stringsCompareCanonically), let old, Mutant.canonicallyEqual(old, write.data) { continue }
            if configuration.mutant.isOn(.zeroSignIgnored), let old, Mutant.equalButForZeroSign(old, write.data) { continue }
            if !droppedLink, let old, Self.dropsLink(from: old, to: write.data, mutant: configuration.mutant) { droppedLink = true }
            base.set(id: id, write.data)
            changed.append((id, write.holdsEarlierCells))
        }
        // A record deleted here holds, from now on, everything its row will hold (nothing from
        // before): it counts as hydrated, so the check never fills it from the row the deletion
        // has not replaced yet, and its next snapshot replaces that row.
        for key in changeSet.deletions where !configuration.mutant.isOn(.deletionNotHydrated) {
            base.insert(.hydrated, base.intern(key))
        }
        if kind == .server {
            commitSequence += 1
        }
        var fetchStamp: FetchStamp?
        // A response without data (errors only) refreshes nothing, so it stamps no fetch time.
        if kind == .server, let operation = changeSet.operation,
           !changeSet.records.isEmpty || configuration.mutant.isOn(.errorsOnlyStampsFetch) {
            let time = clock.now()
            fetches[operation] = Fetch(time: time, sequence: commitSequence)
            fetchStamp = FetchStamp(operation: operation, time: time)
        }
        if !layers.isEmpty || !overlay.isEmpty {
            if let layer, layers.contains(where: { $0.id == layer }) {
                layers.removeAll { $0.id == layer }
                if !configuration.mutant.isOn(.endedLayerNotCollected) { droppedLink = true }
            }
            var affected = Set(changed.lazy.map { self.base.keys[$0.id] })
            affected.formUnion(rebuildOverlay())
            refreshObjects(affected)
        } else if !objects.isEmpty {
            refreshObjects(changed.lazy.map { self.base.keys[$0.id] })
        }
        if kind == .server {
            handToWriter(changed: changed, previousRoot: previousRoot, fetch: fetchStamp, written: written)
        }
        base.reclaimOutlines()
        if droppedLink { noteCollectionNeeded() }
        return configuration.mutant.isOn(.unjoinedPagesUnreported) ? [] : notJoined
    }

    /// Applies `changeSet` as an optimistic layer over the base; it never reaches the image.
    @discardableResult
    public func commitOptimistic(_ changeSet: ChangeSet) -> OptimisticLayerID {
        let id = OptimisticLayerID(rawValue: nextLayerID)
        nextLayerID += 1
        layers.append(OptimisticLayer(id: id, changeSet: changeSet))
        let written: [SourceView.Write]
        do {
            var view = SourceView { [base, overlay] in overlay[$0] ?? base[$0] }
            ChangeSetApplier.apply(changeSet, to: &view, mutant: configuration.mutant)
            written = view.written
        }
        for write in written { setOverlay(write.key, write.data) }
        refreshObjects(written.lazy.map(\.key))
        return id
    }

    /// Reverts the layer `id` (a failed mutation); the other layers stay applied.
    public func revert(_ id: OptimisticLayerID) {
        guard layers.contains(where: { $0.id == id }) else { return }
        layers.removeAll { $0.id == id }
        let touched = rebuildOverlay()
        if !configuration.mutant.isOn(.revertLeavesObjects) { refreshObjects(touched) }
        // The layer was a root of collection's mark: what only it reached is garbage now.
        if !configuration.mutant.isOn(.endedLayerNotCollected) { noteCollectionNeeded() }
    }

    /// Recomputes the overlay from the base and the live layers; returns every key whose visible
    /// version may have changed (old and new overlay keys).
    func rebuildOverlay() -> Set<RecordKey> {
        rebuildOverlay(in: &base)
    }

    /// ``rebuildOverlay()`` over `memory`, the store's base passed in by a walk that holds it.
    func rebuildOverlay(in memory: inout RecordMemory) -> Set<RecordKey> {
        var touched = Set(overlay.keys)
        let rebuilt: [RecordKey: RecordData]
        do {
            // The view reads a copy of memory that ends before memory's flags are written.
            var view = SourceView { [memory] in memory[$0] }
            for layer in layers {
                ChangeSetApplier.apply(layer.changeSet, to: &view, mutant: configuration.mutant)
            }
            rebuilt = view.writes
        }
        replaceOverlay(rebuilt, in: &memory)
        touched.formUnion(overlay.keys)
        return touched
    }

    /// Whether writing `new` over `old` may leave a record unreachable: a slot loses a record it
    /// linked to (a deleted record's slots hold nothing), or a record holding links changes its
    /// type (selections choose fields by type). A slot whose list of links is reordered, or a
    /// list of scalars that changes, drops nothing.
    static func dropsLink(from old: RecordData, to new: RecordData, mutant: Mutant? = nil) -> Bool {
        let retyped = old.typename != new.typename && !mutant.isOn(.retypedLinksUnnoticed)
        let keepsNothing = new.deleted || retyped
        for (slot, cell) in old.cells {
            switch cell.value {
            case .link:
                break
            case .links, .list:
                if mutant.isOn(.linkListDropUnnoticed) { continue }
            default:
                continue
            }
            let kept = keepsNothing ? nil : new.cells[slot]?.value
            if kept == cell.value { continue }
            guard let kept else {
                // An emptied slot drops a link when it held one; one that held none (an empty
                // list) says nothing of the slots after it.
                if cell.value.holdsLink || mutant.isOn(.emptiedSlotEndsTheSearch) { return cell.value.holdsLink }
                continue
            }
            if case .link(let target) = cell.value {
                var stillLinked = false
                kept.forEachLink { if $0 == target { stillLinked = true } }
                if !stillLinked { return true }
                continue
            }
            var keptTargets = Set<RecordKey>()
            kept.forEachLink { keptTargets.insert($0) }
            var dropped = false
            cell.value.forEachLink { if !keptTargets.contains($0) { dropped = true } }
            if dropped { return true }
        }
        return false
    }

    /// Hands the writer a snapshot of every changed record (and the query root's changed fields).
    ///
    /// A snapshot holds the record's data as memory holds it (no copy: record data is a value
    /// with shared storage); the writer names and sorts its cells and looks up the types of its
    /// links off the main actor, in the types of every record this commit wrote
    /// (``RecordTypes``). A record that also holds cells from before the commit may link to
    /// records the commit did not write: its link types are looked up here, in memory.
    func handToWriter(
        changed: [(id: Int, holdsEarlierCells: Bool)], previousRoot: RecordData?, fetch: FetchStamp?,
        written: [SourceView.Write]
    ) {
        guard let image else { return }
        var batch = WriteBatch()
        if let fetch, !configuration.mutant.isOn(.fetchTimesNotWritten) { batch.fetches = [fetch] }
        let fromView = configuration.mutant.isOn(.optimisticReachesImage)
        let types = RecordTypes(written)
        batch.recordTypes = types
        batch.snapshots.reserveCapacity(changed.count)
        for (id, holdsEarlierCells) in changed {
            let key = base.keys[id]
            guard let data = fromView ? visible(key) : base.data[id] else { continue }
            if key == .queryRoot {
                batch.rootFields = changedRootFields(data, before: previousRoot)
                continue
            }
            if configuration.mutant.isOn(.recordTypeNeverWritten), data.typename == "PageInfo" { continue }
            let hydrated = base.has(.hydrated, id)
            if fromView {
                batch.snapshots.append(spelledOut(key, data, hydrated: hydrated))
            } else {
                let known = holdsEarlierCells ? linkTypesInMemory(data) : [:]
                batch.snapshots.append(Snapshot(key: key, record: data, hydrated: hydrated, types: types, linkTypes: known))
            }
        }
        if fromView {
            let changedKeys = Set(changed.map { base.keys[$0.id] })
            for key in overlay.keys.sorted() where !changedKeys.contains(key) {
                guard key != .queryRoot, let data = overlay[key] else { continue }
                batch.snapshots.append(spelledOut(key, data, hydrated: base.has(.hydrated, key)))
            }
        }
        if !batch.isEmpty { image.enqueue(batch) }
    }

    /// The type memory holds for each record `data` links to.
    private func linkTypesInMemory(_ data: RecordData) -> [RecordKey: String] {
        var linkTypes: [RecordKey: String] = [:]
        for cell in data.cells.values {
            cell.value.forEachLink { target in
                if let typename = base[target]?.typename { linkTypes[target] = typename }
            }
        }
        return linkTypes
    }

    /// The query root's fields that differ from `before`, sorted by storage key.
    private func changedRootFields(_ root: RecordData, before: RecordData?) -> [NamedCell] {
        let old = before?.cells ?? [:]
        var fields: [NamedCell] = []
        for (slot, cell) in root.cells where old[slot] != cell {
            fields.append(NamedCell(storageKey: slot.name, cell: cell))
        }
        fields.sort { CanonicalJSON.utf8Less($0.storageKey, $1.storageKey) }
        return fields
    }

    /// A snapshot with its cells named and sorted and its link types looked up here, in memory.
    private func spelledOut(_ key: RecordKey, _ data: RecordData, hydrated: Bool) -> Snapshot {
        Snapshot(
            key: key, typename: data.typename, cells: data.deleted ? [] : data.namedCells,
            deleted: data.deleted, hydrated: hydrated, linkTypes: linkTypesInMemory(data))
    }
}
