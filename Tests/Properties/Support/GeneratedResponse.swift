import Baton

/// A response generated for an operation, with the oracle's facts about it.
struct GenResponse: Sendable {
    /// The `data` the response carries: what reading the operation back must give.
    let data: GenJSON
    /// The whole response as JSON text.
    let text: String
    /// Every record key the response makes, sorted by UTF-8 bytes (the root included).
    let recordKeys: [String]
    /// What the response holds, counted.
    let stats: GenStats
}

/// Generates the response to a generated operation, as a GraphQL server would execute it.
///
/// Fields are collected per object as GraphQL's CollectFields does (type conditions, `@include`
/// and `@skip` under the variables, fields sharing a response key merged). Values come from
/// tables keyed by (record key, storage key), drawn on first use: an entity reached twice, or a
/// path-keyed object reached twice through the same parent field, carries the same value for
/// the same storage key, and the same composite field links to the same objects. Record keys
/// and storage keys are the oracle's own, written from Baton's documented rules.
struct GenResponseBuilder {
    let schema = GenSchema.shared
    let operation: GenOperation
    private var rng: GenRandom
    private var leaves: [String: GenJSON] = [:]
    private var children: [String: Tree] = [:]
    private var records: Set<String> = []
    private var stats = GenStats()

    /// What a composite slot holds: the objects' types and ids, not their fields.
    private indirect enum Tree {
        case null
        /// `id`: the object's id (`.string` or `.null`), `nil` for a type without an `id` field.
        case object(typename: String, id: GenJSON?)
        case list([Tree])
    }

    init(operation: GenOperation, rng: GenRandom) {
        self.operation = operation
        self.rng = rng
    }

    mutating func build() -> GenResponse {
        let data = object(
            typename: operation.rootTypename, key: operation.rootKey, id: nil, sets: [operation.selections])
        var members: [(String, GenJSON)] = [("data", data)]
        if rng.chance(25) {
            let extensions = GenJSON.object([("cost", .int(rng.int(0...50))), ("trace", .array([.string("a"), .null]))])
            members.insert(("extensions", extensions), at: rng.below(2))
        }
        var writer = GenJSONWriter(style: rng.split())
        writer.write(.object(members))
        let keys = records.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return GenResponse(data: data, text: writer.out, recordKeys: keys, stats: stats)
    }

    // MARK: Objects

    private mutating func object(
        typename: String, key: String, id: GenJSON?, isEntity: Bool = false, sets: [[GenSelection]]
    ) -> GenJSON {
        stats.note("object")
        if !records.insert(key).inserted {
            stats.note(isEntity ? "object: entity reached again" : "object: path-keyed object reached again")
        }
        var members: [(String, GenJSON)] = []
        for (responseKey, fields) in collectFields(sets, typename: typename) {
            let first = fields[0]
            if first.name == "__typename" {
                members.append((responseKey, .string(typename)))
                continue
            }
            if fields.count > 1 { stats.note("field: merged from several selections") }
            if fields.compactMap(\.selections).count > 1 { stats.note("field: sub-selections merged") }
            if first.name == "id" {
                guard let id else { preconditionFailure("id selected on \(typename), which has none") }
                if case .null = id { stats.note("object: null id") }
                members.append((responseKey, id))
                continue
            }
            guard let definition = schema.field(first.name, on: typename) else {
                preconditionFailure("no field \(first.name) on \(typename)")
            }
            let storageKey = self.storageKey(first, definition: definition)
            let slot = key + "\u{1}" + storageKey
            if schema.type(definition.type.namedType).isComposite {
                let tree: Tree
                if let known = children[slot] {
                    tree = known
                } else {
                    tree = drawTree(definition.type)
                    children[slot] = tree
                }
                let subsets = fields.compactMap(\.selections)
                note(tree, abstract: schema.type(definition.type.namedType).isAbstract)
                members.append((responseKey, render(tree, parent: key, field: first.name, storageKey: storageKey, suffix: "", sets: subsets)))
            } else {
                let value: GenJSON
                if let known = leaves[slot] {
                    value = known
                } else {
                    value = drawLeaf(definition.type)
                    leaves[slot] = value
                }
                note(value, depth: 0)
                members.append((responseKey, value))
            }
        }
        return .object(members)
    }

