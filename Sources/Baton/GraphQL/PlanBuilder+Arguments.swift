/// Argument values: checked against the field's argument definitions, literals become JSON,
/// variables are kept by name.
extension PlanBuilder {
    /// The arguments of a field, each one the schema defines, given once, of its type; every
    /// required argument (non-null without a default) given.
    mutating func arguments(
        _ node: Document.FieldNode, of definition: Schema.Field, on parent: Schema.NamedType
    ) throws -> [ArgumentField] {
        let nodes = node.arguments
        let field = "\(parent.name).\(definition.name)"
        var arguments: [ArgumentField] = []
        arguments.reserveCapacity(nodes.count)
        for (index, argument) in nodes.enumerated() {
            guard let argumentDefinition = definition.argument(named: argument.name) else {
                throw GraphQLError("unknown argument \"\(argument.name)\" on field \"\(field)\"", at: argument.location)
            }
            if nodes[..<index].contains(where: { $0.name == argument.name }) {
                throw GraphQLError("argument \"\(argument.name)\" is given more than once", at: argument.location)
            }
            try checkValue(
                argument.value, as: argumentDefinition.type, hasDefault: argumentDefinition.defaultValue != nil,
                at: argument.location, position: Position(name: argument.name, owner: " of field \"\(field)\""))
            let value = try argumentValue(argument.value)
            arguments.append(ArgumentField(
                name: argument.name,
                value: mutant.isOn(.inputsNotCoerced) ? value : InputRewrite(schema: schema).argument(value, as: argumentDefinition.type)))
        }
        for argument in definition.arguments
        where argument.type.isNonNull && argument.defaultValue == nil && !nodes.contains(where: { $0.name == argument.name }) {
            throw GraphQLError(
                "field \"\(field)\" needs the argument \"\(argument.name)\" (\(argument.type))", at: node.location)
        }
        return arguments
    }

    /// A value as the plan keeps it: a literal (whole lists and objects when they hold no
    /// variable), or variables nested in lists and objects.
    func argumentValue(_ value: GraphQLValue) throws -> ArgumentValue {
        if let literal = value.constantJSON { return .literal(literal) }
        switch value {
        case .variable(let name, let location):
            try checkDeclared(name, at: location)
            return .variable(name)
        case .list(let items):
            return .list(try items.map(argumentValue))
        case .object(let fields):
            return .object(try fields.map { ArgumentField(name: $0.name, value: try argumentValue($0.value)) })
        default:
            return .literal(.null)
        }
    }

    /// Throws unless the operation declares `$name`; returns the declaration.
    @discardableResult
    func checkDeclared(_ name: String, at location: GraphQLLocation) throws -> Document.VariableDeclaration {
        guard let declaration = variables[name] else {
            throw GraphQLError("variable \"$\(name)\" is not declared by \(operationDescription)", at: location)
        }
        return declaration
    }
}
