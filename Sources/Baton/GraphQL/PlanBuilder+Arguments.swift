/// Argument values: literals become JSON, variables are checked against the declarations.
extension PlanBuilder {
    /// The arguments of a field, each checked to be one the schema defines, given once.
    func arguments(
        _ nodes: [GraphQLArgument], of definition: Schema.Field, on parent: Schema.NamedType
    ) throws -> [ArgumentField] {
        var arguments: [ArgumentField] = []
        arguments.reserveCapacity(nodes.count)
        for (index, node) in nodes.enumerated() {
            guard definition.argument(named: node.name) != nil else {
                throw GraphQLError(
                    "unknown argument \"\(node.name)\" on field \"\(parent.name).\(definition.name)\"", at: node.location)
            }
            if nodes[..<index].contains(where: { $0.name == node.name }) {
                throw GraphQLError("argument \"\(node.name)\" is given more than once", at: node.location)
            }
            arguments.append(ArgumentField(name: node.name, value: try argumentValue(node.value)))
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

    /// Throws when an argument of any directive, known or not, uses an undeclared variable.
    func checkVariables(in directives: [GraphQLDirective]) throws {
        for directive in directives {
            for argument in directive.arguments {
                try checkVariables(in: argument.value)
            }
        }
    }

    private func checkVariables(in value: GraphQLValue) throws {
        switch value {
        case .variable(let name, let location): try checkDeclared(name, at: location)
        case .list(let items): for item in items { try checkVariables(in: item) }
        case .object(let fields): for field in fields { try checkVariables(in: field.value) }
        default: break
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
