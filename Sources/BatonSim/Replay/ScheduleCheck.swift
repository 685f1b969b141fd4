import Baton

/// What a schedule's events would do, read without running them: which events name operations
/// the simulator does not know, and which would do nothing (releasing a token no live retain
/// holds, failing a layer that is not live, killing a process that is not running …).
///
/// The rules follow the runner's: the first process is up before event 0; an event that needs a
/// process launches one; `quit`, `kill`, `powerLoss`, `drainPartway` and `corruptFile` end it,
/// and with it its retained tokens and optimistic layers; `relaunch` quits the running process
/// first. A replay file with such an event is refused, and the shrinker drops them before it
/// writes one, so every file it writes reads back.
package enum ScheduleCheck {
    /// One event's problem.
    package struct Problem: Hashable, Sendable, CustomStringConvertible {
        package var index: Int
        package var message: String
        /// True when the event would do nothing (the shrinker may drop it); false for an error
        /// no edit of the schedule's order fixes, such as an unknown operation.
        package var isNoOp: Bool

        package var description: String { "event \(index): \(message)" }
    }

    /// Every problem of `events` in `world`, in order.
    package static func problems(_ events: [ScheduledEvent], world: World = .standard) -> [Problem] {
        var state = ScheduleState(world: world)
        var problems: [Problem] = []
        for (index, scheduled) in events.enumerated() {
            if let problem = state.step(scheduled, index: index) { problems.append(problem) }
        }
        return problems
    }

    /// `events` without the ones that would do nothing, or that ``problems(_:)`` refuses for
    /// another reason (an operation the simulator lacks, which the runner skips too): what the
    /// shrinker writes.
    package static func withoutNoOps(_ events: [ScheduledEvent], world: World = .standard) -> [ScheduledEvent] {
        var state = ScheduleState(world: world)
        var kept: [ScheduledEvent] = []
        kept.reserveCapacity(events.count)
        for scheduled in events {
            // A dropped event leaves the state as it was: the next one is judged without it.
            var trial = state
            if trial.step(scheduled, index: kept.count) == nil {
                state = trial
                kept.append(scheduled)
            }
        }
        return kept
    }
}

/// The part of a run's state that decides whether an event does anything.
private struct ScheduleState {
    let world: World
    var processUp = true
    /// Where the last process ended, for messages.
    var lastEnd: (index: Int, kind: String)?
    /// Live tokens and layers, with the event that made each.
    var tokens: [Int: Int] = [:]
    var layers: [Int: Int] = [:]
    /// Tokens released or lost with a process, for messages.
    var gone: [Int: String] = [:]
    /// The `drainBegins` whose drain is still in flight, and where the last one ended.
    var drainInFlight: Int?
    var lastDrainEnd: String?

