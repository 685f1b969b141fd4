/// An operation's data read back from the store.
public struct ReadResult: Hashable, Sendable {
    /// Response-shaped data; fields the store lacks are left out.
    public var data: JSONValue
    /// True when nothing selected was absent.
    public var isComplete: Bool
}

extension Store {
    /// Reads `plan` back from the visible records as response-shaped JSON (memory only: the check
    /// is what hydrates). A deleted record reads as null, through a link and at its position in a
    /// list alike (as Relay reads a nonexistent record).
    public func read(_ plan: Plan, variables: Variables) -> ReadResult {
        var reader = ReadBackWalk(store: self, variables: variables)
        let root = visible(plan.rootKey) ?? RecordData(typename: plan.rootTypename)
        let data = reader.object(root, sets: [plan.selections])
        return ReadResult(data: data, isComplete: reader.complete)
    }
}

/// One read-back walk.
@MainActor
struct ReadBackWalk {
    let store: Store
    let variables: Variables
    var complete = true

    init(store: Store, variables: Variables) {
        self.store = store
        self.variables = variables
    }

    mutating func object(_ data: RecordData, sets: [SelectionSet]) -> JSONValue {
        if sets.count == 1 {
            return object(data, fields: sets[0].mergedFields(for: data.typename, variables: variables))
        }
        var order: [String] = []
        var byResponseKey: [String: MergedField] = [:]
        for set in sets {
            for merged in set.mergedFields(for: data.typename, variables: variables) {
                let responseKey = merged.field.responseKey
                if var existing = byResponseKey[responseKey] {
                    existing.subselections += merged.subselections
                    byResponseKey[responseKey] = existing
                } else {
                    order.append(responseKey)
                    byResponseKey[responseKey] = merged
                }
            }
        }
        return object(data, fields: order.map { byResponseKey[$0]! })
    }

    private mutating func object(_ data: RecordData, fields: [MergedField]) -> JSONValue {
        var members: [String: JSONValue] = Dictionary(minimumCapacity: fields.count)
        for merged in fields {
            let responseKey = merged.field.responseKey
            let field = merged.field
            if field.isTypename {
                members[responseKey] = .string(data.typename)
                continue
            }
            guard let cell = data.cells[field.readSlot(variables)] else {
                complete = false
                continue
            }
            if let value = self.value(cell.value, subsets: field.selections == nil ? nil : merged.subselections) {
                members[responseKey] = value
            }
        }
        return .object(members)
    }

    /// The JSON of one value; `nil` when a linked record is absent (the field is then left out).
    private mutating func value(_ value: Value, subsets: [SelectionSet]?) -> JSONValue? {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .object(let text): return (try? JSONValue.parse(text)) ?? .string(text)
        case .list(let items):
            var out: [JSONValue] = []
            for item in items {
                guard let element = self.value(item, subsets: subsets) else { return nil }
                out.append(element)
            }
            return .array(out)
        case .link(let key):
            guard let data = store.visible(key) else {
                complete = false
                return nil
            }
            if data.deleted { return .null }
            return object(data, sets: subsets ?? [])
        case .links(let keys):
            var out: [JSONValue] = []
            for key in keys {
                guard let key else {
                    out.append(.null)
                    continue
                }
                guard let data = store.visible(key) else {
                    complete = false
                    return nil
                }
                if data.deleted {
                    if !store.configuration.mutant.isOn(.deletedDroppedFromList) { out.append(.null) }
                    continue
                }
                out.append(object(data, sets: subsets ?? []))
            }
            return .array(out)
        }
    }
}
