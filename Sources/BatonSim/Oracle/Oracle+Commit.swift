import Baton

/// What a server commit did, as the oracle computed it.
package struct OracleCommitEffect: Hashable, Sendable {
    /// Base records whose data changed, sorted.
    package var changed: [OracleText] = []
    /// Records whose visible version (layers included) changed, sorted: exactly those must notify.
    package var visiblyChanged: [OracleText] = []
    /// For each of `visiblyChanged`, the slots that changed (see ``OracleDifference/changedSlots(before:after:)``),
    /// computed when asked from the versions kept in `visibleChanges`.
    package var changedSlots: [OracleText: [OracleText]] {
        visibleChanges.mapValues { OracleDifference.changedSlots(before: $0.before, after: $0.after) }
    }
    /// For each of `visiblyChanged`, what the UI saw before the commit and sees after it.
    var visibleChanges: [OracleText: VisibleChange] = [:]

    /// One record's visible version before and after a commit.
    struct VisibleChange: Hashable, Sendable {
        var before: OracleRecord?
        var after: OracleRecord?
    }
    /// What the commit hands the writer (empty when nothing changed and the response had no data).
    package var batch = OracleBatch()
    /// The connection records of the response's pages that joined nothing, in order.
    package var pagesNotJoined: [OracleText] = []
}

extension Oracle {
    /// A server response committed: applied to the base slot by slot, its deletions marked
    /// hydrated, its operation's fetch time stamped when it had data, the layer it answers
    /// dropped, and its write set queued for the writer.
    ///
    /// The write set is the oracle's own: every record whose data changed between memory before
    /// and after (a deleted one with no cells), flagged hydrated or not as memory says after the
    /// commit; the query root's fields whose cells changed; and the fetch time.
    @discardableResult
    package mutating func serverCommit(
        _ response: ModelResponse, operation name: String, variables: [String: JSONValue], now: Double, answering layer: Int?
    ) -> OracleCommitEffect {
        let identity = self.identity(name, variables)
        let (writes, report) = applied(response)
        count(report)
        connectionRecords.formUnion(report.connections)

        var effect = OracleCommitEffect()
        effect.pagesNotJoined = report.notJoined
        var before: [OracleText: OracleRecord?] = [:]
        for key in overlay.keys { before[key] = .some(visible(key)) }
        for (key, record) in writes where base[key] != record {
            if let old = base[key] { coverage.twinRenewals += Self.twinRenewals(from: old, to: record) }
            effect.changed.append(key)
            if before[key] == nil { before[key] = .some(visible(key)) }
        }
        effect.changed.sort()
        let previousRoot = base[OracleKeys.queryRoot]
        for key in effect.changed { base[key] = writes[key] }
        for key in response.deletions { hydrated.insert(key) }
        serverCommits += 1
        if response.hasData {
            fetches[identity] = Fetch(time: now, order: serverCommits)
            effect.batch.fetch = (identity, now)
        } else {
            coverage.responsesWithoutData += 1
        }
        if !layers.isEmpty || !overlay.isEmpty {
            if let layer { layers.removeAll { $0.id == layer } }
            rebuildOverlay()
        }
        for key in overlay.keys where before[key] == nil { before[key] = .some(base[key]) }
        effect.visiblyChanged = before.keys.filter { before[$0]! != visible($0) }.sorted()
        for key in effect.visiblyChanged {
            effect.visibleChanges[key] = OracleCommitEffect.VisibleChange(before: before[key]!, after: visible(key))
        }

        for key in effect.changed {
            guard let record = base[key] else { continue }
            if key == OracleKeys.queryRoot {
                for (slot, cell) in record.cells where previousRoot?.cells[slot] != cell {
                    effect.batch.rootFields[slot] = cell
                }
                continue
            }
            effect.batch.snapshots.append(OracleSnapshot(key: key, record: record, hydrated: hydrated.contains(key)))
        }
        if hasImage, !effect.batch.isEmpty { enqueue(effect.batch) }
        return effect
    }

    /// `response` applied to a view of the base; the view (and its hold on the base's storage) ends
    /// here, so writing the base afterwards does not copy it.
    private func applied(_ response: ModelResponse) -> ([OracleText: OracleRecord], OracleApplyReport) {
        var view = OracleView { [base] in base[$0] }
        let report = OracleApply.apply(response, to: &view)
        return (view.writes, report)
    }

    /// An optimistic response: a layer over the base until answered or reverted; it never
    /// reaches the writer.
    package mutating func optimistic(layer: Int, _ response: ModelResponse, operation: String, variables: [String: JSONValue]) {
        layers.append((layer, response))
        rebuildOverlay()
        if overlay[OracleKeys.queryRoot] != nil { coverage.queryRootLayers += 1 }
    }

    /// A failed mutation: its layer goes, the others stay applied.
    package mutating func revert(layer: Int) {
        guard layers.contains(where: { $0.id == layer }) else { return }
        layers.removeAll { $0.id == layer }
        rebuildOverlay()
    }

    /// Everything fetched so far in this launch becomes stale; a later fetch is fresh again.
    package mutating func invalidate() {
        invalidatedThrough = serverCommits
    }

    /// The identity of `name` under `variables`: `Name{…}` with defaults applied.
    func identity(_ name: String, _ variables: [String: JSONValue]) -> OracleText {
        guard let operation = operations[name] else { return OracleKeys.operationIdentity(name: name, variables: variables) }
        return operation.resolved(variables).identity
    }

    private mutating func count(_ report: OracleApplyReport) {
        coverage.deletions += report.deletions
        if report.deletions >= 2 { coverage.bulkDeletions += 1 }
        coverage.revivals += report.revivals
        coverage.connectionFirstPages += report.firstPages
        coverage.connectionAppends += report.appends
        coverage.connectionPrepends += report.prepends
        coverage.connectionRefreshes += report.refreshes
        coverage.connectionIgnoredPages += report.ignoredPages
        coverage.deduplicatedEdges += report.deduplicatedEdges
    }
}

extension Oracle {
    /// The cells a commit renews into their twin, equal by Swift's `==` and apart in their
    /// bytes: a string in its other Unicode composition (`café` decomposed after precomposed), a
    /// zero of the other sign. A store that compared values by `==` would keep the old ones.
    static func twinRenewals(from old: OracleRecord, to new: OracleRecord) -> Int {
        new.cells.reduce(0) { count, entry in
            switch (entry.value.value, old.cells[entry.key]?.value) {
            case (.string(let text), .string(let previous)?) where text != previous && text.string == previous.string:
                count + 1
            case (.double(let number), .double(let previous)?) where number == previous && number.sign != previous.sign:
                count + 1
            default:
                count
            }
        }
    }
}
