import Baton

/// Arguments, literal values and variable uses.
extension OperationValidator {
    /// `arguments` given to something whose arguments are `definitions` (a field or a directive).
    func checkArguments(
        _ arguments: [GraphQLArgument], of definitions: [Schema.InputValue], owner: String, at location: GraphQLLocation
    ) throws {
        for (index, argument) in arguments.enumerated() {
            guard let definition = definitions.first(where: { $0.name == argument.name }) else {
                throw error("unknown argument \"\(argument.name)\" on \(owner)", at: argument.location)
            }
            if arguments[..<index].contains(where: { $0.name == argument.name }) {
                throw error("argument \"\(argument.name)\" is given twice", at: argument.location)
            }
            try checkValue(
                argument.value, fits: definition.type, hasDefault: definition.defaultValue != nil, at: argument.location,
                what: "argument \"\(argument.name)\" of \(owner)")
        }
        for definition in definitions where definition.type.isNonNull && definition.defaultValue == nil {
            if !arguments.contains(where: { $0.name == definition.name }) {
                throw error("\(owner) needs the argument \"\(definition.name)\" of type \"\(definition.type)\"", at: location)
            }
        }
    }

    /// `value` written where a `type` is expected; `hasDefault` when that place has a default value
    /// of its own (a nullable variable may then fill a non-null place).
    func checkValue(
        _ value: GraphQLValue, fits type: GraphQLTypeReference, hasDefault: Bool = false, at location: GraphQLLocation,
        what: String
    ) throws {
        if case .variable(let name, let variableLocation) = value {
            if variablesUnknown, variables[name] == nil { return }
            guard let declaration = variables[name] else {
                throw error("variable \"$\(name)\" is not declared by the operation", at: variableLocation)
            }
            guard Self.isUsageAllowed(declaration, at: type, placeHasDefault: hasDefault) else {
                throw error(
                    "variable \"$\(name)\" of type \"\(declaration.type)\" cannot be used where \"\(type)\" is expected (\(what))",
                    at: variableLocation)
            }
            return
        }
        func mismatch() -> WorldError {
            error("\(what) expects \"\(type)\", found \(Self.describe(value))", at: location)
        }
        switch type {
        case .nonNull(let inner):
            if value == .null { throw error("\(what) cannot be null", at: location) }
            try checkValue(value, fits: inner, at: location, what: what)
        case .list(let inner):
            switch value {
            case .null: return
            case .list(let items): for item in items { try checkValue(item, fits: inner, at: location, what: what) }
            default: try checkValue(value, fits: inner, at: location, what: what)
            }
        case .named(let name):
            if value == .null { return }
            guard let named = schema.type(named: name) else { throw mismatch() }
            switch named.kind {
            case .scalar:
                switch (name, value) {
                case ("Int", .int(let number)):
                    guard number >= Int(Int32.min), number <= Int(Int32.max) else {
                        throw error("\(what): \(number) does not fit a 32-bit Int", at: location)
                    }
                case ("Float", .int), ("Float", .float), ("Float", .decimal), ("String", .string), ("Boolean", .boolean),
                    ("ID", .string), ("ID", .int):
                    break
                case ("Int", _), ("Float", _), ("String", _), ("Boolean", _), ("ID", _):
                    throw mismatch()
                default:
                    break  // a custom scalar takes any literal
                }
            case .enumeration:
                guard case .enumeration(let member) = value else { throw mismatch() }
                guard named.enumValues.contains(where: { $0.name == member }) else {
                    throw error("\(what): \"\(member)\" is not a value of the enum \"\(name)\"", at: location)
                }
            case .inputObject:
                guard case .object(let fields) = value else { throw mismatch() }
                try checkInputObject(fields, of: named, at: location, what: what)
            case .object, .interface, .union:
                throw mismatch()
            }
        }
    }

    private func checkInputObject(
        _ fields: [GraphQLObjectField], of type: Schema.NamedType, at location: GraphQLLocation, what: String
    ) throws {
        for (index, field) in fields.enumerated() {
            guard let definition = type.inputFields.first(where: { $0.name == field.name }) else {
                throw error("\(what): \"\(type.name)\" has no field \"\(field.name)\"", at: field.location)
            }
            if fields[..<index].contains(where: { $0.name == field.name }) {
                throw error("\(what): field \"\(field.name)\" is given twice", at: field.location)
            }
            try checkValue(
                field.value, fits: definition.type, hasDefault: definition.defaultValue != nil, at: field.location,
                what: "field \"\(field.name)\" of \(what)")
        }
        for definition in type.inputFields where definition.type.isNonNull && definition.defaultValue == nil {
            if !fields.contains(where: { $0.name == definition.name }) {
                throw error("\(what): \"\(type.name)\" needs the field \"\(definition.name)\"", at: location)
            }
        }
    }

    /// The specification's "All Variable Usages Are Allowed": a nullable variable fills a non-null
    /// place only when the variable or the place has a non-null default.
    static func isUsageAllowed(
        _ declaration: Document.VariableDeclaration, at place: GraphQLTypeReference, placeHasDefault: Bool
    ) -> Bool {
        if case .nonNull(let inner) = place, !declaration.type.isNonNull {
            let variableHasDefault = declaration.defaultValue != nil && declaration.defaultValue != .null
            guard variableHasDefault || placeHasDefault else { return false }
            return areCompatible(declaration.type, inner)
        }
        return areCompatible(declaration.type, place)
    }

    private static func areCompatible(_ variable: GraphQLTypeReference, _ place: GraphQLTypeReference) -> Bool {
        switch (variable, place) {
        case (.nonNull(let inner), .nonNull(let placeInner)): areCompatible(inner, placeInner)
        case (_, .nonNull): false
        case (.nonNull(let inner), _): areCompatible(inner, place)
        case (.list(let inner), .list(let placeInner)): areCompatible(inner, placeInner)
        case (.list, _), (_, .list): false
        case (.named(let a), .named(let b)): a == b
        }
    }

    /// A literal in words, for error messages.
    static func describe(_ value: GraphQLValue) -> String {
        switch value {
        case .variable(let name, _): "$\(name)"
        case .int(let number): "the Int \(number)"
        case .float(let number): "the Float \(number)"
        case .decimal(let text): "the number \(text)"
        case .string: "a String"
        case .boolean(let flag): "the Boolean \(flag)"
        case .null: "null"
        case .enumeration(let name): "the enum value \(name)"
        case .list: "a list"
        case .object: "an input object"
        }
    }
}
