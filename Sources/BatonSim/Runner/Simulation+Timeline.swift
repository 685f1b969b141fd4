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

    /// Every record's state now: the store's memory, the image's row, and the model's view of
    /// the record in memory, in the writer's queue and in the image.
    private func keyStates() -> [String: Timeline.KeyState] {
        var states: [String: Timeline.KeyState] = [:]
        func update(_ key: String, _ body: (inout Timeline.KeyState) -> Void) {
            var state = states[key] ?? Timeline.KeyState(eventIndex: 0)
            body(&state)
            states[key] = state
        }
        if let process {
            for key in process.store.baseKeys {
                guard let data = process.store.baseData(of: key) else { continue }
                let text = OracleDifference.render(OracleBridge.record(data))
                update(key.rawValue) { $0.memory = text }
            }
            if let tables = try? process.image.rawTables(), case .success(let image) = Oracle.decode(OracleBridge.raw(tables)) {
                for (key, row) in image.records {
                    let text = "used \(row.used) " + OracleDifference.render(row.record)
                    update(key.string) { $0.image = text }
                }
            }
        }
        for batch in oracle.queue {
            for snapshot in batch.snapshots {
                let text = (snapshot.hydrated || snapshot.record.deleted ? "replaces " : "merges ") + OracleDifference.render(snapshot.record)
                update(snapshot.key.string) { $0.queue = text }
            }
        }
        for (key, record) in oracle.memory {
            update(key.string) { $0.model = OracleDifference.render(record) }
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
