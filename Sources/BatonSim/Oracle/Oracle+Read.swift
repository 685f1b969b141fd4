import Baton

/// An operation's data as the visible records give it back.
package struct OracleReadResult: Hashable, Sendable {
    /// Response-shaped JSON; fields memory lacks are left out.
    package var data: JSONValue
    /// True when nothing selected was absent.
    package var isComplete: Bool
    /// The field errors beside the cells the read meets, as a response's `errors` holds them
    /// (message, the read's own path, extensions), in the order the read meets them; a cell's
    /// several errors in their stored order. An error whose stored path ends in list indices
    /// that lead to a null element of the field's list (it named that element) gets those indices
    /// after the read's path.
    package var errors: [JSONValue] = []
    /// Where the read found nothing, in the order it met them, dotted (response keys and list
    /// indices): a field the record holds no cell for, at the field; a link to a record memory
    /// lacks, at the link (the list element's index for an item). The first twenty only, the
    /// store's documented limit.
    package var missing: [String] = []
}

extension Oracle {
    /// The JSON the store must read back for `operation` from the visible records (memory and
    /// layers, never the image): response keys (aliases), fields sharing a key merged,
    /// `__typename` as the record's type, a deleted record `null` through a link and at its
    /// position in a list, a field whose value memory lacks (or whose linked record memory lacks)
    /// left out.
    package func expectedRead(operation name: String, variables provided: [String: JSONValue]) -> OracleReadResult {
        guard let operation = operations[name] else { return OracleReadResult(data: .null, isComplete: false) }
        var walk = ReadWalk(oracle: self, variables: operation.variables(provided))
        let root = visible(operation.rootKey) ?? OracleRecord(typename: operation.rootTypename)
        let data = walk.object(root, sets: [operation.selections])
        return OracleReadResult(data: data, isComplete: walk.complete, errors: walk.errors, missing: walk.missing)
    }
}

/// One walk of ``Oracle/expectedRead(operation:variables:)``.
private struct ReadWalk {
    let oracle: Oracle
    let variables: [String: JSONValue]
    var complete = true
    var errors: [JSONValue] = []
    var missing: [String] = []
    /// Where the walk is: response keys and list indices (plain steps, made JSON only for an
    /// error: a `JSONValue` is boxed, and every field of every available check is a step).
    var path: [PathStep] = []

    enum PathStep {
        case key(String)
        case index(Int)
    }

    init(oracle: Oracle, variables: [String: JSONValue]) {
        self.oracle = oracle
        self.variables = variables
    }

    mutating func object(_ record: OracleRecord, sets: [OracleSelectionSet]) -> JSONValue {
        var members: [String: JSONValue] = [:]
        for merged in OracleSelectionSet.merged(sets, for: record.typename, variables: variables, schema: oracle.schema) {
            let responseKey = merged.field.node.responseKey
            if merged.field.isTypename {
                members[responseKey] = .string(record.typename)
                continue
            }
            guard let cell = record.cells[merged.field.readSlot(variables)] else {
                path.append(.key(responseKey))
                noteMissing()
                path.removeLast()
                continue
            }
            path.append(.key(responseKey))
            for error in cell.errors { errors.append(json(error, value: cell.value)) }
            if let value = value(cell.value, subsets: merged.field.selections == nil ? nil : merged.subselections) {
                members[responseKey] = value
            }
            path.removeLast()
        }
        return .object(members)
    }

    /// The JSON of one value; `nil` when a record it links to is absent (the field is left out).
    mutating func value(_ value: OracleValue, subsets: [OracleSelectionSet]?) -> JSONValue? {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s.string)
        case .object(let text): return (try? OracleJSONParser.parse(text.string))?.jsonValue ?? .string(text.string)
        case .number(let text): return .decimal(text.string)
        case .link(let key): return linked(key, subsets: subsets)
        case .links(let keys): return items(keys.map { $0.map(OracleValue.link) ?? .null }, subsets: subsets)
        case .list(let values): return items(values, subsets: subsets)
        }
    }

    /// The read is incomplete: where it found nothing is the walk's path.
    private mutating func noteMissing() {
        complete = false
        guard missing.count < 20 else { return }
        missing.append(path.map { step in
            switch step {
            case .key(let key): key
            case .index(let index): String(index)
            }
        }.joined(separator: "."))
    }

    /// A list: every item's JSON, or `nil` as soon as one item links to an absent record.
    private mutating func items(_ values: [OracleValue], subsets: [OracleSelectionSet]?) -> JSONValue? {
        var array: [JSONValue] = []
        array.reserveCapacity(values.count)
        for item in values {
            // A deleted record's place is kept (it reads as null), so the index is the item's own.
            path.append(.index(array.count))
            let json = value(item, subsets: subsets)
            path.removeLast()
            guard let json else { return nil }
            array.append(json)
        }
        return .array(array)
    }

    /// True when `indices` lead through `value`'s lists to a `null` element.
    static func reachesNull(_ value: OracleValue, _ indices: [Int]) -> Bool {
        var value = value
        for index in indices {
            switch value {
            case .list(let items) where index < items.count:
                value = items[index]
            case .links(let keys) where index < keys.count:
                guard let key = keys[index] else { value = .null; continue }
                value = .link(key)
            default:
                return false
            }
        }
        return !indices.isEmpty && value == .null
    }

    /// A stored error as a response's `errors` member holds it, at the walk's path: followed by
    /// its element indices when they lead to a null element of the field's value `value` (the
    /// element it named, or the one its failed field nulled), else at the field (an error
    /// explaining the field's own null).
    private func json(_ error: OracleFieldError, value: OracleValue) -> JSONValue {
        var steps: [JSONValue] = path.map { step in
            switch step {
            case .key(let key): .string(key)
            case .index(let index): .int(index)
            }
        }
        if Self.reachesNull(value, error.elementIndices) { steps += error.elementIndices.map { .int($0) } }
        var members = JSONObject()
        if let others = error.otherMembers, case .object(let given)? = (try? OracleJSONParser.parse(others.string))?.jsonValue {
            members = given
        }
        members["message"] = .string(error.message.string)
        members["path"] = .array(steps)
        if let extensions = error.extensions {
            members["extensions"] = (try? OracleJSONParser.parse(extensions.string))?.jsonValue ?? .string(extensions.string)
        }
        return .object(members)
    }

    /// The linked record's object, `null` for a deleted one; `nil` (incomplete) when memory lacks it.
    private mutating func linked(_ key: OracleText, subsets: [OracleSelectionSet]?) -> JSONValue? {
        guard let record = oracle.visible(key) else {
            noteMissing()
            return nil
        }
        if record.deleted { return .null }
        return object(record, sets: subsets ?? [])
    }
}
