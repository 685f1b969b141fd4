import Baton

/// A replay file's `expect` object, both ways. Reading is strict: an unknown key (of `expect`, of
/// a state, of a row's `$` keys) or a value of the wrong shape is an error that names where it is.
///
/// ```
/// "expect": {
///   "image": {"Character:1": {"name": "Rick", "$absent": ["status"], "$used": 2,
///                             "$errors": {"species": "unavailable", "episode": ["gone", "late"]}},
///             "Character:2": {"$deleted": true}, "Character:3": null},
///   "root": {"character(id:\"1\")": {"__ref": "Character:1"}, "$absent": ["hero"], "$used": {"character(id:\"1\")": 2}},
///   "fetches": {"CharacterScreen{\"id\":\"1\"}": {"time": 0, "used": 2}, "Notes{\"id\":\"2\"}": null},
///   "oneOf": [{"image": {"Character:3": null}}, {"image": {"Character:3": {"name": "Summer"}}}]
/// }
/// ```
///
/// Storage keys never start with `$` (a field's name cannot), so a row's own keys cannot be
/// mistaken for its cells.
enum ExpectationJSON {
    /// The keys an `expect` object may hold.
    static let keys = ["availability", "source", "data", "image", "root", "fetches", "oneOf"]
    /// The keys of one state of the image (the top of `expect`, or an entry of `oneOf`).
    static let stateKeys = ["image", "root", "fetches"]
    /// A row's own keys besides its cells.
    static let rowKeys = ["$absent", "$deleted", "$errors", "$used"]
    /// The root's own keys besides its fields.
    static let rootKeys = ["$absent", "$errors", "$used"]
    /// The keys of a field error written as an object.
    static let errorKeys = ["message", "path", "extensions", "others"]

    // MARK: Reading

    static func parse(_ value: JSONValue?) throws(ReplayError) -> Expectation? {
        guard let value else { return nil }
        guard case .object(let e) = value else { throw ReplayError("\"expect\" is an object of \(keys.joined(separator: ", "))") }
        if let extra = e.keys.sorted().first(where: { !keys.contains($0) }) {
            throw ReplayError("unknown expect key \"\(extra)\"; expect holds \(keys.joined(separator: ", "))")
        }
        var expect = Expectation()
        switch e["availability"] {
        case nil: break
        case .string(let a)? where ["available", "missing", "fresh", "stale"].contains(a): expect.availability = a
        default: throw ReplayError("expect.availability is available, missing, fresh or stale")
        }
        switch e["source"] {
        case nil: break
        case .string(let s)? where ["memory", "image"].contains(s): expect.source = s
        default: throw ReplayError("expect.source is memory or image")
        }
        expect.data = e["data"]
        if stateKeys.contains(where: { e[$0] != nil }) {
            expect.image = try state(e, at: "expect")
        }
        switch e["oneOf"] {
        case nil: break
        case .array(let states)? where !states.isEmpty:
            var alternatives: [ImageExpectation] = []
            for (position, item) in states.enumerated() {
                let at = "expect.oneOf[\(position)]"
                guard case .object(let o) = item, !o.isEmpty else {
                    throw ReplayError("\(at) is a state of the image: an object of \(stateKeys.joined(separator: ", "))")
                }
                if let extra = o.keys.sorted().first(where: { !stateKeys.contains($0) }) {
                    throw ReplayError("unknown key \"\(extra)\" in \(at); a state holds \(stateKeys.joined(separator: ", "))")
                }
                alternatives.append(try state(o, at: at))
            }
            expect.oneOf = alternatives
        default:
            throw ReplayError("expect.oneOf is a list of states of the image (objects of \(stateKeys.joined(separator: ", "))), at least one")
        }
        return expect
    }

    private static func state(_ o: JSONObject, at path: String) throws(ReplayError) -> ImageExpectation {
        var state = ImageExpectation()
        switch o["image"] {
        case nil: break
        case .object(let rows)?:
            var records: [String: RowExpectation?] = [:]
            for key in rows.keys.sorted() {
                switch rows[key]! {
                case .null: records[key] = .some(nil)
                case .object(let members): records[key] = try row(members, at: "\(path).image[\"\(key)\"]")
                default: throw ReplayError("\(path).image[\"\(key)\"] is an object of cells, or null for no row")
                }
            }
            state.records = records
        default: throw ReplayError("\(path).image is an object: record key → cells, or null for no row")
        }
        switch o["root"] {
        case nil: break
        case .object(let members)?: state.root = try root(members, at: "\(path).root")
        default: throw ReplayError("\(path).root is an object: query-root field → value")
        }
        switch o["fetches"] {
        case nil: break
        case .object(let rows)?:
            var fetches: [String: FetchExpectation?] = [:]
            for identity in rows.keys.sorted() {
                fetches[identity] = try fetch(rows[identity]!, at: "\(path).fetches[\"\(identity)\"]")
            }
            state.fetches = fetches
        default: throw ReplayError("\(path).fetches is an object: operation identity (Name{\"variable\":value}) → time, or null for no row")
        }
        return state
    }

