/// Selection sets: fields resolved against the schema, fragments inlined with the object types
/// they apply to.
extension PlanBuilder {
    /// The selections of `nodes` on a value of type `parent`.
    mutating func selectionSet(
        _ nodes: [Document.SelectionNode], in parent: Schema.NamedType, at location: GraphQLLocation
    ) throws -> SelectionSet {
        depth += 1
        if depth > PlanBuilder.maximumDepth {
            throw GraphQLError(
                "selections nest deeper than \(PlanBuilder.maximumDepth) levels (fragments included)", at: location)
        }
        var selections: [Selection] = []
        selections.reserveCapacity(nodes.count)
        for node in nodes {
            let selection: Selection
            let directives: [GraphQLDirective]
            switch node {
            case .field(let field):
                try validateDirectives(field.directives, at: .field)
                selection = .field(try resolve(field, in: parent))
                directives = field.directives
            case .fragmentSpread(let spread):
                try validateDirectives(spread.directives, at: .fragmentSpread)
                selection = try resolve(spread, in: parent)
                directives = spread.directives
            case .inlineFragment(let fragment):
                try validateDirectives(fragment.directives, at: .inlineFragment)
                selection = try resolve(fragment, in: parent)
                directives = fragment.directives
            }
            if let kept = try applyConditions(directives, to: selection) {
                selections.append(kept)
            }
        }
        depth -= 1
        return SelectionSet(
            selections, fragmentsHideConditions: mutant.isOn(.fragmentConditionsHidden),
            nonBooleanConditionsPass: mutant.isOn(.absentConditionKeeps))
    }

    // MARK: Fields

    /// A field of `parent`, with its arguments, sub-selections and directives.
    private mutating func resolve(_ node: Document.FieldNode, in parent: Schema.NamedType) throws -> FieldSelection {
        guard let definition = schema.field(node.name, on: parent.name) else {
            throw GraphQLError("unknown field \"\(node.name)\" on type \"\(parent.name)\"" + Self.unknownFieldHint(node.name), at: node.location)
        }
        guard let type = schema.fieldType(of: definition.type) else {
            throw GraphQLError("field \"\(parent.name).\(node.name)\" has an unknown type", at: node.location)
        }
        let arguments = try self.arguments(node, of: definition, on: parent)
        var selections: SelectionSet?
        if type.isComposite {
            guard let nodes = node.selections, let namedType = schema.type(named: type.namedType) else {
                throw GraphQLError(
                    "field \"\(node.name)\" of type \"\(definition.type)\" needs a selection of subfields",
                    at: node.location)
            }
            selections = try selectionSet(nodes, in: namedType, at: node.location)
        } else if node.selections != nil {
            throw GraphQLError(
                "field \"\(node.name)\" of type \"\(definition.type)\" cannot have a selection of subfields",
                at: node.location)
        }
        let connection = try self.connection(node, definition: definition, type: type, parent: parent)
        if connection != nil, let directive = node.directives.first(where: { $0.name == "connection" }) {
            try checkConnectionSelections(
                selections, field: "\(parent.name).\(node.name)",
                pagingArguments: Set(node.arguments.map(\.name)).intersection(ConnectionDirective.pagingArguments),
                at: directive.location)
        }
        return FieldSelection(
            responseKey: node.responseKey, name: node.name, arguments: arguments, type: type,
            selections: selections,
            connection: connection,
            deleteRecord: try deleteRecord(node, definition: definition, type: type, parent: parent), mutant: mutant)
    }

    // MARK: Fragments

