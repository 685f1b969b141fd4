/// Directives: every one checked against its definition, then `@include`/`@skip`,
/// `@connection` and `@deleteRecord` read; the others have no effect on the plan.
extension PlanBuilder {
    /// Checks the directives written at one place: each one the schema knows (built in or defined
    /// by the SDL), allowed at `place`, given once unless repeatable, with arguments it defines,
    /// of their types (variables recorded as uses), and every required one given.
    mutating func validateDirectives(_ directives: [GraphQLDirective], at place: DirectiveLocation) throws {
        for (index, directive) in directives.enumerated() {
            let name = directive.name
            guard let definition = schema.directive(named: name) else {
                throw GraphQLError(
                    "unknown directive @\(name) (a client directive must be declared in the schema given to Baton: "
                        + "\(suggestedDefinition(of: directive, at: place)))",
                    at: directive.location)
            }
            guard definition.locations.contains(place) else {
                throw GraphQLError("@\(name) is not allowed on \(place.phrase); \(Self.allowedPlaces(of: definition))", at: directive.location)
            }
            if !definition.isRepeatable, directives[..<index].contains(where: { $0.name == name }) {
                throw GraphQLError("@\(name) is given more than once", at: directive.location)
            }
            for (argumentIndex, argument) in directive.arguments.enumerated() {
                guard let argumentDefinition = definition.argument(named: argument.name) else {
                    throw GraphQLError("unknown argument \"\(argument.name)\" on @\(name)", at: argument.location)
                }
                if directive.arguments[..<argumentIndex].contains(where: { $0.name == argument.name }) {
                    throw GraphQLError("argument \"\(argument.name)\" is given more than once", at: argument.location)
                }
                try checkValue(
                    argument.value, as: argumentDefinition.type, hasDefault: argumentDefinition.defaultValue != nil,
                    at: argument.location, position: Position(name: argument.name, owner: " of @\(name)"))
            }
            for argument in definition.arguments
            where argument.type.isNonNull && argument.defaultValue == nil && directive.argument(argument.name) == nil {
                throw GraphQLError("@\(name) needs the argument \"\(argument.name)\"", at: directive.location)
            }
        }
    }

    /// A declaration that would accept `directive` where it is written: the incremental delivery
    /// proposal's own for `@defer` and `@stream`, else one argument per argument given, typed
    /// from its literal or its variable's declaration (`String` when neither says).
    func suggestedDefinition(of directive: GraphQLDirective, at place: DirectiveLocation) -> String {
        switch directive.name {
        case "defer": return "directive @defer(label: String, if: Boolean! = true) on FRAGMENT_SPREAD | INLINE_FRAGMENT"
        case "stream": return "directive @stream(label: String, if: Boolean! = true, initialCount: Int = 0) on FIELD"
        default: break
        }
        let arguments = directive.arguments.map { argument -> String in
            let type: String =
                switch argument.value {
                case .variable(let variable, _): variables[variable].map { "\($0.type)" } ?? "String"
                case .int: "Int"
                case .float, .decimal: "Float"
                case .boolean: "Boolean"
                case .list: "[String]"
                default: "String"
                }
            return "\(argument.name): \(type)"
        }
        let signature = arguments.isEmpty ? "" : "(" + arguments.joined(separator: ", ") + ")"
        return "directive @\(directive.name)\(signature) on \(place.rawValue)"
    }

    /// Where a directive may go, for an error: `it goes on a field or an inline fragment`.
    static func allowedPlaces(of definition: Schema.DirectiveDefinition) -> String {
        let executable: [DirectiveLocation] = [
            .query, .mutation, .subscription, .field, .fragmentDefinition, .fragmentSpread, .inlineFragment,
            .variableDefinition,
        ]
        let places = executable.filter(definition.locations.contains).map(\.phrase)
        guard let last = places.last else { return "it belongs to schema definitions, not to documents" }
        let list = places.count == 1 ? last : places.dropLast().joined(separator: ", ") + " or " + last
        return "it goes on " + list
    }

    /// `selection` under its `@include`/`@skip` directives (already validated): `nil` when a
    /// literal condition drops it, wrapped in one `.condition` per variable condition (the first
    /// directive outermost).
    func applyConditions(_ directives: [GraphQLDirective], to selection: Selection) throws -> Selection? {
        var conditions: [(variable: String, include: Bool)] = []
        var dropped = false
        for directive in directives where directive.name == "include" || directive.name == "skip" {
            let include = directive.name == "include"
            switch directive.argument("if")?.value {
            case .boolean(let value)?:
                if value != (include || mutant.isOn(.literalSkipReadAsInclude)) { dropped = true }
            case .variable(let name, _)?:
                conditions.append((name, include))
            default:
                throw GraphQLError("the condition of @\(directive.name) must be a Boolean or a variable", at: directive.location)
            }
        }
        if dropped { return nil }
        var result = selection
        for condition in conditions.reversed() {
            result = .condition(variable: condition.variable, include: condition.include, SelectionSet([result]))
        }
        return result
    }

    /// `@connection(key: "K", filters: ["a"])` on a field of composite type; Apollo's spelling
    /// `filter: ["a"]` means the same, and only one of the two may be given.
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
        guard let keyArgument = directive.argument("key") else {
            throw GraphQLError("@connection needs the argument \"key\"", at: directive.location)
        }
        guard case .string(let key) = keyArgument.value, !key.isEmpty else {
            throw GraphQLError("the key of @connection must be a non-empty string", at: keyArgument.location)
        }
        if let apollo = directive.argument("filter"), directive.argument("filters") != nil {
            throw GraphQLError("@connection takes filters or filter (Apollo's name for it), not both", at: apollo.location)
        }
        var filters: [String]?
        if let filtersArgument = directive.argument("filters") ?? directive.argument("filter") {
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

    /// The directive called `name`, throwing when it is given more than once.
    private func single(_ name: String, in directives: [GraphQLDirective]) throws -> GraphQLDirective? {
        var found: GraphQLDirective?
        for directive in directives where directive.name == name {
            if found != nil { throw GraphQLError("@\(name) is given more than once", at: directive.location) }
            found = directive
        }
        return found
    }
}
