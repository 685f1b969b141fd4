/// Values written in a document, checked against the input types of their positions (the spec's
/// "Values of Correct Type"), and the variables they use (declared, of a type allowed there, and
/// every declared one used somewhere).
extension PlanBuilder {
    /// Checks `value`, written at `location` for a position of type `type`, and records the
    /// variables it uses. `hasDefault`: the position (an argument or an input field) has a default,
    /// which lets a nullable variable stand where a non-null type is expected.
    ///
    /// - Parameter position: names the position for errors: `argument "id" of field "Query.character"`.
    /// - Throws: ``GraphQLError`` naming the position, the place inside the value, and the line and
    ///   column of the innermost input object field that holds the problem.
    mutating func checkValue(
        _ value: GraphQLValue, as type: GraphQLTypeReference, hasDefault: Bool, at location: GraphQLLocation,
        position: Position
    ) throws {
        do {
            try checkLiteral(value, as: type, hasDefault: hasDefault, at: location, position: position)
        } catch let problem as InputProblem {
            throw GraphQLError(position.describe(problem.path) + ": " + problem.message, at: problem.location ?? location)
        }
    }

    /// A place that takes a value, for errors.
    struct Position {
        /// The name of the value's root: an argument's name, or `$name` for a variable's default.
        let name: String
        /// After the name: ` of field "Query.character"`, ` of @include`.
        let owner: String

        /// `argument "filter.status" of field "Query.characters"`, the path inside the value joined on.
        func describe(_ path: [ResponsePathComponent]) -> String {
            let place = ([name] + path.map(\.description)).joined(separator: ".")
            return name.hasPrefix("$") ? "the default of \"\(place)\"" : "argument \"\(place)\"\(owner)"
        }
    }

    private mutating func checkLiteral(
        _ value: GraphQLValue, as type: GraphQLTypeReference, hasDefault: Bool, at location: GraphQLLocation,
        position: Position
    ) throws {
        if case .variable(let name, let variableLocation) = value {
            try use(name, at: variableLocation, as: type, hasLocationDefault: hasDefault, position: position)
            return
        }
        if case .nonNull(let inner) = type {
            if value == .null { throw InputProblem("expected \(type), got null", at: location) }
            try checkGiven(value, as: inner, shown: type, at: location, position: position)
            return
        }
        if value == .null { return }
        try checkGiven(value, as: type, shown: type, at: location, position: position)
    }

    /// `value` (neither null nor a variable) against a list or named type.
    private mutating func checkGiven(
        _ value: GraphQLValue, as type: GraphQLTypeReference, shown: GraphQLTypeReference,
        at location: GraphQLLocation, position: Position
    ) throws {
        switch type {
        case .nonNull(let inner):
            try checkGiven(value, as: inner, shown: shown, at: location, position: position)
        case .list(let item):
            guard case .list(let items) = value else {
                // A single value where a list is expected stands for a list of one.
                try checkLiteral(value, as: item, hasDefault: false, at: location, position: position)
                return
            }
            for (index, element) in items.enumerated() {
                do {
                    try checkLiteral(element, as: item, hasDefault: false, at: location, position: position)
                } catch let problem as InputProblem {
                    throw problem.inside(.index(index))
                }
            }
        case .named(let name):
            try checkNamed(value, name: name, shown: shown, at: location, position: position)
        }
    }

    private mutating func checkNamed(
        _ value: GraphQLValue, name: String, shown: GraphQLTypeReference, at location: GraphQLLocation,
        position: Position
    ) throws {
        let got = value.sourceText
        if let scalar = BuiltInScalar(rawValue: name) {
            if let problem = scalar.problem(withLiteral: value) {
                throw InputProblem("expected \(shown), got \(got)\(problem)", at: location)
            }
            return
        }
        guard let type = schema.type(named: name) else { return }
        switch type.kind {
        case .enumeration:
            let values = InputCoercion.values(of: type)
            switch value {
            case .enumeration(let text) where type.enumValues.contains(where: { $0.name == text }):
                return
            case .enumeration:
                throw InputProblem("expected \(shown), got \(got), which is not one of \(values)", at: location)
            case .string(let text) where type.enumValues.contains(where: { $0.name == text }):
                throw InputProblem("expected \(shown), got the string \(got); write the enum value \(text) without quotes", at: location)
            default:
                throw InputProblem("expected \(shown), got \(got)", at: location)
            }
        case .inputObject:
            guard case .object(let fields) = value else { throw InputProblem("expected \(shown), got \(got)", at: location) }
            for field in fields where !type.inputFields.contains(where: { $0.name == field.name }) {
                throw InputProblem("\(name) has no field \"\(field.name)\"", at: field.location).inside(.key(field.name))
            }
            for definition in type.inputFields {
                guard let field = fields.first(where: { $0.name == definition.name }) else {
                    if definition.type.isNonNull && definition.defaultValue == nil {
                        throw InputProblem("expected \(definition.type), got nothing", at: location).inside(.key(definition.name))
                    }
                    continue
                }
                do {
                    try checkLiteral(
                        field.value, as: definition.type, hasDefault: definition.defaultValue != nil,
                        at: field.location, position: position)
                } catch let problem as InputProblem {
                    throw problem.inside(.key(definition.name))
                }
            }
        default:
            // A custom scalar takes any literal; the variables inside it are still uses.
            try useVariables(in: value, position: position)
        }
    }

