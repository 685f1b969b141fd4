import Baton

/// One event of a replay file as JSON, both ways. Reading is strict: an unknown event, a field the
/// event does not take, a missing or mistyped field, or a negative count is an error that names it.
enum ReplayEventJSON {
    /// The fields each event kind takes besides `event` and `expect`.
    static let fields: [String: [String]] = [
        "response": ["operation", "variables", "response", "responseText"],
        "optimistic": ["layer", "operation", "variables", "response", "responseText"],
        "answer": ["layer", "operation", "variables", "response", "responseText"],
        "fail": ["layer"],
        "retain": ["token", "operation", "variables"],
        "release": ["token"],
        "check": ["operation", "variables", "expiration"],
        "collect": [], "drain": [], "drainBegins": [], "drainEnds": [], "invalidate": [], "erase": [], "quit": [], "kill": [], "relaunch": [], "relaunchOpeningLater": ["build"], "relaunchLocked": [], "upgrade": [], "formatUpgrade": [],
        "drainPartway": ["steps"],
        "advanceClock": ["seconds"],
        "powerLoss": ["seed"],
        "corruptFile": ["seed"],
        "fault": ["on", "code", "skip"],
        "readFault": ["code", "skip"],
        "diskFull": ["events"],
        "bitRot": ["seed", "afterQuit"],
        "openCrash": ["operations", "powerLossSeed", "build"],
        "quitCrash": ["operations", "powerLossSeed"],
    ]

    /// The keys an `expect` object may hold.
    static let expectKeys = ExpectationJSON.keys

    static func json(_ scheduled: ScheduledEvent) -> JSONValue {
        var object: [String: JSONValue] = ["event": .string(scheduled.event.kind)]
        switch scheduled.event {
        case .response(let operation, let variables, let body):
            object["operation"] = .string(operation)
            object["variables"] = .object(variables)
            write(body, into: &object)
        case .optimistic(let layer, let operation, let variables, let body), .answer(let layer, let operation, let variables, let body):
            object["layer"] = .int(layer)
            object["operation"] = .string(operation)
            object["variables"] = .object(variables)
            write(body, into: &object)
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
        case .bitRot(let seed, let afterQuit):
            object["seed"] = .int(Int(bitPattern: UInt(seed)))
            if afterQuit { object["afterQuit"] = .bool(true) }
        case .fault(let on, let code, let skip):
            object["on"] = .string(on)
            object["code"] = .string(code)
            if let skip { object["skip"] = .int(skip) }
        case .readFault(let code, let skip):
            object["code"] = .string(code)
            object["skip"] = .int(skip)
        case .diskFull(let events):
            object["events"] = .int(events)
        case .openCrash(let operations, let seed, let build):
            object["operations"] = .int(operations)
            if let seed { object["powerLossSeed"] = .int(Int(bitPattern: UInt(seed))) }
            if build != .same { object["build"] = .string(build.rawValue) }
        case .quitCrash(let operations, let seed):
            object["operations"] = .int(operations)
            if let seed { object["powerLossSeed"] = .int(Int(bitPattern: UInt(seed))) }
        case .relaunchOpeningLater(let build):
            if build != .same { object["build"] = .string(build.rawValue) }
        case .collect, .drain, .drainBegins, .drainEnds, .invalidate, .erase, .quit, .kill, .relaunch, .relaunchLocked, .upgrade, .formatUpgrade:
            break
        }
        if let expect = scheduled.expect {
            object["expect"] = ExpectationJSON.json(expect)
        }
        return .object(object)
    }

    /// A response as JSON for people to read, and beside it, when the server's exact text says it
    /// differently (escapes, spacing, member order), that text: the one a replay ingests.
    private static func write(_ body: ResponseBody, into object: inout [String: JSONValue]) {
        switch body {
        case .json(let value):
            object["response"] = value
        case .text(let text):
            guard let value = try? JSONValue.parse(Array(text.utf8)) else {
                object["responseText"] = .string(text)
                return
            }
            object["response"] = value
            if CanonicalJSON.render(value) != text { object["responseText"] = .string(text) }
        }
    }