    private static func row(_ members: JSONObject, at path: String) throws(ReplayError) -> RowExpectation {
        if let extra = members.keys.sorted().first(where: { $0.hasPrefix("$") && !rowKeys.contains($0) }) {
            throw ReplayError("unknown row key \"\(extra)\" in \(path); a row holds cells by storage key and \(rowKeys.joined(separator: ", "))")
        }
        var row = RowExpectation()
        row.cells = JSONObject(uniquingNames: members.lazy.filter { !$0.key.hasPrefix("$") }.map { ($0.key, $0.value) })
        row.absent = try names(members["$absent"], at: path + ".$absent")
        row.errors = try errors(members["$errors"], at: path + ".$errors")
        switch members["$deleted"] {
        case nil: break
        case .bool(let deleted)?: row.deleted = deleted
        default: throw ReplayError("\(path).$deleted is true (the row is a deletion) or false")
        }
        row.used = try stamp(members["$used"], at: path + ".$used")
        if let both = row.absent.first(where: { row.cells[$0] != nil }) {
            throw ReplayError("\(path) names \"\(both)\" both as a cell and in $absent")
        }
        if let both = row.absent.first(where: { row.errors[$0] != nil }) {
            throw ReplayError("\(path) names \"\(both)\" in $absent and in $errors (an absent cell has no error)")
        }
        if row.deleted == true, !row.cells.isEmpty || !row.errors.isEmpty {
            throw ReplayError("\(path) is a deletion ($deleted: true): a deleted row holds no cells")
        }
        return row
    }

    private static func root(_ members: JSONObject, at path: String) throws(ReplayError) -> RootExpectation {
        if let extra = members.keys.sorted().first(where: { $0.hasPrefix("$") && !rootKeys.contains($0) }) {
            throw ReplayError("unknown root key \"\(extra)\" in \(path); the root holds fields by storage key and \(rootKeys.joined(separator: ", "))")
        }
        var root = RootExpectation()
        root.cells = JSONObject(uniquingNames: members.lazy.filter { !$0.key.hasPrefix("$") }.map { ($0.key, $0.value) })
        root.absent = try names(members["$absent"], at: path + ".$absent")
        root.errors = try errors(members["$errors"], at: path + ".$errors")
        switch members["$used"] {
        case nil: break
        case .object(let stamps)?:
            for field in stamps.keys.sorted() {
                root.used[field] = try stamp(stamps[field], at: "\(path).$used[\"\(field)\"]")
            }
        default: throw ReplayError("\(path).$used is an object: field → the launch that last used its row")
        }
        if let both = root.absent.first(where: { root.cells[$0] != nil || root.used[$0] != nil || root.errors[$0] != nil }) {
            throw ReplayError("\(path) names \"\(both)\" in $absent and as a field with a row")
        }
        return root
    }

    private static func fetch(_ value: JSONValue, at path: String) throws(ReplayError) -> FetchExpectation? {
        switch value {
        case .null: return nil
        case .int(let time): return FetchExpectation(time: Double(time))
        case .double(let time): return FetchExpectation(time: time)
        case .object(let o):
            if let extra = o.keys.sorted().first(where: { !["time", "used"].contains($0) }) {
                throw ReplayError("unknown key \"\(extra)\" in \(path); a fetch row holds time and used")
            }
            var fetch = FetchExpectation()
            switch o["time"] {
            case nil: break
            case .int(let time)?: fetch.time = Double(time)
            case .double(let time)?: fetch.time = time
            default: throw ReplayError("\(path).time is a number (the clock's seconds)")
            }
            fetch.used = try stamp(o["used"], at: path + ".used")
            return fetch
        default:
            throw ReplayError("\(path) is the fetch time (a number), an object of time and used, or null for no row")
        }
    }

    private static func names(_ value: JSONValue?, at path: String) throws(ReplayError) -> [String] {
        switch value {
        case nil: return []
        case .array(let items)?:
            var names: [String] = []
            for item in items {
                guard case .string(let name) = item else { throw ReplayError("\(path) is a list of storage keys (strings)") }
                names.append(name)
            }
            return names
        default: throw ReplayError("\(path) is a list of storage keys (strings)")
        }
    }

