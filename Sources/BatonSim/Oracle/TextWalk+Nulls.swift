import Baton

/// Nulls that stand where the schema allows none, as a server that skips the specification's
/// propagation writes them: the model carries each up to the nearest place that allows null
/// itself, before it reads the response.
///
/// The rule (the store's documented one, worked out here on the model's own tree): inside each
/// nullable place, the first null in a non-null place (in the order of the text) makes that place
/// null, and nothing else under it is looked at; a null that reaches `data` makes `data` null.
/// Every null so carried must be named by an error whose path is the null's or goes on below it;
/// otherwise the response is not one the schema allows, and a client refuses it.
extension TextWalk {
    /// `data` with its misplaced nulls carried up (`data` nil: `data` itself is null), and
    /// whether there were any.
    ///
    /// - Throws: ``OracleResponseError`` naming a misplaced null no error names.
    mutating func settlingNulls(
        _ data: OracleJSON, sets: [OracleSelectionSet], rootType: String, errorPaths: [[Step]]
    ) throws(OracleResponseError) -> (data: OracleJSON?, carried: Bool) {
        // Most responses hold no such null: a read-only look says so without building paths or
        // a new tree, and the tree is then returned as it came.
        guard holdsMisplacedNull(data, sets: sets, declaredType: rootType) else { return (data, false) }
        var misplaced: [[Step]] = []
        let settled = try settle(data, sets: sets, declaredType: rootType, path: [], misplaced: &misplaced)
        for path in misplaced where !errorPaths.contains(where: { $0.starts(with: path) }) {
            throw OracleResponseError("a null where the schema allows none, and no error names it", path: TextWalk.dotted(path))
        }
        return (settled, !misplaced.isEmpty)
    }

    /// The object `json` with its misplaced nulls carried up; `nil` when one reaches the object
    /// itself (a non-null member is null, or became null).
    private mutating func settle(
        _ json: OracleJSON, sets: [OracleSelectionSet], declaredType: String, path: [Step], misplaced: inout [[Step]]
    ) throws(OracleResponseError) -> OracleJSON? {
        guard case .object(var members) = json else { return json }
        let typename = try self.typename(members, sets: sets, declaredType: declaredType, path: TextWalk.dotted(path))
        let applying = fields(sets, typename)
        for index in members.indices {
            guard let position = applying.byKey[members[index].key], !applying.merged[position].field.isTypename else { continue }
            let written = applying.merged[position].field
            guard let definition = schema.field(written.name, on: definedOn(written, typename)) else { continue }
            let merged = applying.merged[position]
            guard let value = try settle(
                members[index].value, type: definition.type, merged: merged, path: path + [.key(members[index].key.string)],
                misplaced: &misplaced)
            else { return nil }
            members[index].value = value
        }
        return .object(members)
    }

    /// A value of `type` with its misplaced nulls carried up; `nil` when it is (or became) null
    /// and `type` is non-null.
    private mutating func settle(
        _ json: OracleJSON, type: GraphQLTypeReference, merged: OracleMergedField, path: [Step], misplaced: inout [[Step]]
    ) throws(OracleResponseError) -> OracleJSON? {
        switch type {
        case .nonNull(let inner):
            if case .null = json {
                misplaced.append(path)
                return nil
            }
            let value = try settle(json, type: inner, merged: merged, path: path, misplaced: &misplaced)
            if case .null? = value { return nil }
            return value
        case .list(let inner):
            guard case .array(var items) = json else { return json }
            for index in items.indices {
                guard let item = try settle(items[index], type: inner, merged: merged, path: path + [.index(index)], misplaced: &misplaced) else {
                    return .null
                }
                items[index] = item
            }
            return .array(items)
        case .named(let name):
            guard case .object = json, schema.type(named: name)?.isLeaf == false else { return json }
            return try settle(json, sets: merged.subselections, declaredType: name, path: path, misplaced: &misplaced) ?? .null
        }
    }

    /// Whether ``settle(_:sets:declaredType:path:misplaced:)`` would carry a null up: it walks the
    /// same members in the same order and stops at the first null in a non-null place. An object
    /// whose `__typename` the walk refuses answers yes too, so that `settle` meets it and throws
    /// as it would have.
    private mutating func holdsMisplacedNull(_ json: OracleJSON, sets: [OracleSelectionSet], declaredType: String) -> Bool {
        guard case .object(let members) = json else { return false }
        guard let typename = try? self.typename(members, sets: sets, declaredType: declaredType, path: "") else { return true }
        let applying = fields(sets, typename)
        for member in members {
            guard let position = applying.byKey[member.key], let probe = applying.nullProbes[position] else { continue }
            if holdsMisplacedNull(member.value, probe: probe, level: 0, merged: applying.merged[position]) { return true }
        }
        return false
    }

    /// ``holdsMisplacedNull(_:sets:declaredType:)`` for a value at list level `level` of a field.
    private mutating func holdsMisplacedNull(_ json: OracleJSON, probe: NullProbe, level: Int, merged: OracleMergedField) -> Bool {
        if case .null = json { return probe.nonNull[level] }
        if level < probe.nonNull.count - 1 {
            guard case .array(let items) = json else { return false }
            for item in items where holdsMisplacedNull(item, probe: probe, level: level + 1, merged: merged) { return true }
            return false
        }
        guard probe.composite, case .object = json else { return false }
        return holdsMisplacedNull(json, sets: merged.subselections, declaredType: probe.namedType)
    }
}

/// A field's type as the look for misplaced nulls needs it, worked out once per type and sets.
struct NullProbe {
    /// Per list level, outermost first, then the named type: whether a null is not allowed there.
    var nonNull: [Bool]
    /// Whether the named type is an object, interface or union (whose members are looked into).
    var composite: Bool
    var namedType: String

    /// The probe for a field of `type`, or `nil` when no value of it can hold a misplaced null.
    init?(_ type: GraphQLTypeReference, schema: Schema) {
        var levels: [Bool] = []
        var current = type
        while true {
            var required = false
            if case .nonNull(let inner) = current {
                required = true
                current = inner
            }
            levels.append(required)
            guard case .list(let inner) = current else { break }
            current = inner
        }
        nonNull = levels
        namedType = type.namedType
        composite = schema.type(named: namedType)?.isLeaf == false
        if !composite, !levels.contains(true) { return nil }
    }
}