    static func event(_ item: JSONValue) throws(ReplayError) -> ScheduledEvent {
        guard case .object(let o) = item, case .string(let kind)? = o["event"] else {
            throw ReplayError("each event is an object with an \"event\" name")
        }
        guard let taken = fields[kind] else {
            throw ReplayError("unknown event \"\(kind)\"; the events are \(fields.keys.sorted().joined(separator: ", "))")
        }
        let allowed = Set(taken + ["event", "expect"])
        if let extra = o.keys.sorted().first(where: { !allowed.contains($0) }) {
            let takes = taken.isEmpty ? "takes no fields" : "takes " + taken.joined(separator: ", ")
            throw ReplayError("\(kind) \(takes) (and expect), not \"\(extra)\"")
        }
        let fields = EventFields(kind: kind, object: o)
        let event: SimEvent
        switch kind {
        case "response": event = .response(operation: try fields.string("operation"), variables: try fields.variables(), body: try fields.body())
        case "optimistic": event = .optimistic(layer: try fields.count("layer"), operation: try fields.string("operation"), variables: try fields.variables(), body: try fields.body())
        case "answer": event = .answer(layer: try fields.count("layer"), operation: try fields.string("operation"), variables: try fields.variables(), body: try fields.body())
        case "fail": event = .fail(layer: try fields.count("layer"))
        case "retain": event = .retain(token: try fields.count("token"), operation: try fields.string("operation"), variables: try fields.variables())
        case "release": event = .release(token: try fields.count("token"))
        case "check":
            let expiration = o["expiration"] == nil ? nil : try fields.duration("expiration")
            event = .check(operation: try fields.string("operation"), variables: try fields.variables(), expiration: expiration)
        case "collect": event = .collect
        case "drain": event = .drain
        case "drainBegins": event = .drainBegins
        case "drainEnds": event = .drainEnds
        case "drainPartway": event = .drainPartway(steps: try fields.count("steps"))
        case "advanceClock": event = .advanceClock(seconds: try fields.duration("seconds", mayBeNegative: true))
        case "invalidate": event = .invalidate
        case "erase": event = .erase
        case "quit": event = .quit
        case "kill": event = .kill
        case "powerLoss": event = .powerLoss(seed: try fields.seed("seed"))
        case "relaunch": event = .relaunch
        case "relaunchLocked": event = .relaunchLocked
        case "relaunchOpeningLater": event = .relaunchOpeningLater(build: try fields.build())
        case "upgrade": event = .upgrade
        case "formatUpgrade": event = .formatUpgrade
        case "corruptFile": event = .corruptFile(seed: try fields.seed("seed"))
        case "bitRot": event = .bitRot(seed: try fields.seed("seed"), afterQuit: try fields.flag("afterQuit"))
        case "diskFull": event = .diskFull(events: try fields.count("events"))
        case "openCrash":
            event = .openCrash(
                operations: try fields.count("operations"),
                powerLossSeed: o["powerLossSeed"] == nil ? nil : try fields.seed("powerLossSeed"),
                build: try fields.build())
        case "quitCrash":
            event = .quitCrash(
                operations: try fields.count("operations"),
                powerLossSeed: o["powerLossSeed"] == nil ? nil : try fields.seed("powerLossSeed"))
        case "readFault":
            let code = try fields.string("code")
            guard ["ioerr", "busy"].contains(code) else { throw ReplayError("readFault takes \"code\": ioerr|busy") }
            event = .readFault(code: code, skip: try fields.count("skip"))
        default:
            let on = try fields.string("on"), code = try fields.string("code")
            guard ["write", "sync", "read", "truncate"].contains(on) && ["ioerr", "full"].contains(code)
                    || on == "open" && code == "cantopen" || on == "delete" && code == "ioerr" else {
                throw ReplayError("fault takes \"on\": write|sync|read|truncate and \"code\": ioerr|full, \"on\": open and \"code\": cantopen, or \"on\": delete and \"code\": ioerr")
            }
            event = .fault(on: on, code: code, skip: o["skip"] == nil ? nil : try fields.count("skip"))
        }
        return ScheduledEvent(event, expect: try ExpectationJSON.parse(o["expect"]))
    }
}

