import Baton

/// `@include`, `@skip`, `@connection` and `@deleteRecord`; other directives are left alone (the
/// server ignores them, as it would a directive of a tool it does not know).
extension OperationValidator {
    /// Checks `directives` written on `field` (nil for operations and fragments, described by `place`).
    func checkDirectives(
        _ directives: [GraphQLDirective], on field: (node: Document.FieldNode, definition: Schema.Field, label: String)?,
        place: String
    ) throws {
        for (index, directive) in directives.enumerated() {
            let known = ["include", "skip", "connection", "deleteRecord"]
            guard known.contains(directive.name) else {
                // An operation's other directives are the store's plan builder's to check; a
                // fragment no operation spreads never reaches it.
                if operation == nil, schema.directive(named: directive.name) == nil {
                    throw error("unknown directive @\(directive.name) (a client directive must be declared in the schema)", at: directive.location)
                }
                continue
            }
            if directives[..<index].contains(where: { $0.name == directive.name }) {
                throw error("@\(directive.name) is given twice", at: directive.location)
            }
            switch directive.name {
            case "include", "skip":
                let condition = [
                    Schema.InputValue(name: "if", description: nil, type: .nonNull(.named("Boolean")), defaultValue: nil, location: .start)
                ]
                try checkArguments(directive.arguments, of: condition, owner: "@\(directive.name)", at: directive.location)
            case "connection":
                guard let field else {
                    throw error("@connection is allowed on fields only, not on \(place)", at: directive.location)
                }
                try checkConnection(directive, on: field.definition, label: field.label)
            default:
                guard let field else {
                    throw error("@deleteRecord is allowed on fields only, not on \(place)", at: directive.location)
                }
                try checkDeleteRecord(directive, on: field.definition, label: field.label)
            }
        }
    }

    /// `@connection(key: "K", filters: ["a"])` on a field whose type is a connection (`filter:`,
    /// Apollo's name, in place of `filters:`).
    private func checkConnection(_ directive: GraphQLDirective, on definition: Schema.Field, label: String) throws {
        try checkOnly(["key", "filters", "filter"], on: directive)
        guard definition.type.listDepth == 0, ConnectionShape.detect(definition.type.namedType, in: schema) != nil else {
            throw error(
                "@connection needs a field whose type is a connection (edges { node } or nodes, and pageInfo { endCursor } or pageInfo { startCursor }); \"\(label)\" is \"\(definition.type)\"",
                at: directive.location)
        }
        guard let key = directive.argument("key") else {
            throw error("@connection needs the argument \"key\"", at: directive.location)
        }
        guard case .string(let text) = key.value, !text.isEmpty else {
            throw error("the key of @connection must be a non-empty string", at: key.location)
        }
        if let apollo = directive.argument("filter"), directive.argument("filters") != nil {
            throw error("@connection takes filters or filter (Apollo's name for it), not both", at: apollo.location)
        }
        guard let filters = directive.argument("filters") ?? directive.argument("filter") else { return }
        let names: [GraphQLValue]
        switch filters.value {
        case .null: return
        case .list(let items): names = items
        case .string: names = [filters.value]
        default: throw error("the filters of @connection must be a list of argument names", at: filters.location)
        }
        for name in names {
            guard case .string(let text) = name else {
                throw error("the filters of @connection must be a list of argument names", at: filters.location)
            }
            guard definition.argument(named: text) != nil else {
                throw error("@connection filter \"\(text)\" is not an argument of \"\(label)\"", at: filters.location)
            }
        }
    }

    /// `@deleteRecord` or `@deleteRecord(typename: "T")` on a field of type ID or String.
    private func checkDeleteRecord(_ directive: GraphQLDirective, on definition: Schema.Field, label: String) throws {
        try checkOnly(["typename"], on: directive)
        guard definition.type.namedType == "ID" || definition.type.namedType == "String" else {
            throw error("@deleteRecord needs a field of type ID or String; \"\(label)\" is \"\(definition.type)\"", at: directive.location)
        }
        guard let typename = directive.argument("typename"), typename.value != .null else { return }
        guard case .string(let name) = typename.value else {
            throw error("the typename of @deleteRecord must be a string", at: typename.location)
        }
        guard WorldTypes.idKind(of: name, in: schema) != nil else {
            throw error("the typename of @deleteRecord must name an object type with an id; \"\(name)\" does not", at: typename.location)
        }
    }

    private func checkOnly(_ allowed: [String], on directive: GraphQLDirective) throws {
        for (index, argument) in directive.arguments.enumerated() {
            guard allowed.contains(argument.name) else {
                throw error("unknown argument \"\(argument.name)\" on @\(directive.name)", at: argument.location)
            }
            if directive.arguments[..<index].contains(where: { $0.name == argument.name }) {
                throw error("argument \"\(argument.name)\" is given twice", at: argument.location)
            }
            if !argument.value.isConstant {
                throw error("the arguments of @\(directive.name) must be literals, not variables", at: argument.location)
            }
        }
    }
}
