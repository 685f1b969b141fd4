import Baton

/// The specification's "Field Selection Merging": fields that share a response key on the same
/// object must be the same field with the same arguments, because the executor runs them once;
/// and fields that share one anywhere in a selection set, whatever object they land on, must
/// answer values of the same shape (`SameResponseShape`), because the response has one place for
/// the key.
extension OperationValidator {
    func checkMerging(_ selections: [Document.SelectionNode], on parent: String) throws {
        let fields = SelectionWalk.fields(selections, on: parent, fragments: fragments)
        var order: [String] = []
        var groups: [String: [(field: Document.FieldNode, parent: String)]] = [:]
        for entry in fields {
            if groups[entry.field.responseKey] == nil { order.append(entry.field.responseKey) }
            groups[entry.field.responseKey, default: []].append(entry)
        }
        for key in order {
            let group = groups[key]!
            let first = group[0]
            for other in group.dropFirst() where canMeet(first.parent, other.parent) {
                if other.field.name != first.field.name {
                    throw error(
                        "\"\(key)\" names both \"\(first.field.name)\" and \"\(other.field.name)\"; fields that share a response key must be the same field",
                        at: other.field)
                }
                if !Self.sameArguments(first.field.arguments, other.field.arguments) {
                    throw error("\"\(key)\" is selected twice with different arguments; give one of them an alias", at: other.field)
                }
            }
            for other in group.dropFirst() {
                try checkSameShape(first, other, key: key, depth: 0)
            }
            guard let type = schema.field(first.field.name, on: first.parent)?.type.namedType,
                schema.type(named: type)?.isComposite == true
            else { continue }
            let merged = group.filter { $0.field.name == first.field.name }.flatMap { $0.field.selections ?? [] }
            try checkMerging(merged, on: type)
        }
    }

    /// The spec's `SameResponseShape` of two fields answered under one response key: the same
    /// non-null and list wrappers, the same scalar or enum type at the bottom, and for objects the
    /// same for every pair of their subfields that share a response key (compared with the first
    /// of each key).
    private func checkSameShape(
        _ a: (field: Document.FieldNode, parent: String), _ b: (field: Document.FieldNode, parent: String), key: String, depth: Int
    ) throws {
        guard depth < 64, var typeA = schema.field(a.field.name, on: a.parent)?.type, var typeB = schema.field(b.field.name, on: b.parent)?.type
        else { return }
        let writtenA = typeA
        let writtenB = typeB
        func mismatch() -> WorldError {
            error(
                "\"\(key)\" answers \"\(writtenA)\" (\(a.parent).\(a.field.name)) in one selection and \"\(writtenB)\" (\(b.parent).\(b.field.name)) in another; fields that share a response key must answer the same shape, so give one of them an alias",
                at: b.field)
        }
        while true {
            switch (typeA, typeB) {
            case (.nonNull(let x), .nonNull(let y)), (.list(let x), .list(let y)):
                typeA = x
                typeB = y
                continue
            case (.named(let x), .named(let y)):
                guard let namedA = schema.type(named: x), let namedB = schema.type(named: y) else { return }
                if namedA.isLeaf || namedB.isLeaf {
                    if x != y { throw mismatch() }
                    return
                }
                let fields = SelectionWalk.fields(a.field.selections ?? [], on: x, fragments: fragments)
                    + SelectionWalk.fields(b.field.selections ?? [], on: y, fragments: fragments)
                var firsts: [String: (field: Document.FieldNode, parent: String)] = [:]
                for entry in fields {
                    guard let first = firsts[entry.field.responseKey] else {
                        firsts[entry.field.responseKey] = entry
                        continue
                    }
                    try checkSameShape(first, entry, key: entry.field.responseKey, depth: depth + 1)
                }
                return
            default:
                throw mismatch()
            }
        }
    }

    /// Two selections on these parent types can land on the same object: the same type, or one of
    /// them abstract.
    private func canMeet(_ a: String, _ b: String) -> Bool {
        a == b || schema.type(named: a)?.kind != .object || schema.type(named: b)?.kind != .object
    }

    /// The same arguments, in any order, with values equal up to where they are written.
    static func sameArguments(_ a: [GraphQLArgument], _ b: [GraphQLArgument]) -> Bool {
        guard a.count == b.count else { return false }
        return a.allSatisfy { argument in
            b.contains { $0.name == argument.name && sameValue($0.value, argument.value) }
        }
    }

    static func sameValue(_ a: GraphQLValue, _ b: GraphQLValue) -> Bool {
        switch (a, b) {
        case (.variable(let x, _), .variable(let y, _)): x == y
        case (.list(let x), .list(let y)): x.count == y.count && zip(x, y).allSatisfy { sameValue($0, $1) }
        case (.object(let x), .object(let y)):
            x.count == y.count && x.allSatisfy { field in y.contains { $0.name == field.name && sameValue($0.value, field.value) } }
        case (.string(let x), .string(let y)): x.utf8.elementsEqual(y.utf8)
        default: a == b
        }
    }
}