    private mutating func render(
        _ tree: Tree, parent: String, field: String, storageKey: String, suffix: String, sets: [[GenSelection]]
    ) -> GenJSON {
        switch tree {
        case .null:
            return .null
        case .list(let items):
            return .array(items.enumerated().map { index, item in
                render(item, parent: parent, field: field, storageKey: storageKey, suffix: suffix + ":" + String(index), sets: sets)
            })
        case .object(let typename, let id):
            if operation.selectsID(typename, through: field), case .string(let value)? = id {
                // The id's `\` and `:` escaped, so that an id is never read as a path.
                let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ":", with: "\\:")
                return object(typename: typename, key: typename + ":" + escaped, id: id, isEntity: true, sets: sets)
            }
            if id != nil { stats.note("object: path key for a type with an id") }
            return object(typename: typename, key: parent + ":" + storageKey + suffix, id: id, sets: sets)
        }
    }

    // MARK: Counting

    private mutating func note(_ tree: Tree, abstract: Bool, depth: Int = 0) {
        switch tree {
        case .null: stats.note(depth == 0 ? "composite: null object" : "composite: null list element")
        case .object: if abstract { stats.note("composite: object of an abstract type") }
        case .list(let items):
            if items.isEmpty { stats.note("composite: empty list") }
            if depth > 0 { stats.note("composite: nested list of objects") }
            for item in items { note(item, abstract: abstract, depth: depth + 1) }
        }
    }

    private mutating func note(_ value: GenJSON, depth: Int) {
        switch value {
        case .null: stats.note(depth == 0 ? "leaf: null" : "leaf: null list element")
        case .bool: stats.note("leaf: Boolean")
        case .int: stats.note("leaf: int")
        case .double: stats.note("leaf: double")
        case .string(let s):
            if s.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "\"" || $0 == "\\" }) {
                stats.note("leaf: string needing escapes")
            }
            if s.unicodeScalars.contains(where: { $0.value > 0xFFFF }) { stats.note("leaf: string with astral scalars") }
            else if s.unicodeScalars.contains(where: { $0.value > 0x7F }) { stats.note("leaf: string with non-ASCII") }
        case .array(let items):
            if items.isEmpty { stats.note("leaf: empty list") }
            if depth > 0 { stats.note("leaf: nested list") }
            for item in items { note(item, depth: depth + 1) }
        case .object: stats.note("leaf: JSON object")
        }
    }

    // MARK: Drawing values

    private mutating func drawTree(_ type: GenTypeRef) -> Tree {
        if !type.isNonNull, rng.chance(7) { return .null }
        switch type.nullable {
        case .list(let inner):
            let count = rng.weighted([1, 4, 4, 3])
            return .list((0..<count).map { _ in drawTree(inner) })
        default:
            let typename = rng.pick(schema.possibleTypes(of: type.namedType))
            var id: GenJSON?
            if let field = schema.field("id", on: typename) {
                id = !field.type.isNonNull && rng.chance(25) ? .null : .string(GenValues.id(&rng))
            }
            return .object(typename: typename, id: id)
        }
    }

    private mutating func drawLeaf(_ type: GenTypeRef) -> GenJSON {
        if !type.isNonNull, rng.chance(10) { return .null }
        switch type.nullable {
        case .list(let inner):
            let count = rng.weighted([2, 4, 4, 3])
            return .array((0..<count).map { _ in drawLeaf(inner) })
        default:
            let named = schema.type(type.namedType)
            if named.kind == .enumeration { return .string(rng.pick(named.values)) }
            switch named.name {
            case "Int": return .int(GenValues.int(&rng))
            case "Float": return rng.chance(80) ? .double(GenValues.double(&rng)) : .int(rng.int(-3...3))
            case "String": return .string(GenValues.string(&rng))
            case "Boolean": return .bool(rng.chance(50))
            case "ID": return .string(rng.chance(50) ? GenValues.id(&rng) : GenValues.string(&rng))
            default: return GenValues.customObject(&rng, depth: 0)
            }
        }
    }

    // MARK: Collecting fields

    /// The fields that apply to an object of `typename`, grouped by response key in first-seen order.
    private func collectFields(_ sets: [[GenSelection]], typename: String) -> [(String, [GenFieldSelection])] {
        var order: [String] = []
        var groups: [String: [GenFieldSelection]] = [:]
        for set in sets {
            collect(set, typename: typename, order: &order, groups: &groups)
        }
        return order.map { ($0, groups[$0]!) }
    }

    private func collect(
        _ selections: [GenSelection], typename: String, order: inout [String], groups: inout [String: [GenFieldSelection]]
    ) {
        for selection in selections {
            switch selection {
            case .field(let field):
                guard passes(field.directives) else { continue }
                if groups[field.responseKey] == nil { order.append(field.responseKey) }
                groups[field.responseKey, default: []].append(field)
            case .inline(let condition, let directives, let selections):
                guard passes(directives) else { continue }
                if let condition, !applies(condition, to: typename) { continue }
                collect(selections, typename: typename, order: &order, groups: &groups)
            case .spread(let name, let directives):
                guard passes(directives) else { continue }
                let fragment = operation.fragment(name)
                guard applies(fragment.typeCondition, to: typename) else { continue }
                collect(fragment.selections, typename: typename, order: &order, groups: &groups)
            }
        }
    }

    private func applies(_ condition: String, to typename: String) -> Bool {
        condition == typename || schema.isPossible(typename, of: condition)
    }

    /// True when every `@include` holds and no `@skip` does.
    private func passes(_ directives: [GenDirective]) -> Bool {
        for directive in directives {
            let value: Bool
            switch directive.condition {
            case .literal(let b):
                value = b
            case .variable(let name):
                guard case .bool(let b)? = operation.variable(name)?.effective else {
                    preconditionFailure("condition variable \(name) has no Boolean value")
                }
                value = b
            }
            if value != directive.include { return false }
        }
        return true
    }

    // MARK: Storage keys

    /// `name(a:1,b:"x")`: arguments sorted by name, values coerced to their types and written as
    /// canonical JSON, absent variables left out at every depth of objects (an explicit null
    /// stays), no parentheses when none remain.
    func storageKey(_ field: GenFieldSelection, definition: GenField) -> String {
        var parts: [(String, String)] = []
        for (name, value) in field.arguments {
            guard let resolved = resolve(value) else { continue }
            let type = definition.arguments.first { $0.name == name }?.type
            parts.append((name, GenCanonical.render(type.map { coerce(resolved, to: $0) } ?? resolved)))
        }
        if parts.isEmpty { return field.name }
        parts.sort { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        return field.name + "(" + parts.map { $0.0 + ":" + $0.1 }.joined(separator: ",") + ")"
    }

    /// The value under the operation's variables; `nil` for an absent variable.
    private func resolve(_ value: GenValue) -> JSONValue? {
        switch value {
        case .variable(let name):
            return operation.variable(name)?.effective
        case .list(let items):
            return .array(items.map { resolve($0) ?? .null })
        case .object(let fields):
            var members: [String: JSONValue] = [:]
            for (name, member) in fields {
                if let resolved = resolve(member) { members[name] = resolved }
            }
            return .object(members)
        default:
            return value.constant
        }
    }

    /// Input coercion as the spec words it: an integer for a Float is that number as a double, a
    /// whole double for an Int or ID an integer, a single value for a list a list of one, an
    /// input object's fields by their types; anything else as it is.
    private func coerce(_ value: JSONValue, to type: GenTypeRef) -> JSONValue {
        if case .null = value { return value }
        switch type {
        case .nonNull(let inner):
            return coerce(value, to: inner)
        case .list(let item):
            if case .array(let items) = value { return .array(items.map { coerce($0, to: item) }) }
            return .array([coerce(value, to: item)])
        case .named(let name):
            switch (name, value) {
            case ("Float", .int(let number)):
                return .double(Double(number))
            case ("Int", .double(let number)), ("ID", .double(let number)):
                return Int(exactly: number).map { .int($0) } ?? value
            case (_, .object(let members)):
                let input = schema.type(name)
                guard input.kind == .input else { return value }
                var coerced = members
                for field in input.inputFields {
                    if let member = members[field.name] { coerced[field.name] = coerce(member, to: field.type) }
                }
                return .object(coerced)
            default:
                return value
            }
        }
    }
}
