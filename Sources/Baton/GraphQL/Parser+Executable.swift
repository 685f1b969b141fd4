/// Executable documents: operations, variable declarations, selection sets and fragments.
extension Parser {
    /// One or more operations and fragment definitions, up to the end of the source.
    mutating func parseExecutableDocument() throws -> Document {
        var operations: [Document.Operation] = []
        var fragments: [Document.Fragment] = []
        repeat {
            if token.kind == .braceLeft {
                let location = token.location
                let selections = try parseSelectionSet()
                operations.append(Document.Operation(
                    kind: .query, name: nil, variables: [], directives: [], selections: selections,
                    location: location))
            } else if let kind = operationKind() {
                operations.append(try parseOperation(kind))
            } else if at(keyword: "fragment") {
                fragments.append(try parseFragment())
            } else {
                throw unexpected(expected: "an operation or a fragment")
            }
        } while token.kind != .endOfFile
        return Document(operations: operations, fragments: fragments)
    }

    /// The operation kind the current keyword starts, if any.
    func operationKind() -> OperationKind? {
        if at(keyword: "query") { return .query }
        if at(keyword: "mutation") { return .mutation }
        if at(keyword: "subscription") { return .subscription }
        return nil
    }

    /// `query Name($v: T) @d { … }`, the keyword being current.
    private mutating func parseOperation(_ kind: OperationKind) throws -> Document.Operation {
        let location = token.location
        try advance()
        let name = token.kind == .name ? try expectName().name : nil
        let variables = token.kind == .parenLeft ? try parseVariableDeclarations() : []
        let directives = try parseDirectives(constant: false)
        let selections = try parseSelectionSet()
        return Document.Operation(
            kind: kind, name: name, variables: variables, directives: directives,
            selections: selections, location: location)
    }

    /// `($a: T = default @d, …)`: at least one declaration.
    private mutating func parseVariableDeclarations() throws -> [Document.VariableDeclaration] {
        try expect(.parenLeft)
        var declarations: [Document.VariableDeclaration] = []
        repeat {
            let location = token.location
            try expect(.dollar)
            let name = try expectName().name
            try expect(.colon)
            let type = try parseTypeReference()
            let defaultValue = try skip(.equals) ? try parseValue(constant: true) : nil
            let directives = try parseDirectives(constant: true)
            declarations.append(Document.VariableDeclaration(
                name: name, type: type, defaultValue: defaultValue, directives: directives,
                location: location))
        } while try !skip(.parenRight)
        return declarations
    }

    /// `{ selection … }`: at least one selection.
    mutating func parseSelectionSet() throws -> [Document.SelectionNode] {
        try expect(.braceLeft)
        try enterNesting()
        var selections: [Document.SelectionNode] = []
        repeat {
            selections.append(try parseSelection())
        } while try !skip(.braceRight)
        leaveNesting()
        return selections
    }

    private mutating func parseSelection() throws -> Document.SelectionNode {
        guard token.kind == .spread else { return .field(try parseField()) }
        let location = token.location
        try advance()
        if token.kind == .name, !at(keyword: "on") {
            let name = try expectName().name
            let directives = try parseDirectives(constant: false)
            return .fragmentSpread(Document.FragmentSpread(name: name, directives: directives, location: location))
        }
        var typeCondition: (name: String, location: GraphQLLocation)?
        if at(keyword: "on") {
            try advance()
            typeCondition = try expectName()
        }
        let directives = try parseDirectives(constant: false)
        let selections = try parseSelectionSet()
        return .inlineFragment(Document.InlineFragment(
            typeCondition: typeCondition?.name, directives: directives, selections: selections,
            location: location, typeConditionLocation: typeCondition?.location))
    }

    /// `alias: name(arguments) @directives { … }`.
    private mutating func parseField() throws -> Document.FieldNode {
        let location = token.location
        var alias: String?
        var name = try expectName().name
        if try skip(.colon) {
            alias = name
            name = try expectName().name
        }
        let arguments = try parseArguments(constant: false)
        let directives = try parseDirectives(constant: false)
        let selections = token.kind == .braceLeft ? try parseSelectionSet() : nil
        return Document.FieldNode(
            alias: alias, name: name, arguments: arguments, directives: directives,
            selections: selections, location: location)
    }

    /// `fragment Name on Type @directives { … }`, the keyword being current.
    private mutating func parseFragment() throws -> Document.Fragment {
        let location = token.location
        try advance()
        if at(keyword: "on") { throw unexpected(expected: "a fragment name") }
        let name = try expectName().name
        try expect(keyword: "on")
        let typeCondition = try expectName()
        let directives = try parseDirectives(constant: false)
        let selections = try parseSelectionSet()
        return Document.Fragment(
            name: name, typeCondition: typeCondition.name, directives: directives,
            selections: selections, location: location, typeConditionLocation: typeCondition.location)
    }
}
