import Baton

/// What the server and the variable drawer need to know about a world, worked out once when the
/// world is made: entity types, connection types, how each mutation edits, and what each
/// operation's variables are for.
package struct WorldAnalysis: Sendable {
    /// Object types with an `id` of type ID or String, and whether it can be null.
    package let entityTypes: [String: WorldTypes.IDKind]
    /// The entity types, sorted: the order the server numbers them in.
    package let entityTypeNames: [String]
    /// Each entity type's number in ``entityTypeNames``.
    package let entityTypeIndex: [String: Int]
    /// What the executor asks about every named type, in one place.
    package let types: [String: TypeFacts]
    /// Types shaped as connections, by name.
    package let connections: [String: ConnectionShape]
    /// Per mutation operation, the edit of each root field by response key.
    package let mutations: [String: [String: MutationEdit]]
    /// Per operation, what each declared variable is used for.
    package let variables: [String: [String: VariableUse]]
    /// Per operation that pages with cursor variables, the fields (by where they are written) on
    /// the way to those connections: all a probe for the drawer needs to execute.
    package let cursorPaths: [String: Set<GraphQLLocation>]
    /// True when some field looks an entity up by `id` among several entity types (`node(id:)`),
    /// or a mutation edits an object of an interface or union (`addStar(input: {starrableId:})`),
    /// so that ids must be unique across types.
    package let looksUpAcrossTypes: Bool

    package init(schema: Schema, operations: [WorldOperation]) {
        var entityTypes: [String: WorldTypes.IDKind] = [:]
        var connections: [String: ConnectionShape] = [:]
        for name in schema.typeNames {
            if let kind = WorldTypes.idKind(of: name, in: schema) { entityTypes[name] = kind }
            if let shape = ConnectionShape.detect(name, in: schema) { connections[name] = shape }
        }
        self.entityTypes = entityTypes
        let queriesAcrossTypes = schema.typeNames.contains { name in
            schema.type(named: name)?.fields.contains { field in
                field.argument(named: "id").map { WorldTypes.isEntityID($0.type, in: schema) } == true
                    && WorldTypes.entityTypes(of: field.type.namedType, in: schema).count > 1
            } == true
        }
        entityTypeNames = entityTypes.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var index: [String: Int] = [:]
        for (number, name) in entityTypeNames.enumerated() { index[name] = number }
        entityTypeIndex = index
        var types: [String: TypeFacts] = [:]
        for name in schema.typeNames {
            guard let type = schema.type(named: name) else { continue }
            let entities = type.isComposite ? WorldTypes.entityTypes(of: name, in: schema) : []
            types[name] = TypeFacts(
                type: type, entityTypes: entities,
                onlyEntities: !entities.isEmpty && entities.count == schema.possibleTypes(of: name).count,
                connection: connections[name])
        }
        self.types = types
        self.connections = connections
        var cursorPaths: [String: Set<GraphQLLocation>] = [:]
        for operation in operations {
            var fields: Set<GraphQLLocation> = []
            _ = Self.markCursorPaths(
                operation.syntax.selections, on: schema.rootTypeName(for: operation.kind) ?? "", operation: operation, schema: schema,
                connections: connections, into: &fields, entered: [])
            if !fields.isEmpty { cursorPaths[operation.name] = fields }
        }
        self.cursorPaths = cursorPaths
        var mutations: [String: [String: MutationEdit]] = [:]
        var variables: [String: [String: VariableUse]] = [:]
        for operation in operations {
            let edits = (try? MutationEdit.interpret(operation, schema: schema)) ?? [:]
            if !edits.isEmpty { mutations[operation.name] = edits }
            variables[operation.name] = VariableUse.uses(in: operation, schema: schema, connections: connections, edits: edits)
        }
        self.mutations = mutations
        looksUpAcrossTypes = queriesAcrossTypes
            || mutations.values.contains { $0.values.contains { $0.targetTypes.count > 1 } }
        self.variables = variables
    }
}

