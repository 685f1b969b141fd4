import Baton

/// An operation's data as the visible records give it back.
package struct OracleReadResult: Hashable, Sendable {
    /// Response-shaped JSON; fields memory lacks are left out.
    package var data: JSONValue
    /// True when nothing selected was absent.
    package var isComplete: Bool
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
        return OracleReadResult(data: data, isComplete: walk.complete)
    }
}

/// One walk of ``Oracle/expectedRead(operation:variables:)``.
private struct ReadWalk {
    let oracle: Oracle
    let variables: [String: JSONValue]
    var complete = true

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
                complete = false
                continue
            }
            if let value = value(cell.value, subsets: merged.field.selections == nil ? nil : merged.subselections) {
                members[responseKey] = value
            }
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
        case .object(let text):
            return (try? OracleJSONParser.parse(text.string))?.jsonValue ?? .string(text.string)
        case .list(let items):
            var out: [JSONValue] = []
            for item in items {
                guard let element = self.value(item, subsets: subsets) else { return nil }
                out.append(element)
            }
            return .array(out)
        case .link(let key):
            guard let record = oracle.visible(key) else {
                complete = false
                return nil
            }
            return record.deleted ? .null : object(record, sets: subsets ?? [])
        case .links(let keys):
            var out: [JSONValue] = []
            for key in keys {
                guard let key else {
                    out.append(.null)
                    continue
                }
                guard let record = oracle.visible(key) else {
                    complete = false
                    return nil
                }
                out.append(record.deleted ? .null : object(record, sets: subsets ?? []))
            }
            return .array(out)
        }
    }
}