    /// Records the variables inside a custom scalar's literal, whose positions have no type.
    private mutating func useVariables(in value: GraphQLValue, position: Position) throws {
        switch value {
        case .variable(let name, let location):
            try use(name, at: location, as: nil, hasLocationDefault: false, position: position)
        case .list(let items):
            for item in items { try useVariables(in: item, position: position) }
        case .object(let fields):
            for field in fields { try useVariables(in: field.value, position: position) }
        default:
            break
        }
    }

    // MARK: Variable usages

    /// `$name` used at a position of type `type` (`nil`: untyped, inside a custom scalar): it must
    /// be declared, and its type allowed there.
    private mutating func use(
        _ name: String, at location: GraphQLLocation, as type: GraphQLTypeReference?, hasLocationDefault: Bool,
        position: Position
    ) throws {
        let declaration = try checkDeclared(name, at: location)
        usedVariables.insert(name)
        guard let type else { return }
        if !Self.isAllowed(declaration, at: type, hasLocationDefault: hasLocationDefault) {
            throw GraphQLError(
                "variable \"$\(name)\" of type \"\(declaration.type)\" cannot be used where \"\(type)\" is expected "
                    + "(\(position.describe([])))",
                at: location)
        }
    }

    /// The spec's "All Variable Usages Are Allowed": a nullable variable may stand where a non-null
    /// type is expected only when it has a non-null default or the position has a default.
    static func isAllowed(
        _ declaration: Document.VariableDeclaration, at locationType: GraphQLTypeReference, hasLocationDefault: Bool
    ) -> Bool {
        var expected = locationType
        if case .nonNull(let inner) = locationType, !declaration.type.isNonNull {
            let hasNonNullDefault = declaration.defaultValue.map { $0 != .null } ?? false
            guard hasNonNullDefault || hasLocationDefault else { return false }
            expected = inner
        }
        return areCompatible(declaration.type, expected)
    }

    /// The spec's AreTypesCompatible: the variable's type is the location's, or stricter in nullability.
    static func areCompatible(_ variable: GraphQLTypeReference, _ location: GraphQLTypeReference) -> Bool {
        switch (variable, location) {
        case (.nonNull(let inner), .nonNull(let expected)): areCompatible(inner, expected)
        case (_, .nonNull): false
        case (.nonNull(let inner), _): areCompatible(inner, location)
        case (.list(let inner), .list(let expected)): areCompatible(inner, expected)
        case (.list, _), (_, .list): false
        case (.named(let name), .named(let expected)): name == expected
        }
    }

    /// Throws on the first declared variable that nothing in the operation (its fragments included) uses.
    func checkEveryVariableUsed() throws {
        for declaration in operation.variables where !usedVariables.contains(declaration.name) {
            throw GraphQLError(
                "variable \"$\(declaration.name)\" is declared by \(operationDescription) but never used",
                at: declaration.location)
        }
    }
}

extension BuiltInScalar {
    /// `nil` when the literal fits; otherwise what to add after "expected T, got V".
    func problem(withLiteral value: GraphQLValue) -> String? {
        switch (self, value) {
        case (.int, .int(let number)):
            return Int32(exactly: number) == nil ? ", outside Int's 32 bits" : nil
        case (.float, .int), (.float, .float), (.float, .decimal), (.string, .string), (.boolean, .boolean), (.id, .string), (.id, .int):
            return nil
        case (.int, .decimal(let text)):
            return text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? "" : ", outside Int's 32 bits"
        default:
            return ""
        }
    }
}

extension GraphQLValue {
    /// The value as GraphQL source, cut to 40 characters, for messages.
    var sourceText: String {
        let text = printed
        guard text.unicodeScalars.count > 40 else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix(40))) + "…"
    }

    private var printed: String {
        switch self {
        case .variable(let name, _): return "$" + name
        case .int(let value): return String(value)
        case .float(let value): return value.description
        case .decimal(let text): return text
        case .string(let value):
            var out = ""
            CanonicalJSON.writeString(value, into: &out)
            return out
        case .boolean(let value): return value ? "true" : "false"
        case .null: return "null"
        case .enumeration(let name): return name
        case .list(let items): return "[" + items.map(\.printed).joined(separator: ", ") + "]"
        case .object(let fields): return "{" + fields.map { $0.name + ": " + $0.value.printed }.joined(separator: ", ") + "}"
        }
    }
}