extension WorldAnalysis {
    /// Marks the fields of `selections` that are, or lead to, a connection field paged by a cursor
    /// variable; true when any does.
    fileprivate static func markCursorPaths(
        _ selections: [Document.SelectionNode], on parent: String, operation: WorldOperation, schema: Schema,
        connections: [String: ConnectionShape], into fields: inout Set<GraphQLLocation>, entered: [String]
    ) -> Bool {
        var found = false
        for selection in selections {
            switch selection {
            case .field(let field):
                guard let definition = schema.field(field.name, on: parent) else { continue }
                var leads = false
                if definition.type.listDepth == 0, connections[definition.type.namedType] != nil {
                    leads = field.arguments.contains { argument in
                        guard argument.name == "after" || argument.name == "before", case .variable = argument.value else { return false }
                        return true
                    }
                }
                if let inner = field.selections,
                    markCursorPaths(inner, on: definition.type.namedType, operation: operation, schema: schema,
                        connections: connections, into: &fields, entered: entered)
                {
                    leads = true
                }
                if leads {
                    fields.insert(field.location)
                    found = true
                }
            case .inlineFragment(let inline):
                if markCursorPaths(inline.selections, on: inline.typeCondition ?? parent, operation: operation, schema: schema,
                    connections: connections, into: &fields, entered: entered)
                {
                    found = true
                }
            case .fragmentSpread(let spread):
                guard !entered.contains(spread.name), let fragment = operation.fragments[spread.name] else { continue }
                if markCursorPaths(fragment.selections, on: fragment.typeCondition, operation: operation, schema: schema,
                    connections: connections, into: &fields, entered: entered + [spread.name])
                {
                    found = true
                }
            }
        }
        return found
    }
}

/// What the executor asks about a named type.
package struct TypeFacts: Sendable {
    /// The type as the schema defines it.
    package let type: Schema.NamedType
    /// The entity types among its possible types (empty for leaves).
    package let entityTypes: [String]
    /// All its possible types are entities (and there are some).
    package let onlyEntities: Bool
    /// Its shape when it is a connection.
    package let connection: ConnectionShape?
}

