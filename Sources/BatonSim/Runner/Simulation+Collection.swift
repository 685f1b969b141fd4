import Baton

extension SimEvent {
    /// Whether the event can leave records that a root reached before it unreachable from every
    /// root: a commit that drops a link, a layer ending, a released root leaving the buffer.
    var mayStrandRecords: Bool {
        switch self {
        case .response, .answer, .fail, .release: true
        default: false
        }
    }
}

extension Simulation {
    /// The `collect` event: the app asks for a pass; what it sweeps is checked against the model.
    func collect(index: Int) throws -> String {
        guard let process else { return "skipped" }
        let before = SweptKeys(process.store)
        let result = storeWork.time { process.store.collect() }
        return try checkPass(result, before: before, expected: oracle.collect(), process: process, index: index)
    }

    /// The end of the event's turn on the main actor, where production's automatic collection
    /// runs the pass it scheduled. The model decides on its own whether one was due: when the
    /// turn left a record or query-root field that the roots reached at its start unreachable
    /// from every root (`reachBefore`, for events that can do that), the store must have
    /// scheduled a pass. A pass the store scheduled runs here and is checked like any other.
    func endTurn(reachBefore: RootReach?, index: Int) throws -> String {
        guard let process else { return "" }
        guard process.store.collectionScheduled else {
            guard let reachBefore else { return "" }
            statesChecked += 1
            let stranded = oracle.stranded(since: reachBefore)
            guard stranded.records.isEmpty, stranded.rootFields.isEmpty else {
                let lines = stranded.records.map { "\(Legible.text($0)) reachable: before true ≠ after false" }
                    + stranded.rootFields.map { "root.\(Legible.text($0)) reachable: before true ≠ after false" }
                throw violation(
                    "collection-follows-garbage",
                    "the turn left \(Self.count(stranded.records.count, "record")) and \(Self.count(stranded.rootFields.count, "root field")) unreachable from every root, and the store scheduled no collection",
                    differences: lines, at: index)
            }
            return ""
        }
        let before = SweptKeys(process.store)
        guard let result = storeWork.time({ process.store.endTurn() }) else { return "" }
        return try "; after the turn, " + checkPass(result, before: before, expected: oracle.collectAfterTurn(), process: process, index: index)
    }

    /// One collection pass the store ran, compared with the model's: the same records and
    /// query-root fields swept.
    private func checkPass(
        _ result: CollectionResult, before: SweptKeys, expected: ExpectedCollection, process: Process, index: Int
    ) throws -> String {
        let swept = before.swept(process.store)
        statesChecked += 1
        guard result.swept == expected.swept.count, result.sweptRootFields == expected.sweptRootFields.count,
              swept.records == expected.swept, swept.rootFields == expected.sweptRootFields else {
            throw violation(
                "collection-sweeps-model",
                "the store swept \(result.swept) records and \(result.sweptRootFields) root fields; the model sweeps \(expected.swept.count) and \(expected.sweptRootFields.count)",
                differences: swept.differences(expected: expected), at: index)
        }
        return "kept \(result.kept), swept \(Self.count(result.swept, "record"))" + Self.keyList(swept.records)
            + " and \(Self.count(result.sweptRootFields, "root field"))" + Self.keyList(swept.rootFields)
    }
}
