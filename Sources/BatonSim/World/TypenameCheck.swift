import Baton

/// Refuses an operation that selects a field of an interface or union type without asking for
/// `__typename` on every object type the field can return.
///
/// The store keys an entity `Type:id` and picks the fragments that apply by the object's type, so
/// an abstract object must arrive with its `__typename` (docs/design.md, "Ingest"); a world that
/// leaves it out would fail every seed at ingest instead of once, here, with a place to fix.
///
/// Fields that share a response key merge, so their selections are judged together; `__typename`
/// counts for a possible type when it is selected directly, or inside an inline fragment or a
/// fragment spread whose type condition covers that type (`... on Human { __typename }` and
/// `... on Droid { __typename }` together cover `Character = Human | Droid`). Type conditions are
/// not followed when fields are merged, so the check can only let through what the store might
/// refuse later, never refuse what it would serve.
struct TypenameCheck {
    let schema: Schema
    let fragments: [String: Document.Fragment]
    let source: String
    /// The file each fragment from another file is defined in.
    var fragmentSources: [String: String] = [:]

    func check(_ operation: Document.Operation) throws {
        guard let root = schema.rootTypeName(for: operation.kind) else { return }
        try check(operation.selections, on: root, files: FieldSource(
            operationSelections: operation.selections, fragments: fragments, fragmentSources: fragmentSources, source: source))
    }

    /// One selection set whose fields are of `parent` (or of the types its fragments name).
    private func check(_ selections: [Document.SelectionNode], on parent: String, files: FieldSource) throws {
        var order: [String] = []
        var groups: [String: [(node: Document.FieldNode, type: String)]] = [:]
        collect(selections, on: parent, into: &groups, order: &order, spreading: [])
        for key in order {
            let group = groups[key]!
            guard let first = group.first, first.node.name != "__typename",
                let definition = schema.field(first.node.name, on: first.type),
                let type = schema.type(named: definition.type.namedType), type.isComposite
            else { continue }
            let merged = group.flatMap { $0.node.selections ?? [] }
            if type.kind == .interface || type.kind == .union {
                for possible in schema.possibleTypes(of: type.name) where !selectsTypename(merged, for: possible, spreading: []) {
                    throw WorldError(
                        "field \"\(first.type).\(first.node.name)\" is of the abstract type \"\(type.name)\" and does not select __typename for \"\(possible)\", which the store needs to know each object's type, to key it and to pick its fragments: add __typename to its selection (or have it added everywhere, as Apollo's code generators do: \"addTypename\": true in world.json, --add-typename beside --schema and --operations)",
                        source: files.of(first.node), at: first.node.location)
                }
            }
            try check(merged, on: type.name, files: files)
        }
    }

    /// The fields of `selections` by response key, in the order first met, each with the type it
    /// is selected on; fragments are flattened whatever their type condition.
    private func collect(
        _ selections: [Document.SelectionNode], on parent: String,
        into groups: inout [String: [(node: Document.FieldNode, type: String)]], order: inout [String], spreading: Set<String>
    ) {
        for selection in selections {
            switch selection {
            case .field(let node):
                if groups[node.responseKey] == nil { order.append(node.responseKey) }
                groups[node.responseKey, default: []].append((node, parent))
            case .inlineFragment(let inline):
                collect(inline.selections, on: inline.typeCondition ?? parent, into: &groups, order: &order, spreading: spreading)
            case .fragmentSpread(let spread):
                guard !spreading.contains(spread.name), let fragment = fragments[spread.name] else { continue }
                collect(fragment.selections, on: fragment.typeCondition, into: &groups, order: &order, spreading: spreading.union([spread.name]))
            }
        }
    }

    /// True when `__typename` is selected for objects of the object type `possible`.
    private func selectsTypename(_ selections: [Document.SelectionNode], for possible: String, spreading: Set<String>) -> Bool {
        selections.contains { selection in
            switch selection {
            case .field(let node):
                return node.name == "__typename" && Self.unconditional(node.directives)
            case .inlineFragment(let inline):
                return covers(inline.typeCondition, possible) && Self.unconditional(inline.directives)
                    && selectsTypename(inline.selections, for: possible, spreading: spreading)
            case .fragmentSpread(let spread):
                guard !spreading.contains(spread.name), let fragment = fragments[spread.name] else { return false }
                return covers(fragment.typeCondition, possible) && Self.unconditional(spread.directives)
                    && selectsTypename(fragment.selections, for: possible, spreading: spreading.union([spread.name]))
            }
        }
    }

    /// True when no `@include` or `@skip` can take the selection away.
    private static func unconditional(_ directives: [GraphQLDirective]) -> Bool {
        !directives.contains { $0.name == "include" || $0.name == "skip" }
    }

    /// True when a fragment on `condition` applies to objects of `possible` (no condition always does).
    private func covers(_ condition: String?, _ possible: String) -> Bool {
        guard let condition else { return true }
        return condition == possible || schema.possibleTypes(of: condition).contains(possible)
    }
}