/// What one variable of an operation is for, so that the drawer can give it a value a real app
/// would send.
package struct VariableUse: Sendable, Hashable {
    /// The role that decides how the value is drawn.
    package enum Role: Sendable, Hashable {
        /// Anything else: drawn from its type.
        case value
        /// The `if` of `@include` or `@skip`.
        case condition
        /// The id of an entity of one of these types.
        case entityID([String])
        /// `first` (false) or `last` (true) of a connection.
        case pageSize(last: Bool)
        /// `after` (false) or `before` (true) of a connection.
        case cursor(before: Bool)
    }

    /// The declared type.
    package let type: GraphQLTypeReference
    package let role: Role
    /// For an input object: the entity types an `id` field inside it names (a mutation's input).
    package let inputIDTypes: [String]
    /// The name of that field: `id`, or one named after the type (`issueId`).
    package var inputIDField = "id"

    /// How much a role says: a variable used in two places takes the stronger role.
    private var strength: Int {
        switch role {
        case .value: 0
        case .condition: 1
        case .entityID: 2
        case .pageSize: 3
        case .cursor: 4
        }
    }

    static func uses(
        in operation: WorldOperation, schema: Schema, connections: [String: ConnectionShape], edits: [String: MutationEdit]
    ) -> [String: VariableUse] {
        var uses: [String: VariableUse] = [:]
        for declaration in operation.syntax.variables {
            uses[declaration.name] = VariableUse(type: declaration.type, role: .value, inputIDTypes: [])
        }
        func note(_ name: String, _ role: Role, inputIDTypes: [String] = [], inputIDField: String = "id") {
            guard let current = uses[name] else { return }
            var candidate = VariableUse(type: current.type, role: role, inputIDTypes: inputIDTypes)
            candidate.inputIDField = inputIDField
            if candidate.strength > current.strength || (candidate.strength == current.strength && current.inputIDTypes.isEmpty) {
                uses[name] = candidate
            }
        }
        func conditions(_ directives: [GraphQLDirective]) {
            for directive in directives where directive.name == "include" || directive.name == "skip" {
                if case .variable(let name, _)? = directive.argument("if")?.value { note(name, .condition) }
            }
        }
        let root = schema.rootTypeName(for: operation.kind) ?? ""
        var stack: [(selections: [Document.SelectionNode], parent: String)] = [(operation.syntax.selections, root)]
        var entered: Set<String> = []
        while let (selections, parent) = stack.popLast() {
            for selection in selections {
                switch selection {
                case .field(let field):
                    conditions(field.directives)
                    guard let definition = schema.field(field.name, on: parent) else { continue }
                    let fieldType = definition.type.namedType
                    let isConnection = connections[fieldType] != nil && definition.type.listDepth == 0
                    let edit = parent == root ? edits[field.responseKey] : nil
                    for argument in field.arguments {
                        guard let input = definition.argument(named: argument.name) else { continue }
                        visit(argument.value, path: [argument.name]) { name, path in
                            if isConnection, path.count == 1, ConnectionShape.pagingArguments.contains(path[0]) {
                                if path[0] == "first" || path[0] == "last" {
                                    note(name, .pageSize(last: path[0] == "last"))
                                } else {
                                    note(name, .cursor(before: path[0] == "before"))
                                }
                            } else if let edit, !edit.creates, path == edit.idArgument {
                                note(name, .entityID(edit.targetTypes))
                            } else if let edit, edit.idArgument.count > 1, path == [edit.idArgument[0]] {
                                note(name, .value, inputIDTypes: edit.targetTypes, inputIDField: edit.idArgument[1])
                            } else if path == ["id"], WorldTypes.isEntityID(input.type, in: schema) {
                                note(name, .entityID(idTypes(of: field, type: fieldType, schema: schema, fragments: operation.fragments)))
                            }
                        }
                    }
                    if let inner = field.selections { stack.append((inner, fieldType)) }
                case .inlineFragment(let inline):
                    conditions(inline.directives)
                    stack.append((inline.selections, inline.typeCondition ?? parent))
                case .fragmentSpread(let spread):
                    conditions(spread.directives)
                    if entered.insert(spread.name).inserted, let fragment = operation.fragments[spread.name] {
                        stack.append((fragment.selections, fragment.typeCondition))
                    }
                }
            }
        }
        return uses
    }

    /// The entity types an `id` argument of `field` should name: those its selections single out
    /// with type conditions (`node(id:) { ... on Issue }` wants issues), else every entity type the
    /// field's type can be.
    private static func idTypes(
        of field: Document.FieldNode, type: String, schema: Schema, fragments: [String: Document.Fragment]
    ) -> [String] {
        let all = WorldTypes.entityTypes(of: type, in: schema)
        var wanted: [String] = []
        for selection in field.selections ?? [] {
            let condition: String? =
                switch selection {
                case .inlineFragment(let inline): inline.typeCondition
                case .fragmentSpread(let spread): fragments[spread.name]?.typeCondition
                case .field: nil
                }
            guard let condition else { continue }
            for name in WorldTypes.entityTypes(of: condition, in: schema) where all.contains(name) && !wanted.contains(name) {
                wanted.append(name)
            }
        }
        return wanted.isEmpty || wanted.count == all.count ? all : wanted.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Calls `body` with every variable inside `value` and the argument path that leads to it.
    private static func visit(_ value: GraphQLValue, path: [String], _ body: (String, [String]) -> Void) {
        switch value {
        case .variable(let name, _): body(name, path)
        case .list(let items): for item in items { visit(item, path: path, body) }
        case .object(let fields): for field in fields { visit(field.value, path: path + [field.name], body) }
        default: break
        }
    }
}
