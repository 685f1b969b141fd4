/// An operation's data read back from the store.
public struct ReadResult: Hashable, Sendable {
    /// Response-shaped data; fields the store lacks are left out.
    public var data: JSONValue
    /// True when nothing selected was absent.
    public var isComplete: Bool
    /// The field errors stored beside the cells the read met, in the order it met them.
    public var errors: [ReadError] = []
    /// Where the read found nothing, dotted (`character.location.name`, list indices as numbers),
    /// in the order it met them, the first ``ReadResult/missingLimit``: a field memory holds no
    /// cell for, or a link to a record memory does not hold. Empty when ``isComplete``.
    public var missing: [String] = []

    /// The most places ``missing`` names.
    public static let missingLimit = 20

    /// The read as a GraphQL response: `data`, and `errors` when the read met any (each with its
    /// message, its path in this read, its `extensions` and other members when the server sent
    /// them).
    public var response: JSONValue {
        guard !errors.isEmpty else { return .object(["data": data]) }
        return .object(["data": data, "errors": .array(errors.map(\.json))])
    }
}

/// A field error met by a read: the error the server reported for a field, and where this read
/// met the field.
public struct ReadError: Hashable, Sendable {
    /// The error as the store keeps it (its `path` is where the response that brought it put it).
    public var error: FieldError
    /// Where this read met the field: its response keys (aliases) and list indices.
    public var path: [JSONValue]

    /// The error as a response's `errors` member holds it: its other members as the response
    /// gave them (`locations`, GitHub's `type`), its message, this read's path, its extensions.
    public var json: JSONValue {
        var members = JSONObject()
        if let others = error.otherMembers, case .object(let given)? = JSONValue.tree(canonical: others) {
            members = given
        }
        members["message"] = .string(error.message)
        members["path"] = .array(path)
        if let extensions = error.extensions {
            members["extensions"] = JSONValue.tree(canonical: extensions) ?? .string(extensions)
        }
        return .object(members)
    }
}

extension Store {
    /// Reads `plan` back from the visible records as response-shaped JSON (memory only: the check
    /// is what hydrates). A deleted record reads as null, through a link and at its position in a
    /// list alike (as Relay reads a nonexistent record).
    public func read(_ plan: Plan, variables: Variables) -> ReadResult {
        var reader = ReadBackWalk(store: self, variables: variables)
        let root = visible(plan.rootKey) ?? RecordData(typename: plan.rootTypename)
        let data = reader.object(root, sets: [plan.selections])
        return ReadResult(data: data, isComplete: reader.complete, errors: reader.errors, missing: reader.missing)
    }
}

/// One read-back walk.
@MainActor
struct ReadBackWalk {
    let store: Store
    let variables: Variables
    var complete = true
    /// The errors met so far.
    var errors: [ReadError] = []
    /// Where nothing was found so far (see ``ReadResult/missing``).
    var missing: [String] = []
    /// Where the walk is. Kept as plain steps (a `JSONValue` is boxed: one allocation per step)
    /// and made JSON only for an error's path.
    private var path: [PathStep] = []

    /// The error's element indices (``FieldError/elementIndices``) when they lead to a null
    /// element of the field's `value`: the error is about that element, and reads back at it, as
    /// the response that brought it put the null there. Otherwise none: the error explains the
    /// field's own null, or its element is no longer null, and it reads back at the field.
    static func elementIndices(of error: FieldError, in value: Value) -> [JSONValue] {
        let indices = error.elementIndices
        guard !indices.isEmpty else { return [] }
        var element = value
        for index in indices {
            switch element {
            case .list(let items) where index < items.count:
                element = items[index]
            case .links(let keys) where index < keys.count:
                element = keys[index].map(Value.link) ?? .null
            default:
                return []
            }
        }
        return element == .null ? indices.map { .int($0) } : []
    }

    private enum PathStep {
        case key(String)
        case index(Int)

