import Baton

/// Checks one operation of a world against its schema, in the GraphQL specification's sense as far
/// as executing it needs: fields exist where they are selected, leaves have no selections and
/// composites do, arguments exist and their values fit, variables are declared and fit where they
/// are used, fragments exist and can apply, client directives are well formed, fields that share a
/// response key can merge, and the server can generate every type the operation reaches.
///
/// The first problem is thrown as a ``WorldError`` naming the source, line and column: the
/// operation's file, or the file that defines the fragment the problem lies in.
struct OperationValidator {
    let schema: Schema
    /// The operation checked; `nil` while a fragment no operation spreads is checked alone.
    let operation: Document.Operation?
    let fragments: [String: Document.Fragment]
    let source: String
    /// The file each fragment from another file is defined in.
    let fragmentSources: [String: String]
    /// The file of the selections being checked: the operation's, or a fragment's.
    private var currentSource: String
    /// The operation's variables by name.
    private(set) var variables: [String: Document.VariableDeclaration] = [:]
    /// Fragments whose bodies have been checked (a body is checked once, whatever spreads it).
    private var checkedFragments: Set<String> = []
    /// True while a fragment no operation spreads is checked: no operation declares the variables
    /// it uses, so any variable fits anywhere.
    var variablesUnknown: Bool { operation == nil }

    init(
        schema: Schema, operation: Document.Operation?, fragments: [String: Document.Fragment], source: String,
        fragmentSources: [String: String] = [:]
    ) {
        self.schema = schema
        self.operation = operation
        self.fragments = fragments
        self.source = source
        self.fragmentSources = fragmentSources
        self.currentSource = source
    }

    func error(_ message: String, at location: GraphQLLocation) -> WorldError {
        WorldError(message, source: currentSource, at: location)
    }

    /// An error at `field`, naming the file it was written in (the merging check sees fields
    /// of every fragment at once).
    func error(_ message: String, at field: Document.FieldNode) -> WorldError {
        let file = FieldSource(
            operationSelections: operation?.selections ?? [], fragments: fragments, fragmentSources: fragmentSources, source: source
        ).of(field)
        return WorldError(message, source: file, at: field.location)
    }

    mutating func validate() throws {
        guard let operation else { return }
        guard let root = schema.rootTypeName(for: operation.kind), schema.type(named: root) != nil else {
            throw error("the schema has no \(operation.kind.rawValue) type", at: operation.location)
        }
        try declareVariables()
        try checkDirectives(operation.directives, on: nil, place: "an operation")
        try checkSelections(operation.selections, on: root, spreading: [])
        try checkMerging(operation.selections, on: root)
        if operation.kind == .subscription {
            // The spec's "Single Root Field": an event answers one field.
            let keys = Set(SelectionWalk.fields(operation.selections, on: root, fragments: fragments).map(\.field.responseKey))
            if keys.count != 1 {
                throw error(
                    "subscription \"\(operation.name ?? "")\" selects \(keys.count) root fields (\(keys.sorted().joined(separator: ", "))); a subscription selects exactly one",
                    at: operation.location)
            }
        }
    }

    /// Checks the fragment `name`, which no operation of the world spreads, as far as it can be
    /// checked alone (the validator is made with no operation): its type condition, directives,
    /// fields, arguments, the fragments it spreads and the merging of its fields. A code
    /// generator compiles such a fragment all the same, and a typo in it is the user's to know.
    mutating func validateUnspread(_ name: String) throws {
        guard let fragment = fragments[name], !checkedFragments.contains(name) else { return }
        currentSource = fragmentSources[name] ?? source
        try checkTypeCondition(fragment.typeCondition, on: nil, at: fragment.typeConditionLocation)
        try checkDirectives(fragment.directives, on: nil, place: "a fragment definition")
        try checkSelections(fragment.selections, on: fragment.typeCondition, spreading: [name])
        try checkMerging(fragment.selections, on: fragment.typeCondition)
        checkedFragments.insert(name)
    }

    private mutating func declareVariables() throws {
        guard let operation else { return }
        for declaration in operation.variables {
            if variables[declaration.name] != nil {
                throw error("variable \"$\(declaration.name)\" is declared twice", at: declaration.location)
            }
            guard let type = schema.type(named: declaration.type.namedType) else {
                throw error("variable \"$\(declaration.name)\" has the unknown type \"\(declaration.type.namedType)\"", at: declaration.location)
            }
            guard type.isInputType else {
                throw error(
                    "variable \"$\(declaration.name)\" has the type \"\(declaration.type)\", which is not an input type",
                    at: declaration.location)
            }
            if let value = declaration.defaultValue {
                try checkValue(value, fits: declaration.type, at: declaration.location, what: "the default of \"$\(declaration.name)\"")
            }
            variables[declaration.name] = declaration
        }
    }