    mutating func step(_ scheduled: ScheduledEvent, index: Int) -> ScheduleCheck.Problem? {
        let event = scheduled.event
        if !processUp, !event.endsProcess, !event.launches, !event.armsDisk {
            processUp = true
        }
        if drainInFlight != nil, !event.runsWhileDrainInFlight {
            drainInFlight = nil
            lastDrainEnd = "event \(index) (\(event.kind)) finished the drain first"
        }
        if let problem = unknownOperation(event, index: index) { return problem }
        if let problem = expectationProblem(scheduled, index: index) { return problem }
        func noOp(_ message: String) -> ScheduleCheck.Problem {
            ScheduleCheck.Problem(index: index, message: message, isNoOp: true)
        }
        switch event {
        case .response, .check, .collect, .drain, .invalidate, .advanceClock, .fault, .readFault, .diskFull:
            return nil
        case .drainBegins:
            drainInFlight = index
            return nil
        case .drainEnds:
            guard drainInFlight != nil else {
                return noOp("drainEnds does nothing: no drain is in flight" + (lastDrainEnd.map { " (\($0))" } ?? ""))
            }
            drainInFlight = nil
            lastDrainEnd = "event \(index) ended the last"
            return nil
        case .erase:
            // The erase drops every live layer: a later answer or fail of one does nothing.
            layers = [:]
            return nil
        case .answer(let layer, _, _, _):
            layers[layer] = nil
            return nil
        case .optimistic(let layer, _, _, _):
            if let holder = layers[layer] {
                return noOp("optimistic layer \(layer) does nothing: event \(holder) already holds layer \(layer) (fail or answer it first, or number this one anew)")
            }
            layers[layer] = index
            return nil
        case .fail(let layer):
            guard layers.removeValue(forKey: layer) != nil else {
                return noOp("fail of layer \(layer) does nothing: no live optimistic event holds layer \(layer)")
            }
            return nil
        case .retain(let token, _, _):
            if let holder = tokens[token] {
                return noOp("retain of token \(token) does nothing: event \(holder) already retains token \(token) (release it first, or number this one anew)")
            }
            tokens[token] = index
            gone[token] = nil
            return nil
        case .release(let token):
            guard tokens.removeValue(forKey: token) != nil else {
                let why = gone[token] ?? "no event retains token \(token)"
                return noOp("release of token \(token) does nothing: \(why)")
            }
            gone[token] = "event \(index) already released it"
            return nil
        case .relaunch, .relaunchOpeningLater, .relaunchLocked, .upgrade, .formatUpgrade:
            if processUp { end(at: index, kind: event.kind) }
            processUp = true
            return nil
        case .corruptFile, .bitRot:
            if processUp { end(at: index, kind: event.kind) }
            return nil
        case .openCrash:
            // Its own process ends, whether or not one ran before it.
            end(at: index, kind: event.kind)
            return nil
        case .powerLoss where !processUp:
            // The power goes while the app is closed: what the OS still held may be lost.
            return nil
        case .quit, .kill, .powerLoss, .drainPartway, .quitCrash:
            guard processUp else {
                let since = lastEnd.map { " (the \($0.kind) at event \($0.index) ended it)" } ?? ""
                return noOp("\(event.kind) does nothing: no process is running\(since)")
            }
            end(at: index, kind: event.kind)
            return nil
        }
    }

    private mutating func end(at index: Int, kind: String) {
        for token in tokens.keys {
            gone[token] = "token \(token) was retained in a process that ended at event \(index) (\(kind))"
        }
        tokens = [:]
        layers = [:]
        processUp = false
        lastEnd = (index, kind)
    }

    private func unknownOperation(_ event: SimEvent, index: Int) -> ScheduleCheck.Problem? {
        let name: String
        switch event {
        case .response(let operation, _, _), .optimistic(_, let operation, _, _), .answer(_, let operation, _, _),
             .retain(_, let operation, _), .check(let operation, _, _):
            name = operation
        default:
            return nil
        }
        guard world.operation(named: name) == nil else { return nil }
        let known = world.operations.map(\.name).joined(separator: ", ")
        return ScheduleCheck.Problem(index: index, message: "\(event.kind) names operation \"\(name)\", which the world \(world.name) does not have (it has \(known))", isNoOp: false)
    }

    private func expectationProblem(_ scheduled: ScheduledEvent, index: Int) -> ScheduleCheck.Problem? {
        guard let expect = scheduled.expect else { return nil }
        var isCheck = false
        if case .check = scheduled.event { isCheck = true }
        if expect.data != nil, !isCheck {
            return ScheduleCheck.Problem(index: index, message: "expect.data goes on a check event, not on \(scheduled.event.kind)", isNoOp: false)
        }
        if expect.readsImage, scheduled.event.endsProcess {
            let key = expect.image.map { $0.records != nil ? "image" : $0.root != nil ? "root" : "fetches" } ?? "oneOf"
            return ScheduleCheck.Problem(
                index: index, message: "expect.\(key) needs a running process, and \(scheduled.event.kind) ends it (put it on the relaunch that follows)",
                isNoOp: false)
        }
        return nil
    }
}
