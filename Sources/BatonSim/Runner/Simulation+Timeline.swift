import Baton

/// Where the timeline's recording stands between two events: the trace lines already given to an
/// event, the disk's counters after the last event, and the rows the current event read.
struct TimelineMarks {
    var traceLines = 0
    var counters: SimulatedDisk.Counters?
    var read: Set<OracleText> = []
}

extension Simulation {
    /// Adds the event just run to the timeline: its lane, its trace lines, what the disk did and
    /// holds after it, and the history of every record whose memory, queued write, row or model
    /// state it changed or whose row it read.
    func recordTimeline(_ event: SimEvent, index: Int, outcome: String) {
        guard var timeline else { return }
        var touched: [String] = []
        // With no process running nothing is read, so no record's history moves: the next
        // launch's first event shows what it found.
        let states = process == nil ? lastKeyStates : keyStates()
        let keys = Set(states.keys).union(lastKeyStates.keys).union(timelineMarks.read)
        for key in keys.sorted() {
            var state = states[key] ?? Timeline.KeyState(eventIndex: index)
            state.eventIndex = index
            let changed = lastKeyStates[key].map { !$0.sameState(as: state) } ?? (states[key] != nil)
            if process != nil, changed || timelineMarks.read.contains(key) {
                timeline.histories[key, default: []].append(state)
                touched.append(key.string)
            }
        }
        lastKeyStates = states
        let counters = disk.counters
        let activity = Self.activity(from: timelineMarks.counters, to: counters)
        var details = Array(trace[min(timelineMarks.traceLines, trace.count)...])
        if let line = activity.line { details.append(line) }
        timelineMarks = TimelineMarks(traceLines: trace.count, counters: counters)
        timeline.events.append(Timeline.Event(
            index: index, lane: Self.lane(of: event), kind: event.kind, summary: "\(event.summary) → \(outcome)",
            details: details, keys: touched, files: fileStates(), disk: activity, response: Self.responseShown(by: event)))
        self.timeline = timeline
    }

    /// The response an event delivers, as the page shows it.
    static func responseShown(by event: SimEvent) -> String? {
        switch event {
        case .response(_, _, let body), .optimistic(_, _, _, let body), .answer(_, _, _, let body):
            ResponseDisplay.text(of: body)
        default:
            nil
        }
    }

    /// Notes rows a check read, so the event lists them among the records it touched.
    func markRead(_ reads: [OracleRead]) {
        guard timeline != nil else { return }
        for case .record(let key, _) in reads { timelineMarks.read.insert(key) }
    }

    /// Notes the failure the run ended with, naming the record its first difference (or its
    /// detail) names.
    func recordTimelineFailure(_ failure: InvariantViolation) {
        guard var timeline else { return }
        let text = failure.differences.first ?? failure.detail
        let key = timeline.histories.keys.sorted().map(\.string)
            .filter { text.utf8.contains($0.utf8) }
            .max { $0.utf8.count < $1.utf8.count }
        timeline.failure = Timeline.Failure(
            eventIndex: failure.eventIndex, invariant: failure.invariant, headline: failure.headline ?? failure.detail,
            differences: failure.differences, key: key)
        self.timeline = timeline
    }

    static func lane(of event: SimEvent) -> Timeline.Lane {
        switch event {
        case .quit, .kill, .powerLoss, .relaunch, .relaunchOpeningLater, .relaunchLocked, .upgrade, .formatUpgrade, .openCrash, .quitCrash, .corruptFile, .bitRot: .process
        case .drain, .drainPartway, .drainBegins, .drainEnds: .writer
        case .fault, .readFault, .diskFull: .disk
        default: .main
        }
    }

    /// What the disk did between two readings of its counters.
    static func activity(from before: SimulatedDisk.Counters?, to after: SimulatedDisk.Counters) -> Timeline.DiskActivity {
        guard let before else { return Timeline.DiskActivity() }
        func delta(_ path: KeyPath<SimulatedDisk.Counters, UInt64>) -> Int { Int(after[keyPath: path] &- before[keyPath: path]) }
        return Timeline.DiskActivity(
            writes: delta(\.writes), bytesWritten: delta(\.bytesWritten), syncs: delta(\.syncs), faults: delta(\.injectedFaults),
            kept: delta(\.writesKept), dropped: delta(\.writesDropped), torn: delta(\.writesTorn))
    }

    /// Every record's state now: the store's memory, the image's row, and the model's view of
    /// the record in memory, in the writer's queue and in the image; with the cells where the
    /// store or the image differs from the model.
    private func keyStates() -> [OracleText: Timeline.KeyState] {
        var states: [OracleText: Timeline.KeyState] = [:]
        var memory: [OracleText: OracleRecord] = [:]
        var rows: [OracleText: OracleRow] = [:]
        func update(_ key: OracleText, _ body: (inout Timeline.KeyState) -> Void) {
            var state = states[key] ?? Timeline.KeyState(eventIndex: 0)
            body(&state)
            states[key] = state
        }
        if let process {
            for key in process.store.baseKeys {
                guard let data = process.store.baseData(of: key) else { continue }
                let record = OracleBridge.record(data)
                let text = OracleText(key.rawValue)
                memory[text] = record
                update(text) { $0.memory = OracleDifference.render(record) }
            }
            if heldDrain != nil {
                // A drain in flight holds the image's lock: its rows are as the last event left them.
                for (key, state) in lastKeyStates where state.image != nil {
                    update(key) { $0.image = state.image }
                }
            } else if let image = process.openedImage, let tables = try? image.rawTables(),
                      case .success(let image) = Oracle.decode(OracleBridge.raw(tables)) {
                for (key, row) in image.records {
                    rows[key] = row
                    update(key) { $0.image = Self.render(row) }
                }
            }
        }
        // With no process running, memory and the writer's queue are gone (the model forgets
        // them at the next launch), and nothing reads the image.
        guard process != nil else { return states }
        let inFlight = oracle.drainInFlight?.batches ?? []
        for (position, batch) in (inFlight + oracle.queue).enumerated() {
            for snapshot in batch.snapshots {
                let text = (position < inFlight.count ? "in flight, " : "")
                    + (snapshot.hydrated || snapshot.record.deleted ? "replaces " : "merges ") + OracleDifference.render(snapshot.record)
                update(snapshot.key) { $0.queue = text }
            }
        }
        for (key, record) in oracle.memory {
            update(key) { $0.model = OracleDifference.render(record) }
        }
        for (key, row) in oracle.image.records {
            update(key) { $0.modelImage = Self.render(row) }
        }
        for key in states.keys {
            let state = states[key]!
            var lines: [String] = []
            if state.memory != state.model {
                lines += OracleDifference.records(key: key, expected: oracle.memory[key], actual: memory[key])
                    .map { "memory " + $0 }
            }
            if state.image != state.modelImage {
                lines += OracleDifference.rows(key: key, expected: oracle.image.records[key], actual: rows[key])
                    .map { "image " + $0 }
            }
            states[key]!.differences = lines
        }
        return states
    }

    /// A row as the timeline shows it: its `used` stamp, then the record.
    private static func render(_ row: OracleRow) -> String {
        "used \(row.used) " + OracleDifference.render(row.record)
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