    /// Checks `selections` made on a value of type `parent`; `spreading` lists the fragments being
    /// expanded, to catch a fragment that spreads itself.
    private mutating func checkSelections(_ selections: [Document.SelectionNode], on parent: String, spreading: [String]) throws {
        for selection in selections {
            switch selection {
            case .field(let node):
                try checkField(node, on: parent, spreading: spreading)
            case .inlineFragment(let inline):
                try checkDirectives(inline.directives, on: nil, place: "an inline fragment")
                var condition = parent
                if let name = inline.typeCondition {
                    try checkTypeCondition(name, on: parent, at: inline.typeConditionLocation ?? inline.location)
                    condition = name
                }
                try checkSelections(inline.selections, on: condition, spreading: spreading)
            case .fragmentSpread(let spread):
                try checkDirectives(spread.directives, on: nil, place: "a fragment spread")
                guard let fragment = fragments[spread.name] else {
                    throw error("unknown fragment \"\(spread.name)\"", at: spread.location)
                }
                if spreading.contains(spread.name) {
                    throw error("fragment \"\(spread.name)\" spreads itself", at: spread.location)
                }
                try checkTypeCondition(fragment.typeCondition, on: parent, at: spread.location)
                if checkedFragments.contains(spread.name) { continue }
                let spreadingSource = currentSource
                currentSource = fragmentSources[spread.name] ?? spreadingSource
                try checkDirectives(fragment.directives, on: nil, place: "a fragment definition")
                try checkSelections(fragment.selections, on: fragment.typeCondition, spreading: spreading + [spread.name])
                currentSource = spreadingSource
                checkedFragments.insert(spread.name)
            }
        }
    }

    private mutating func checkField(_ node: Document.FieldNode, on parent: String, spreading: [String]) throws {
        guard let definition = schema.field(node.name, on: parent) else {
            if node.name == "__schema" || node.name == "__type" {
                // The spec's introspection fields: a real query root has them, but the store keeps
                // an app's data, not its schema, and the server generates only the schema's types.
                throw error(
                    "the introspection field \"\(node.name)\" is not simulated (the store and the server work on the schema's own types); leave the operation out",
                    at: node.location)
            }
            if node.name == "__id" {
                throw error(
                    "field \"__id\" does not exist on \"\(parent)\": Relay's compiler adds it (a record's own key on the client), and neither the store nor the server answers it; take it out",
                    at: node.location)
            }
            throw error("field \"\(node.name)\" does not exist on \"\(parent)\"", at: node.location)
        }
        let label = "\(parent).\(node.name)"
        try checkArguments(node.arguments, of: definition.arguments, owner: "field \"\(label)\"", at: node.location)
        try checkDirectives(node.directives, on: (node, definition, label), place: "a field")
        let typeName = definition.type.namedType
        guard let type = schema.type(named: typeName) else {
            throw error("field \"\(label)\" has the unknown type \"\(typeName)\"", at: node.location)
        }
        if type.isLeaf {
            if node.selections != nil {
                throw error("field \"\(label)\" is a \"\(definition.type)\" and cannot have a selection set", at: node.location)
            }
            return
        }
        guard let selections = node.selections, !selections.isEmpty else {
            throw error("field \"\(label)\" of type \"\(definition.type)\" needs a selection of subfields", at: node.location)
        }
        // What no operation reaches the server never generates.
        if operation != nil { try checkGenerable(typeName, for: label, at: node.location) }
        try checkSelections(selections, on: typeName, spreading: spreading)
    }

    /// A fragment on `name` selected where a `parent` is: the type must be composite and share an
    /// object type with `parent` (when there is one: a fragment no operation spreads has none).
    private func checkTypeCondition(_ name: String, on parent: String?, at location: GraphQLLocation) throws {
        guard let type = schema.type(named: name) else {
            throw error("unknown type \"\(name)\" in a type condition", at: location)
        }
        guard type.isComposite else {
            throw error("a fragment cannot be on \"\(name)\", which is not an object, interface or union", at: location)
        }
        guard let parent else { return }
        let possible = schema.possibleTypeSet(of: name)
        guard schema.possibleTypes(of: parent).contains(where: possible.contains) else {
            throw error("a fragment on \"\(name)\" can never apply where a \"\(parent)\" is selected", at: location)
        }
    }

    /// The server must be able to make a value of `typeName` for `field`: an abstract type needs an
    /// object type, and every object type it can be must be keyable.
    private func checkGenerable(_ typeName: String, for field: String, at location: GraphQLLocation) throws {
        let possible = schema.possibleTypes(of: typeName)
        if possible.isEmpty {
            throw error("field \"\(field)\" has the type \"\(typeName)\", which no object type implements; the server cannot generate it", at: location)
        }
        for name in possible {
            if let reason = WorldTypes.unservableID(of: name, in: schema) {
                throw error("field \"\(field)\" reaches \"\(name)\", which the server cannot generate: \(reason)", at: location)
            }
        }
    }
}
