import Baton

/// A replay file: a schedule as JSON, one event per line, editable by hand.
///
/// ```
/// {"baton-replay": 1, "seed": 7, "invariant": "image-equals-model", "events": [
///   {"event": "response", "operation": "CharacterHeader", "variables": {"id": "1"}, "response": {"data": …}},
///   {"event": "check", "operation": "CharacterScreen", "variables": {"id": "1"}, "expect": {"availability": "available"}}
/// ]}
/// ```
///
/// Reading is strict, so a file never runs other than as written: an unknown header key, format
/// version, event, field or `expect` key, a negative count or duration, an operation the
/// simulator does not have and an event that would do nothing (see ``ScheduleCheck``) are errors
/// that name the event.
package struct ReplayFile: Hashable, Sendable {
    /// The format version this code writes and reads.
    package static let formatVersion = 1

    /// The seed whose disk the replay uses (SQLite's randomness), and the run it came from.
    package var seed: UInt64?
    /// A mutant to switch on while replaying: the file reproduces that mutant's failure.
    package var mutant: Mutant?
    /// The invariant the schedule broke when it was recorded.
    package var invariant: String?
    /// What the violation said in the run it was found in (informational: its event numbers are
    /// that run's, not this schedule's).
    package var detail: String?
    /// The mutant that puts back the bug this scenario guards against: the scenario must pass as
    /// written and fail under it.
    package var guards: Mutant?
    /// What the scenario is about, for people.
    package var note: String?
    /// The world the schedule runs in, by name (`nil`: the default world).
    package var world: String?
    /// The disk the schedule runs on (`nil`: the careful default disk, whatever the seed).
    package var disk: DiskModel?
    /// The writer's bound on queued items the run had (`nil`: production's); a seed's swarm
    /// draws one (see docs/simulator.md, "Faults the schedule injects").
    package var writerBound: Int?
    /// The store's settings the run had (`nil`: production's); a seed's swarm draws them.
    package var store: StoreSettings?
    package var events: [ScheduledEvent]

    package init(seed: UInt64? = nil, mutant: Mutant? = nil, invariant: String? = nil, detail: String? = nil,
                 guards: Mutant? = nil, note: String? = nil, world: String? = nil, disk: DiskModel? = nil,
                 writerBound: Int? = nil, store: StoreSettings? = nil, events: [ScheduledEvent]) {
        self.world = world
        self.store = store
        self.disk = disk
        self.writerBound = writerBound
        self.seed = seed
        self.mutant = mutant
        self.invariant = invariant
        self.detail = detail
        self.guards = guards
        self.note = note
        self.events = events
    }

    /// The header keys a file may hold besides `events`.
    static let headerKeys = ["baton-replay", "seed", "mutant", "guards", "invariant", "detail", "note", "world", "disk", "writerBound", "store"]

    /// The file's text.
    package func render() -> String {
        var header: [String: JSONValue] = ["baton-replay": .int(Self.formatVersion)]
        if let seed { header["seed"] = .int(Int(bitPattern: UInt(seed))) }
        if let mutant { header["mutant"] = .string(mutant.rawValue) }
        if let invariant { header["invariant"] = .string(invariant) }
        if let detail { header["detail"] = .string(detail) }
        if let guards { header["guards"] = .string(guards.rawValue) }
        if let note { header["note"] = .string(note) }
        if let world { header["world"] = .string(world) }
        if let disk { header["disk"] = disk.json }
        if let writerBound { header["writerBound"] = .int(writerBound) }
        if let store { header["store"] = store.json }
        var text = CanonicalJSON.render(.object(header))
        text.removeLast()
        text += ",\"events\":[\n"
        for (index, scheduled) in events.enumerated() {
            text += "  " + CanonicalJSON.render(ReplayEventJSON.json(scheduled))
            text += index == events.count - 1 ? "\n" : ",\n"
        }
        text += "]}\n"
        return text
    }

    /// Parses a replay file's text and checks it against its world: the one its header names (a
    /// built-in world, or `world` when given under that name), else `world`, else the default.
    ///
    /// `checked: false` reads the file without checking its events against a world (to learn
    /// which world its header names first).
    package static func parse(_ text: String, world given: World? = nil, checked: Bool = true) throws(ReplayError) -> ReplayFile {
        let root: JSONValue
        do {
            root = try JSONValue.parse(Array(text.utf8))
        } catch {
            throw ReplayError("not JSON: \(error)")
        }
        guard case .object(let members) = root, case .array(let items)? = members["events"] else {
            throw ReplayError("a replay file is an object with an \"events\" array")
        }
        if let extra = members.keys.sorted().first(where: { $0 != "events" && !headerKeys.contains($0) }) {
            throw ReplayError("unknown header key \"\(extra)\"; the header holds \(headerKeys.joined(separator: ", ")) and events")
        }
        switch members["baton-replay"] {
        case .int(formatVersion)?: break
        case .int(let version)?:
            throw ReplayError("format version \(version): this baton reads version \(formatVersion) (\"baton-replay\": \(formatVersion))")
        default:
            throw ReplayError("a replay file's header starts with \"baton-replay\": \(formatVersion)")
        }
        var file = ReplayFile(events: [])
        switch members["seed"] {
        case nil, .null?: break
        case .int(let seed)?: file.seed = UInt64(UInt(bitPattern: seed))
        default: throw ReplayError("\"seed\" is a whole number")
        }
        file.mutant = try mutant(members["mutant"], key: "mutant")
        file.guards = try mutant(members["guards"], key: "guards")
        file.invariant = try headerText(members["invariant"], key: "invariant")
        file.detail = try headerText(members["detail"], key: "detail")
        file.note = try headerText(members["note"], key: "note")
        file.world = try headerText(members["world"], key: "world")
        file.disk = try DiskModel(replayHeader: members["disk"])
        switch members["writerBound"] {
        case nil, .null?: break
        case .int(let bound)? where bound >= 1: file.writerBound = bound
        default: throw ReplayError("\"writerBound\" is a whole number of at least 1 (items the writer may queue)")
        }
        file.store = try StoreSettings(replayHeader: members["store"])
        for (index, item) in items.enumerated() {
            do {
                file.events.append(try ReplayEventJSON.event(item))
            } catch {
                throw ReplayError("event \(index): \(error.message)")
            }
        }
        guard checked else { return file }
        let world = try resolveWorld(named: file.world, given: given)
        if let problem = ScheduleCheck.problems(file.events, world: world).first {
            throw ReplayError(problem.description)
        }
        return file
    }

    /// The world a file runs in: the one its header names, which must be `given` or built in.
    package static func resolveWorld(named name: String?, given: World?) throws(ReplayError) -> World {
        guard let name else { return given ?? .standard }
        if let given {
            guard given.name == name else {
                throw ReplayError("the file runs in the world \"\(name)\", not in \"\(given.name)\"")
            }
            return given
        }
        guard let world = World.builtIn(name) else {
            throw ReplayError("the file runs in the world \"\(name)\", which is not built in (built in: \(World.builtInNames.joined(separator: ", "))); give its world: its folder with --world or its files with --schema and --operations on the command line, `in:` a SimulationWorld in a test")
        }
        return world
    }

    private static func mutant(_ value: JSONValue?, key: String) throws(ReplayError) -> Mutant? {
        switch value {
        case nil, .null?: return nil
        case .string(let name)?:
            guard let mutant = Mutant(rawValue: name) else {
                throw ReplayError("unknown mutant \"\(name)\" in \"\(key)\"; `baton sim mutants` lists them")
            }
            return mutant
        default: throw ReplayError("\"\(key)\" names a mutant")
        }
    }

    private static func headerText(_ value: JSONValue?, key: String) throws(ReplayError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw ReplayError("\"\(key)\" is a string")
        }
    }
}

/// A replay file that does not parse, with what is wrong.
package struct ReplayError: Error, Hashable, CustomStringConvertible {
    package let message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