    private static func errors(_ value: JSONValue?, at path: String) throws(ReplayError) -> [String: [FieldErrorExpectation]] {
        switch value {
        case nil: return [:]
        case .object(let entries)?:
            var errors: [String: [FieldErrorExpectation]] = [:]
            for field in entries.keys.sorted() {
                let at = "\(path)[\"\(field)\"]"
                switch entries[field]! {
                case .null: errors[field] = []
                case .array(let items):
                    var list: [FieldErrorExpectation] = []
                    for (index, item) in items.enumerated() { list.append(try fieldError(item, at: "\(at)[\(index)]")) }
                    errors[field] = list
                case let single: errors[field] = [try fieldError(single, at: at)]
                }
            }
            return errors
        default:
            throw ReplayError("\(path) is an object: storage key → the error (or a list of the field's errors, in order), or null for no error")
        }
    }

    private static func fieldError(_ value: JSONValue, at path: String) throws(ReplayError) -> FieldErrorExpectation {
        switch value {
        case .string(let message): return FieldErrorExpectation(message: message)
        case .object(let o):
            if let extra = o.keys.sorted().first(where: { !errorKeys.contains($0) }) {
                throw ReplayError("unknown key \"\(extra)\" in \(path); a field error holds \(errorKeys.joined(separator: ", "))")
            }
            guard case .string(let message)? = o["message"] else { throw ReplayError("\(path) needs a string \"message\"") }
            var error = FieldErrorExpectation(message: message)
            switch o["path"] {
            case nil: break
            case .string(let text)?: error.path = text
            default: throw ReplayError("\(path).path is a string (as the image keeps it: character.notes)")
            }
            error.extensions = o["extensions"]
            switch o["others"] {
            case nil, .object?: error.otherMembers = o["others"]
            default: throw ReplayError("\(path).others is an object: the error's members besides message, path and extensions")
            }
            return error
        default:
            throw ReplayError("\(path) is the error's message or an object of \(errorKeys.joined(separator: ", "))")
        }
    }

    private static func stamp(_ value: JSONValue?, at path: String) throws(ReplayError) -> Int? {
        switch value {
        case nil: return nil
        case .int(let used)? where used >= 0: return used
        default: throw ReplayError("\(path) is a launch's generation: a whole number, not negative")
        }
    }

    // MARK: Writing

    static func json(_ expect: Expectation) -> JSONValue {
        var e: [String: JSONValue] = [:]
        if let availability = expect.availability { e["availability"] = .string(availability) }
        if let source = expect.source { e["source"] = .string(source) }
        if let data = expect.data { e["data"] = data }
        if let image = expect.image { e.merge(state(image)) { _, new in new } }
        if let states = expect.oneOf { e["oneOf"] = .array(states.map { .object(state($0)) }) }
        return .object(e)
    }

    private static func state(_ state: ImageExpectation) -> [String: JSONValue] {
        var o: [String: JSONValue] = [:]
        if let records = state.records {
            o["image"] = .object(records.mapValues { row in row.map { .object(Self.row($0)) } ?? .null })
        }
        if let root = state.root {
            var members = root.cells
            if !root.absent.isEmpty { members["$absent"] = .array(root.absent.map { .string($0) }) }
            if !root.used.isEmpty { members["$used"] = .object(root.used.mapValues { .int($0) }) }
            if !root.errors.isEmpty { members["$errors"] = .object(root.errors.mapValues(errors)) }
            o["root"] = .object(members)
        }
        if let fetches = state.fetches {
            o["fetches"] = .object(fetches.mapValues { fetch in
                guard let fetch else { return .null }
                if fetch.used == nil, let time = fetch.time { return .double(time) }
                var members: [String: JSONValue] = [:]
                if let time = fetch.time { members["time"] = .double(time) }
                if let used = fetch.used { members["used"] = .int(used) }
                return .object(members)
            })
        }
        return o
    }

    private static func row(_ row: RowExpectation) -> JSONObject {
        var members = row.cells
        if !row.absent.isEmpty { members["$absent"] = .array(row.absent.map { .string($0) }) }
        if let deleted = row.deleted { members["$deleted"] = .bool(deleted) }
        if let used = row.used { members["$used"] = .int(used) }
        if !row.errors.isEmpty { members["$errors"] = .object(row.errors.mapValues(errors)) }
        return members
    }

    /// A field's errors: null for none, the error alone for one, else the list of them.
    private static func errors(_ errors: [FieldErrorExpectation]) -> JSONValue {
        switch errors.count {
        case 0: .null
        case 1: error(errors[0])
        default: .array(errors.map(error))
        }
    }

    private static func error(_ error: FieldErrorExpectation) -> JSONValue {
        guard error.path != nil || error.extensions != nil || error.otherMembers != nil else { return .string(error.message) }
        var members: [String: JSONValue] = ["message": .string(error.message)]
        if let path = error.path { members["path"] = .string(path) }
        if let extensions = error.extensions { members["extensions"] = extensions }
        if let others = error.otherMembers { members["others"] = others }
        return .object(members)
    }
}
