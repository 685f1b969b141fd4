/// `@include`/`@skip`, `@connection` and `@deleteRecord`; other directives are left alone.
extension PlanBuilder {
    /// `selection` under its `@include`/`@skip` directives: `nil` when a literal condition drops
    /// it, wrapped in one `.condition` per variable condition (the first directive outermost).
    func applyConditions(_ directives: [GraphQLDirective], to selection: Selection) throws -> Selection? {
        var conditions: [(variable: String, include: Bool)] = []
        var dropped = false
        var seen: [String] = []
        for directive in directives where directive.name == "include" || directive.name == "skip" {
            if seen.contains(directive.name) {
                throw GraphQLError("@\(directive.name) is given more than once", at: directive.location)
            }
            seen.append(directive.name)
            try checkArguments(of: directive, allowed: ["if"])
            let include = directive.name == "include"
            guard let condition = directive.argument("if") else {
                throw GraphQLError("@\(directive.name) needs the argument \"if\"", at: directive.location)
            }
            switch condition.value {
            case .boolean(let value):
                if value != include { dropped = true }
            case .variable(let name, let location):
                let declaration = try checkDeclared(name, at: location)
                guard declaration.type.namedType == "Boolean", declaration.type.listDepth == 0 else {
                    throw GraphQLError(
                        "variable \"$\(name)\" of type \"\(declaration.type)\" cannot be the condition of @\(directive.name)",
                        at: location)
                }
                conditions.append((name, include))
            default:
                throw GraphQLError(
                    "the condition of @\(directive.name) must be a Boolean or a variable", at: condition.location)
            }
        }
        if dropped { return nil }
        var result = selection
        for condition in conditions.reversed() {
            result = .condition(variable: condition.variable, include: condition.include, SelectionSet([result]))
        }
        return result
    }

    /// `@connection(key: "K", filters: ["a"])` on a field of composite type.
    func connection(
        _ node: Document.FieldNode, definition: Schema.Field, type: FieldType, parent: Schema.NamedType
    ) throws -> ConnectionDirective? {
        guard let directive = try single("connection", in: node.directives) else { return nil }
        let field = "\(parent.name).\(node.name)"
        guard type.isComposite else {
            throw GraphQLError(
                "@connection needs a field of object, interface or union type; \"\(field)\" is \"\(definition.type)\"",
                at: directive.location)
        }
        try checkArguments(of: directive, allowed: ["key", "filters"])
        guard let keyArgument = directive.argument("key") else {
            throw GraphQLError("@connection needs the argument \"key\"", at: directive.location)
        }
        guard case .string(let key) = keyArgument.value, !key.isEmpty else {
            throw GraphQLError("the key of @connection must be a non-empty string", at: keyArgument.location)
        }
        var filters: [String]?
        if let filtersArgument = directive.argument("filters") {
            let names: [GraphQLValue]
            switch filtersArgument.value {
            case .list(let items): names = items
            case .string: names = [filtersArgument.value]
            case .null: names = []
            default:
                throw GraphQLError("the filters of @connection must be a list of argument names", at: filtersArgument.location)
            }
            if filtersArgument.value != .null {
                filters = try names.map { value in
                    guard case .string(let name) = value else {
                        throw GraphQLError("the filters of @connection must be a list of argument names", at: filtersArgument.location)
                    }
                    guard definition.argument(named: name) != nil else {
                        throw GraphQLError("@connection filter \"\(name)\" is not an argument of \"\(field)\"", at: filtersArgument.location)
                    }
                    return name
                }
            }
        }
        return ConnectionDirective(key: key, filters: filters)
    }

    /// `@deleteRecord` or `@deleteRecord(typename: "T")` on a field of type ID or String (or lists of them).
    func deleteRecord(
        _ node: Document.FieldNode, definition: Schema.Field, type: FieldType, parent: Schema.NamedType
    ) throws -> DeleteRecordDirective? {
        guard let directive = try single("deleteRecord", in: node.directives) else { return nil }
        guard type.kind == .id || type.kind == .string else {
            throw GraphQLError(
                "@deleteRecord needs a field of type ID or String; \"\(parent.name).\(node.name)\" is \"\(definition.type)\"",
                at: directive.location)
        }
        try checkArguments(of: directive, allowed: ["typename"])
        guard let argument = directive.argument("typename") else { return DeleteRecordDirective(typename: nil) }
        if argument.value == .null { return DeleteRecordDirective(typename: nil) }
        guard case .string(let typename) = argument.value else {
            throw GraphQLError("the typename of @deleteRecord must be a string", at: argument.location)
        }
        guard schema.type(named: typename)?.kind == .object else {
            throw GraphQLError("the typename of @deleteRecord must name an object type; \"\(typename)\" does not", at: argument.location)
        }
        return DeleteRecordDirective(typename: typename)
    }

    /// Field-only directives on a fragment are a mistake worth reporting.
    func rejectFieldOnlyDirectives(_ directives: [GraphQLDirective], on place: String) throws {
        for directive in directives where directive.name == "connection" || directive.name == "deleteRecord" {
            throw GraphQLError("@\(directive.name) is allowed on fields only, not on \(place)", at: directive.location)
        }
    }

    /// The directive called `name`, throwing when it is given more than once.
    private func single(_ name: String, in directives: [GraphQLDirective]) throws -> GraphQLDirective? {
        var found: GraphQLDirective?
        for directive in directives where directive.name == name {
            if found != nil { throw GraphQLError("@\(name) is given more than once", at: directive.location) }
            found = directive
        }
        return found
    }

    /// Throws on an argument `directive` does not take, or gets more than once.
    private func checkArguments(of directive: GraphQLDirective, allowed: [String]) throws {
        for (index, argument) in directive.arguments.enumerated() {
            guard allowed.contains(argument.name) else {
                throw GraphQLError("unknown argument \"\(argument.name)\" on @\(directive.name)", at: argument.location)
            }
            if directive.arguments[..<index].contains(where: { $0.name == argument.name }) {
                throw GraphQLError("argument \"\(argument.name)\" is given more than once", at: argument.location)
            }
        }
    }
}
