import Baton

/// Reads an operation's data out of model records, as the server would have shaped it: a deleted
/// record reads as null, through a link and in a list; nothing absent is invented.
package struct ModelReader {
    package let lookup: (RecordKey) -> ModelRecord?
    package let variables: Variables

    package init(variables: Variables, lookup: @escaping (RecordKey) -> ModelRecord?) {
        self.variables = variables
        self.lookup = lookup
    }

    /// The data of `plan`, or nil when something selected is absent from the model.
    package func read(_ plan: Plan) -> JSONValue? {
        let root = lookup(plan.rootKey) ?? ModelRecord(typename: plan.rootTypename)
        return object(root, sets: [plan.selections])
    }

    private func object(_ record: ModelRecord, sets: [SelectionSet]) -> JSONValue? {
        var members: [String: JSONValue] = [:]
        var subsets: [String: [SelectionSet]] = [:]
        var fields: [String: FieldSelection] = [:]
        var order: [String] = []
        for set in sets {
            for field in set.fields(for: record.typename, variables: variables) {
                if fields[field.responseKey] == nil {
                    fields[field.responseKey] = field
                    order.append(field.responseKey)
                }
                if let sub = field.selections { subsets[field.responseKey, default: []].append(sub) }
            }
        }
        for responseKey in order {
            let field = fields[responseKey]!
            if field.name == "__typename" {
                members[responseKey] = .string(record.typename)
                continue
            }
            let name = field.connection != nil ? field.connectionStorageKey(variables)! : field.storageKey(variables)
            guard let cell = record.cells[name] else { return nil }
            guard let value = json(cell.value, sets: subsets[responseKey] ?? []) else { return nil }
            members[responseKey] = value
        }
        return .object(members)
    }

    private func json(_ value: Value, sets: [SelectionSet]) -> JSONValue? {
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
                guard let element = json(item, sets: sets) else { return nil }
                out.append(element)
            }
            return .array(out)
        case .link(let key):
            guard let record = lookup(key) else { return nil }
            return record.deleted ? .null : object(record, sets: sets)
        case .links(let keys):
            var out: [JSONValue] = []
            for key in keys {
                guard let key else {
                    out.append(.null)
                    continue
                }
                guard let record = lookup(key) else { return nil }
                if record.deleted {
                    out.append(.null)
                    continue
                }
                guard let element = object(record, sets: sets) else { return nil }
                out.append(element)
            }
            return .array(out)
        }
    }
}

extension ModelReader {
    /// Every record key the operation reaches from its root through records `lookup` holds
    /// (absent records end their branch; deleted ones are reached but not entered).
    package func reachable(_ plan: Plan) -> Set<RecordKey> {
        var keys = Set<RecordKey>()
        var visited = Set<VisitedSet>()
        func visit(_ key: RecordKey, _ set: SelectionSet) {
            guard visited.insert(VisitedSet(key: key, set: ObjectIdentifier(set))).inserted else { return }
            guard let record = lookup(key) else { return }
            keys.insert(key)
            if record.deleted { return }
            for field in set.fields(for: record.typename, variables: variables) where field.name != "__typename" {
                guard let sub = field.selections else { continue }
                let name = field.connection != nil ? field.connectionStorageKey(variables)! : field.storageKey(variables)
                guard let cell = record.cells[name] else { continue }
                cell.value.forEachLink { visit($0, sub) }
            }
        }
        visit(plan.rootKey, plan.selections)
        return keys
    }
}

/// A record reached through a selection set, for walks that must not repeat themselves.
private struct VisitedSet: Hashable {
    let key: RecordKey
    let set: ObjectIdentifier
}
