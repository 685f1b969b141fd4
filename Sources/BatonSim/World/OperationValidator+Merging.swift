import Baton

/// The specification's "Field Selection Merging", as far as execution needs: fields that share a
/// response key on the same object must be the same field with the same arguments, because the
/// executor runs them once.
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
            guard let type = schema.field(first.field.name, on: first.parent)?.type.namedType,
                schema.type(named: type)?.isComposite == true
            else { continue }
            let merged = group.filter { $0.field.name == first.field.name }.flatMap { $0.field.selections ?? [] }
            try checkMerging(merged, on: type)
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
