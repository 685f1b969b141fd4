import Baton

extension Simulation {
    /// Adds the event just run to the timeline: its lane, what it did, the disk after it, and the
    /// history of every record whose memory, queued write, row or model state it changed.
    func recordTimeline(_ event: SimEvent, index: Int, outcome: String) {
        guard var timeline else { return }
        let states = keyStates()
        var touched: [String] = []
        for key in Set(states.keys).union(lastKeyStates.keys).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let state = states[key] ?? Timeline.KeyState(eventIndex: index)
            let old = lastKeyStates[key]
            if old?.memory != state.memory || old?.queue != state.queue || old?.image != state.image || old?.model != state.model {
                var entry = state
                entry.eventIndex = index
                timeline.histories[key, default: []].append(entry)
                touched.append(key)
            }
        }
        lastKeyStates = states
        timeline.events.append(Timeline.Event(
            index: index, lane: Self.lane(of: event), kind: event.kind, summary: "\(event.summary) → \(outcome)",
            details: [], keys: touched, files: fileStates()))
        self.timeline = timeline
    }

    /// Notes the failure the run ended with, naming the record its detail names first.
    func recordTimelineFailure(_ failure: InvariantViolation) {
        guard var timeline else { return }
        let key = timeline.histories.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            .filter { failure.detail.contains($0) }
            .max { $0.utf8.count < $1.utf8.count }
        timeline.failure = Timeline.Failure(eventIndex: failure.eventIndex, invariant: failure.invariant, detail: failure.detail, key: key)
        self.timeline = timeline
    }

    static func lane(of event: SimEvent) -> Timeline.Lane {
        switch event {
        case .quit, .kill, .powerLoss, .relaunch, .corruptFile: .process
        case .drain, .drainPartway: .writer
        case .fault: .disk
        default: .main
        }
    }

    /// Every record's state now: memory, queued write, image row and model.
    private func keyStates() -> [String: Timeline.KeyState] {
        var states: [String: Timeline.KeyState] = [:]
        func update(_ key: String, _ body: (inout Timeline.KeyState) -> Void) {
            var state = states[key] ?? Timeline.KeyState(eventIndex: 0)
            body(&state)
            states[key] = state
        }
        if let process {
            for key in process.store.baseKeys {
                let text = ModelPrinter.record(process.store.baseData(of: key).map(ModelRecord.init))
                update(key.rawValue) { $0.memory = text }
            }
            for row in process.image.dumpRecords() {
                let text = "used \(row.used) " + ModelPrinter.record(row.record.map(ModelRecord.init))
                update(row.key.rawValue) { $0.image = text }
            }
        }
        for batch in model.pendingBatches {
            for snapshot in batch.snapshots {
                var record = ModelRecord(typename: snapshot.typename, deleted: snapshot.deleted)
                for named in snapshot.cells { record.cells[named.storageKey] = named.cell }
                let text = (snapshot.hydrated ? "replaces " : "merges ") + ModelPrinter.record(record)
                update(snapshot.key.rawValue) { $0.queue = text }
            }
        }
        for (key, record) in model.logical.records {
            update(key.rawValue) { $0.model = ModelPrinter.record(record) }
        }
        return states
    }

    /// The simulated disk's files now.
    private func fileStates() -> [Timeline.FileState] {
        disk.fileNames.map { name in
            Timeline.FileState(
                name: name, size: disk.bytes(of: name)?.count ?? 0, durableSize: disk.durableBytes(of: name)?.count ?? 0,
                pendingOperations: disk.pendingWriteCount(of: name) ?? 0)
        }
    }
}