        var json: JSONValue {
            switch self {
            case .key(let key): .string(key)
            case .index(let index): .int(index)
            }
        }

        var text: String {
            switch self {
            case .key(let key): key
            case .index(let index): String(index)
            }
        }
    }

    /// The read is incomplete: notes where, below the current path and `step`.
    private mutating func noteMissing(_ step: PathStep? = nil) {
        complete = false
        guard missing.count < ReadResult.missingLimit + (store.configuration.mutant.isOn(.missingLimitOffByOne) ? 1 : 0) else { return }
        missing.append((path + (step.map { [$0] } ?? [])).map(\.text).joined(separator: "."))
    }

    init(store: Store, variables: Variables) {
        self.store = store
        self.variables = variables
    }

    mutating func object(_ data: RecordData, sets: [SelectionSet]) -> JSONValue {
        if sets.count == 1 || store.configuration.mutant.isOn(.readBackKeepsFirstSelection) {
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
        var members = JSONObject()
        members.reserveCapacity(fields.count)
        for merged in fields {
            let responseKey = merged.field.responseKey
            let field = merged.field
            if field.isTypename {
                members[responseKey] = .string(data.typename)
                continue
            }
            guard let cell = data.cells[field.readSlot(variables)] else {
                noteMissing(.key(responseKey))
                continue
            }
            path.append(.key(responseKey))
            defer { path.removeLast() }
            if !store.configuration.mutant.isOn(.readBackDropsErrors) {
                for error in cell.errors {
                    let given = store.configuration.mutant.isOn(.readBackFoldsEquivalentNames) ? error.foldingEquivalentNames() : error
                    errors.append(ReadError(error: given, path: path.map(\.json) + Self.elementIndices(of: error, in: cell.value)))
                }
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
        case .decimal(let text): return .decimal(text)
        case .string(let s): return .string(s)
        case .object(let text):
            let tree = JSONValue.tree(canonical: text) ?? .string(text)
            return store.configuration.mutant.isOn(.readBackFoldsEquivalentNames) ? tree.foldingEquivalentNames() : tree
        case .list(let items):
            var out: [JSONValue] = []
            for item in items {
                path.append(.index(out.count))
                defer { path.removeLast() }
                guard let element = self.value(item, subsets: subsets) else { return nil }
                out.append(element)
            }
            return .array(out)
        case .link(let key):
            guard let data = store.visible(key) else {
                noteMissing()
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
                    noteMissing(store.configuration.mutant.isOn(.missingItemNamesItsList) ? nil : .index(out.count))
                    return nil
                }
                if data.deleted {
                    if !store.configuration.mutant.isOn(.deletedDroppedFromList) { out.append(.null) }
                    continue
                }
                path.append(.index(out.count))
                defer { path.removeLast() }
                out.append(object(data, sets: subsets ?? []))
            }
            return .array(out)
        }
    }
}

// MARK: - The mutant readBackFoldsEquivalentNames

extension JSONValue {
    /// The tree as a `[String: …]` dictionary would hold it: of names that differ only in their
    /// Unicode normalization, the last in byte order wins.
    fileprivate func foldingEquivalentNames() -> JSONValue {
        switch self {
        case .array(let items):
            .array(items.map { $0.foldingEquivalentNames() })
        case .object(let members):
            .object(JSONObject(members.mapValues { $0.foldingEquivalentNames() }.dictionary))
        default:
            self
        }
    }
}

extension FieldError {
    /// The error with its extensions and other members folded as ``JSONValue/foldingEquivalentNames()`` folds.
    fileprivate func foldingEquivalentNames() -> FieldError {
        func folded(_ text: String?) -> String? {
            guard let text, let tree = JSONValue.tree(canonical: text) else { return text }
            return CanonicalJSON.render(tree.foldingEquivalentNames())
        }
        var copy = self
        copy.extensions = folded(extensions)
        copy.otherMembers = folded(otherMembers)
        return copy
    }
}