/// The fields of one event object, read with errors that name the event and the field.
private struct EventFields {
    let kind: String
    let object: JSONObject

    func string(_ key: String) throws(ReplayError) -> String {
        guard case .string(let s)? = object[key] else { throw ReplayError("\(kind) needs a string \"\(key)\"") }
        return s
    }

    /// A whole number that counts something (a token, a layer, row writes): never negative.
    func count(_ key: String) throws(ReplayError) -> Int {
        guard case .int(let i)? = object[key] else { throw ReplayError("\(kind) needs a whole number \"\(key)\"") }
        guard i >= 0 else { throw ReplayError("\(kind): \"\(key)\" is \(i); it cannot be negative") }
        return i
    }

    /// A number of seconds: never negative.
    /// A number of seconds; negative only where `mayBeNegative` (a clock set back).
    func duration(_ key: String, mayBeNegative: Bool = false) throws(ReplayError) -> Double {
        let value: Double
        switch object[key] {
        case .int(let i)?: value = Double(i)
        case .double(let d)?: value = d
        default: throw ReplayError("\(kind) needs a number \"\(key)\" (seconds)")
        }
        guard value.isFinite else { throw ReplayError("\(kind): \"\(key)\" is \(value) seconds; it must be finite") }
        guard value >= 0 || mayBeNegative else { throw ReplayError("\(kind): \"\(key)\" is \(value) seconds; it cannot be negative") }
        return value
    }

    /// An optional `true` or `false` (absent: false).
    func flag(_ key: String) throws(ReplayError) -> Bool {
        switch object[key] {
        case nil: return false
        case .bool(let b)?: return b
        default: throw ReplayError("\(kind): \"\(key)\" is true or false")
        }
    }

    /// An optional build a launch runs (absent: the same one).
    func build() throws(ReplayError) -> LaunchBuild {
        switch object["build"] {
        case nil: return .same
        case .string(let name)?:
            guard let build = LaunchBuild(rawValue: name) else {
                throw ReplayError("\(kind): \"build\" is one of " + LaunchBuild.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
            }
            return build
        default: throw ReplayError("\(kind): \"build\" is a string (same, app or format)")
        }
    }

    /// A seed: any whole number, kept as its 64 bits.
    func seed(_ key: String) throws(ReplayError) -> UInt64 {
        guard case .int(let i)? = object[key] else { throw ReplayError("\(kind) needs a whole number \"\(key)\"") }
        return UInt64(UInt(bitPattern: i))
    }

    func variables() throws(ReplayError) -> [String: JSONValue] {
        switch object["variables"] {
        case nil, .null?: return [:]
        case .object(let v)?: return v.dictionary
        default: throw ReplayError("\(kind): \"variables\" must be an object")
        }
    }

    /// `response` (JSON), or `responseText` (the exact text, which wins), or both when they agree.
    func body() throws(ReplayError) -> ResponseBody {
        switch (object["response"], object["responseText"]) {
        case (nil, nil):
            throw ReplayError("\(kind) needs a \"response\"")
        case (let json?, nil):
            return .json(json)
        case (let json, .string(let text)?):
            if let json {
                guard let parsed = try? JSONValue.parse(Array(text.utf8)), JSONComparison.equal(parsed, json) else {
                    throw ReplayError("\(kind): \"response\" and \"responseText\" say different things; edit one and delete the other")
                }
            }
            return .text(text)
        default:
            throw ReplayError("\(kind): \"responseText\" is a string (the response's exact text)")
        }
    }
}
