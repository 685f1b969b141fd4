extension Plan {
    /// Parses `document` and builds the plan of one of its operations against `schema`.
    ///
    /// - Parameter operationName: which operation to plan; may be `nil` when the document has one.
    /// - Throws: ``GraphQLError`` for a syntax error, or when the document does not fit the schema.
    public static func build(document: String, schema: Schema, operationName: String? = nil) throws -> Plan {
        try build(document: Document.parse(document), schema: schema, operationName: operationName)
    }

    /// Builds the plan of one operation of a parsed `document` against `schema`.
    ///
    /// Every field is resolved against the schema, fragments are inlined (with the object types
    /// they apply to), literal `@include`/`@skip` conditions are decided now and variable ones
    /// kept, and `@connection`/`@deleteRecord` are read and checked.
    ///
    /// The document is validated as the spec's rules say, for the parts of it the operation
    /// reaches: fields and arguments the schema defines, required arguments given, argument
    /// values and variable defaults of their input types (scalars, enums, input objects with no
    /// unknown field and every required one, lists), directives the schema knows, in places they
    /// are allowed, with their arguments; every variable used is declared and of a type allowed
    /// where it stands (a nullable variable where a non-null one is expected only with a default),
    /// and every declared variable is used.
    ///
    /// - Throws: ``GraphQLError`` naming the line and column of the first problem.
    public static func build(document: Document, schema: Schema, operationName: String? = nil) throws -> Plan {
        var builder = try PlanBuilder(document: document, schema: schema, operationName: operationName)
        return try builder.build()
    }

    /// Builds a plan with a known bug put back (tests and the simulator; mutants exist only in
    /// debug builds).
    package static func build(document: String, schema: Schema, operationName: String? = nil, mutant: Mutant?) throws -> Plan {
        var builder = try PlanBuilder(document: Document.parse(document), schema: schema, operationName: operationName)
        builder.mutant = mutant
        return try builder.build()
    }
}

/// Builds one ``Plan``: picks the operation, checks its variables, and resolves its selections.
///
/// The selection work lives in `PlanBuilder+Selections.swift`, directives in
/// `PlanBuilder+Directives.swift`, arguments in `PlanBuilder+Arguments.swift`, and the checks of
/// written values and variable usages in `PlanBuilder+Values.swift`.
struct PlanBuilder {
    /// The deepest nesting of selection sets accepted, fragments included.
    static let maximumDepth = 256

    let schema: Schema
    let operation: Document.Operation
    let fragments: [String: Document.Fragment]
    let variables: [String: Document.VariableDeclaration]
    /// Fragments already resolved: a fragment's selections depend only on its type condition.
    var resolvedFragments: [String: SelectionSet] = [:]
    /// The fragments being resolved, outermost first, to report cycles.
    var fragmentPath: [String] = []
    var depth = 0
    /// The variables some value of the operation (its fragments included) uses.
    var usedVariables: Set<String> = []
    /// A known bug to put back in the plan's storage keys, if any.
    var mutant: Mutant?

    init(document: Document, schema: Schema, operationName: String?) throws {
        self.schema = schema
        self.operation = try Self.operation(in: document, named: operationName)
        var fragments: [String: Document.Fragment] = [:]
        for fragment in document.fragments {
            if let first = fragments[fragment.name] {
                throw GraphQLError(
                    "fragment \"\(fragment.name)\" is defined more than once (first at \(first.location))",
                    at: fragment.location)
            }
            fragments[fragment.name] = fragment
        }
        self.fragments = fragments
        var variables: [String: Document.VariableDeclaration] = [:]
        for variable in operation.variables {
            if variables[variable.name] != nil {
                throw GraphQLError("variable \"$\(variable.name)\" is declared more than once", at: variable.location)
            }
            variables[variable.name] = variable
        }
        self.variables = variables
    }

    /// The operation called `name`, or the only one when `name` is `nil`.
    private static func operation(in document: Document, named name: String?) throws -> Document.Operation {
        let operations = document.operations
        var names: Set<String> = []
        for operation in operations {
            guard let operationName = operation.name else {
                if operations.count > 1 {
                    throw GraphQLError("an anonymous operation must be the only operation of its document", at: operation.location)
                }
                continue
            }
            if !names.insert(operationName).inserted {
                throw GraphQLError("operation \"\(operationName)\" is defined more than once", at: operation.location)
            }
        }
        let listing = operations.map { $0.name ?? "(anonymous)" }.joined(separator: ", ")
        if let name {
            guard let operation = operations.first(where: { $0.name == name }) else {
                let defined = operations.isEmpty ? "none" : listing
                throw GraphQLError("the document has no operation named \"\(name)\" (it defines: \(defined))", at: .start)
            }
            return operation
        }
        guard let only = operations.first else {
            throw GraphQLError("the document has no operation", at: .start)
        }
        guard operations.count == 1 else {
            throw GraphQLError("the document has several operations; name the one to plan: \(listing)", at: .start)
        }
        return only
    }

    mutating func build() throws -> Plan {
        guard let rootName = schema.rootTypeName(for: operation.kind), let root = schema.type(named: rootName) else {
            throw GraphQLError("the schema has no \(operation.kind.rawValue) type", at: operation.location)
        }
        var definitions: [VariableDefinition] = []
        for declaration in operation.variables {
            definitions.append(try variableDefinition(declaration))
        }
        try validateDirectives(operation.directives, at: .operation(operation.kind))
        let selections = try selectionSet(operation.selections, in: root, at: operation.location)
        try checkEveryVariableUsed()
        return Plan(
            kind: operation.kind, name: operation.name, rootTypename: rootName,
            variableDefinitions: definitions, selections: selections, schema: schema, mutant: mutant)
    }

    /// A declared variable, checked to have an input type and a default of that type, its
    /// default as JSON.
    private mutating func variableDefinition(_ declaration: Document.VariableDeclaration) throws -> VariableDefinition {
        let typeName = declaration.type.namedType
        guard let type = schema.type(named: typeName) else {
            throw GraphQLError("unknown type \"\(typeName)\" for variable \"$\(declaration.name)\"", at: declaration.location)
        }
        guard type.isInputType else {
            throw GraphQLError(
                "variable \"$\(declaration.name)\" cannot have the type \"\(typeName)\": it is not an input type",
                at: declaration.location)
        }
        if let defaultValue = declaration.defaultValue {
            try checkValue(
                defaultValue, as: declaration.type, hasDefault: false, at: declaration.location,
                position: Position(name: "$" + declaration.name, owner: ""))
        }
        try validateDirectives(declaration.directives, at: .variableDefinition)
        return VariableDefinition(
            name: declaration.name, type: declaration.type, defaultValue: declaration.defaultValue?.constantJSON)
    }

    /// How errors name the operation: `operation "Name"` or `the anonymous operation`.
    var operationDescription: String {
        operation.name.map { "operation \"\($0)\"" } ?? "the anonymous operation"
    }
}