    /// `...Name`: the fragment's selections, applying where its type condition holds.
    private mutating func resolve(_ spread: Document.FragmentSpread, in parent: Schema.NamedType) throws -> Selection {
        guard let fragment = fragments[spread.name] else {
            throw GraphQLError("unknown fragment \"\(spread.name)\"", at: spread.location)
        }
        let condition = try conditionType(fragment.typeCondition, at: fragment.typeConditionLocation)
        let possibleTypes = try self.possibleTypes(
            of: condition, in: parent, at: spread.location, what: "fragment \"\(spread.name)\"")
        if let resolved = resolvedFragments[fragment.name] {
            // A fragment spread again keeps this spread's own type condition: the first spread's
            // resolution is shared, its narrowing is not.
            return .fragment(possibleTypes: mutant.isOn(.spreadCacheDropsCondition) ? nil : possibleTypes, resolved)
        }
        if let start = fragmentPath.firstIndex(of: fragment.name) {
            let cycle = fragmentPath[start...] + [fragment.name]
            throw GraphQLError("fragment cycle: " + cycle.joined(separator: " -> "), at: spread.location)
        }
        try validateDirectives(fragment.directives, at: .fragmentDefinition)
        fragmentPath.append(fragment.name)
        let set = try selectionSet(fragment.selections, in: condition, at: fragment.location)
        fragmentPath.removeLast()
        resolvedFragments[fragment.name] = set
        return .fragment(possibleTypes: possibleTypes, set)
    }

    /// `... on Type { … }` or `... { … }`.
    private mutating func resolve(_ fragment: Document.InlineFragment, in parent: Schema.NamedType) throws -> Selection {
        guard let conditionName = fragment.typeCondition else {
            return .fragment(possibleTypes: nil, try selectionSet(fragment.selections, in: parent, at: fragment.location))
        }
        let condition = try conditionType(conditionName, at: fragment.typeConditionLocation ?? fragment.location)
        let possibleTypes = try self.possibleTypes(
            of: condition, in: parent, at: fragment.location, what: "an inline fragment")
        return .fragment(possibleTypes: possibleTypes, try selectionSet(fragment.selections, in: condition, at: fragment.location))
    }

    /// The composite type a fragment's condition names.
    private func conditionType(_ name: String, at location: GraphQLLocation) throws -> Schema.NamedType {
        guard let type = schema.type(named: name) else {
            throw GraphQLError("unknown type \"\(name)\" in a fragment's type condition", at: location)
        }
        guard type.isComposite else {
            throw GraphQLError("a fragment cannot have the condition \"\(name)\": it is not an object, interface or union", at: location)
        }
        return type
    }

    /// `nil` when the fragment applies to every value of `parent` (no narrowing), else the object
    /// types it applies to; throws when it can never apply there.
    ///
    /// A fragment always applies when its condition is the parent type, or when every object type
    /// the parent can be is one of the condition's: a parent object type the condition includes,
    /// or an abstract parent the condition covers (`... on Node` inside a union of nodes). Saying
    /// `nil` there also lets a reader that does not know the record's type yet (ingest looking for
    /// an aliased `__typename`) see the fragment's fields.
    private func possibleTypes(
        of condition: Schema.NamedType, in parent: Schema.NamedType, at location: GraphQLLocation, what: String
    ) throws -> Set<String>? {
        if condition.name == parent.name { return nil }
        if parent.kind == .object, schema.isPossibleType(parent.name, of: condition.name) { return nil }
        let applies = schema.possibleTypeSet(of: condition.name)
        let parentTypes = schema.possibleTypeSet(of: parent.name)
        if applies.isDisjoint(with: parentTypes) {
            throw GraphQLError(
                "\(what) on \"\(condition.name)\" can never apply within \"\(parent.name)\"", at: location)
        }
        if parentTypes.isSubset(of: applies) { return nil }
        return applies
    }

    /// What a field no schema defines but a client's tools write is, for its error.
    static func unknownFieldHint(_ name: String) -> String {
        switch name {
        case "__id": " (Relay's compiler adds __id, a record's own key on the client; Baton does not answer it: take it out)"
        case "__schema", "__type": " (an introspection field: the store keeps an app's data, not its schema)"
        default: ""
        }
    }
}
