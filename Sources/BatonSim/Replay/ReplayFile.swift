import Baton

/// What a hand-written scenario expects after an event.
package struct Expectation: Hashable, Sendable {
    /// For a check: `available`, `missing`, `fresh` or `stale` (the last two imply available).
    package var availability: String?
    /// For a check: `memory` or `image`.
    package var source: String?
    /// For a check: the data read back afterwards.
    package var data: JSONValue?
    /// Rows of the image (read through SQL): key → the cells it must hold (record-source values),
    /// or null when the row must be absent.
    package var image: [String: JSONValue]?

    package init(availability: String? = nil, source: String? = nil, data: JSONValue? = nil, image: [String: JSONValue]? = nil) {
        self.availability = availability
        self.source = source
        self.data = data
        self.image = image
    }
}

/// An event of a schedule with what a scenario expects after it.
package struct ScheduledEvent: Hashable, Sendable {
    package var event: SimEvent
    package var expect: Expectation?

    package init(_ event: SimEvent, expect: Expectation? = nil) {
        self.event = event
        self.expect = expect
    }
}

/// A replay file: a schedule as JSON, one event per line, editable by hand.
///
/// ```
/// {"baton-replay": 1, "seed": 7, "mutant": null, "invariant": "…", "events": [
///   {"event": "response", "operation": "CharacterHeader", "variables": {"id": "1"}, "response": {"data": …}},
///   {"event": "check", "operation": "CharacterScreen", "variables": {"id": "1"}, "expect": {"availability": "available"}}
/// ]}
/// ```
package struct ReplayFile: Hashable, Sendable {
    package var seed: UInt64?
    package var mutant: Mutant?
    /// The invariant the schedule broke when it was recorded (informational).
    package var invariant: String?
    /// The mutant that puts back the bug this scenario guards against: the scenario must fail under it.
    package var guards: Mutant?
    package var events: [ScheduledEvent]

    package init(seed: UInt64? = nil, mutant: Mutant? = nil, invariant: String? = nil, guards: Mutant? = nil, events: [ScheduledEvent]) {
        self.seed = seed
        self.mutant = mutant
        self.invariant = invariant
        self.guards = guards
        self.events = events
    }

    /// The file's text.
    package func render() -> String {
        var header: [String: JSONValue] = ["baton-replay": .int(1)]
        if let seed { header["seed"] = .int(Int(bitPattern: UInt(seed))) }
        if let mutant { header["mutant"] = .string(mutant.rawValue) }
        if let invariant { header["invariant"] = .string(invariant) }
        if let guards { header["guards"] = .string(guards.rawValue) }
        var text = CanonicalJSON.render(.object(header))
        text.removeLast()
        text += ",\"events\":[\n"
        for (index, scheduled) in events.enumerated() {
            text += "  " + CanonicalJSON.render(Self.json(scheduled))
            text += index == events.count - 1 ? "\n" : ",\n"
        }
        text += "]}\n"
        return text
    }

    /// Parses a replay file's text.
    package static func parse(_ text: String) throws -> ReplayFile {
        let root = try JSONValue.parse(Array(text.utf8))
        guard case .object(let members) = root, case .array(let items)? = members["events"] else {
            throw ReplayError("a replay file is an object with an \"events\" array")
        }
        var file = ReplayFile(events: [])
        if case .int(let seed)? = members["seed"] { file.seed = UInt64(UInt(bitPattern: seed)) }
        if case .string(let name)? = members["mutant"] {
            guard let mutant = Mutant(rawValue: name) else { throw ReplayError("unknown mutant \(name)") }
            file.mutant = mutant
        }
        if case .string(let invariant)? = members["invariant"] { file.invariant = invariant }
        if case .string(let name)? = members["guards"] {
            guard let mutant = Mutant(rawValue: name) else { throw ReplayError("unknown mutant \(name) in \"guards\"") }
            file.guards = mutant
        }
        for (index, item) in items.enumerated() {
            do {
                file.events.append(try event(item))
            } catch let error as ReplayError {
                throw ReplayError("event \(index): \(error.message)")
            }
        }
        return file
    }

    // MARK: - Events as JSON

    static func json(_ scheduled: ScheduledEvent) -> JSONValue {
        var object: [String: JSONValue] = ["event": .string(scheduled.event.kind)]
        switch scheduled.event {
        case .response(let operation, let variables, let body):
            object["operation"] = .string(operation)
            object["variables"] = .object(variables)
            object["response"] = body
        case .optimistic(let layer, let operation, let variables, let body), .answer(let layer, let operation, let variables, let body):
            object["layer"] = .int(layer)
            object["operation"] = .string(operation)
            object["variables"] = .object(variables)
            object["response"] = body
        case .fail(let layer):
            object["layer"] = .int(layer)
        case .retain(let token, let operation, let variables):
            object["token"] = .int(token)
            object["operation"] = .string(operation)
            object["variables"] = .object(variables)
        case .release(let token):
            object["token"] = .int(token)
        case .check(let operation, let variables, let expiration):
            object["operation"] = .string(operation)
            object["variables"] = .object(variables)
            if let expiration { object["expiration"] = .double(expiration) }
        case .drainPartway(let steps):
            object["steps"] = .int(steps)
        case .advanceClock(let seconds):
            object["seconds"] = .double(seconds)
        case .powerLoss(let seed), .corruptFile(let seed):
            object["seed"] = .int(Int(bitPattern: UInt(seed)))
        case .fault(let on, let code):
            object["on"] = .string(on)
            object["code"] = .string(code)
        case .collect, .drain, .invalidate, .quit, .kill, .relaunch:
            break
        }
        if let expect = scheduled.expect {
            var e: [String: JSONValue] = [:]
            if let availability = expect.availability { e["availability"] = .string(availability) }
            if let source = expect.source { e["source"] = .string(source) }
            if let data = expect.data { e["data"] = data }
            if let image = expect.image { e["image"] = .object(image) }
            object["expect"] = .object(e)
        }
        return .object(object)
    }

    static func event(_ item: JSONValue) throws -> ScheduledEvent {
        guard case .object(let o) = item, case .string(let kind)? = o["event"] else {
            throw ReplayError("each event is an object with an \"event\" name")
        }
        func string(_ key: String) throws -> String {
            guard case .string(let s)? = o[key] else { throw ReplayError("\(kind) needs a string \"\(key)\"") }
            return s
        }
        func int(_ key: String) throws -> Int {
            guard case .int(let i)? = o[key] else { throw ReplayError("\(kind) needs a whole number \"\(key)\"") }
            return i
        }
        func number(_ key: String) throws -> Double {
            switch o[key] {
            case .int(let i)?: return Double(i)
            case .double(let d)?: return d
            default: throw ReplayError("\(kind) needs a number \"\(key)\"")
            }
        }
        func variables() throws -> [String: JSONValue] {
            switch o["variables"] {
            case nil, .null?: return [:]
            case .object(let v)?: return v
            default: throw ReplayError("\(kind): \"variables\" must be an object")
            }
        }
        func body() throws -> JSONValue {
            guard let body = o["response"] else { throw ReplayError("\(kind) needs a \"response\"") }
            return body
        }
        let event: SimEvent
        switch kind {
        case "response": event = .response(operation: try string("operation"), variables: try variables(), body: try body())
        case "optimistic": event = .optimistic(layer: try int("layer"), operation: try string("operation"), variables: try variables(), body: try body())
        case "answer": event = .answer(layer: try int("layer"), operation: try string("operation"), variables: try variables(), body: try body())
        case "fail": event = .fail(layer: try int("layer"))
        case "retain": event = .retain(token: try int("token"), operation: try string("operation"), variables: try variables())
        case "release": event = .release(token: try int("token"))
        case "check": event = .check(operation: try string("operation"), variables: try variables(), expiration: o["expiration"] == nil ? nil : try number("expiration"))
        case "collect": event = .collect
        case "drain": event = .drain
        case "drainPartway": event = .drainPartway(steps: try int("steps"))
        case "advanceClock": event = .advanceClock(seconds: try number("seconds"))
        case "invalidate": event = .invalidate
        case "quit": event = .quit
        case "kill": event = .kill
        case "powerLoss": event = .powerLoss(seed: UInt64(UInt(bitPattern: try int("seed"))))
        case "relaunch": event = .relaunch
        case "corruptFile": event = .corruptFile(seed: UInt64(UInt(bitPattern: try int("seed"))))
        case "fault":
            let on = try string("on"), code = try string("code")
            guard ["write", "sync", "read"].contains(on), ["ioerr", "full"].contains(code) else {
                throw ReplayError("fault takes \"on\": write|sync|read and \"code\": ioerr|full")
            }
            event = .fault(on: on, code: code)
        default: throw ReplayError("unknown event \"\(kind)\"")
        }
        var expect: Expectation?
        if case .object(let e)? = o["expect"] {
            var x = Expectation()
            if case .string(let a)? = e["availability"] {
                guard ["available", "missing", "fresh", "stale"].contains(a) else { throw ReplayError("availability is available|missing|fresh|stale") }
                x.availability = a
            }
            if case .string(let s)? = e["source"] { x.source = s }
            x.data = e["data"]
            if case .object(let rows)? = e["image"] { x.image = rows }
            expect = x
        }
        return ScheduledEvent(event, expect: expect)
    }
}

/// A replay file that does not parse, with what is wrong.
package struct ReplayError: Error, CustomStringConvertible {
    package let message: String
    init(_ message: String) { self.message = message }
    package var description: String { message }
}
