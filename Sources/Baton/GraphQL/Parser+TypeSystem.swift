/// SDL documents: schema, type and directive definitions, extensions and descriptions.
extension Parser {
    /// One or more type system definitions or extensions, up to the end of the source.
    mutating func parseTypeSystemDocument() throws -> TypeSystemDocument {
        var document = TypeSystemDocument()
        repeat {
            let description = try parseDescription()
            let location = token.location
            var isExtension = false
            if at(keyword: "extend") {
                if description != nil {
                    throw GraphQLError("an extension cannot have a description", at: location)
                }
                isExtension = true
                try advance()
            }
            if at(keyword: "schema") {
                document.schemaDefinitions.append(try parseSchemaDefinition(isExtension: isExtension, location: location))
            } else if let kind = typeDefinitionKind() {
                document.types.append(try parseTypeDefinition(kind, description: description, isExtension: isExtension))
            } else if !isExtension, at(keyword: "directive") {
                document.directives.append(try parseDirectiveDefinition())
            } else {
                throw unexpected(expected: isExtension ? "a schema or type to extend" : "a type system definition")
            }
        } while token.kind != .endOfFile
        return document
    }

    /// A string or block string before a definition, if there is one.
    private mutating func parseDescription() throws -> String? {
        guard token.kind == .string || token.kind == .blockString else { return nil }
        let description = token.string
        try advance()
        return description
    }

    /// The kind of type the current keyword defines, if any.
    private func typeDefinitionKind() -> Schema.TypeKind? {
        if at(keyword: "type") { return .object }
        if at(keyword: "interface") { return .interface }
        if at(keyword: "union") { return .union }
        if at(keyword: "enum") { return .enumeration }
        if at(keyword: "input") { return .inputObject }
        if at(keyword: "scalar") { return .scalar }
        return nil
    }

    /// `schema @d { query: Q mutation: M subscription: S }`; an extension may omit the braces.
    private mutating func parseSchemaDefinition(isExtension: Bool, location: GraphQLLocation) throws -> SchemaDefinitionSyntax {
        try advance()
        _ = try parseDirectives(constant: true)
        var roots: [SchemaDefinitionSyntax.Root] = []
        if !isExtension || token.kind == .braceLeft {
            try expect(.braceLeft)
            repeat {
                guard let kind = operationKind() else {
                    throw unexpected(expected: "\"query\", \"mutation\" or \"subscription\"")
                }
                try advance()
                try expect(.colon)
                let (name, typeLocation) = try expectName()
                roots.append(SchemaDefinitionSyntax.Root(kind: kind, type: NameReference(name: name, location: typeLocation)))
            } while try !skip(.braceRight)
        }
        return SchemaDefinitionSyntax(roots: roots, isExtension: isExtension, location: location)
    }

    /// A type definition or extension, its keyword being current.
    private mutating func parseTypeDefinition(
        _ kind: Schema.TypeKind, description: String?, isExtension: Bool
    ) throws -> TypeDefinitionSyntax {
        try advance()
        let (name, location) = try expectName()
        var definition = TypeDefinitionSyntax(
            kind: kind, name: name, description: description, location: location, isExtension: isExtension)
        switch kind {
        case .object, .interface:
            if at(keyword: "implements") {
                try advance()
                _ = try skip(.ampersand)
                repeat {
                    let (interface, interfaceLocation) = try expectName()
                    definition.interfaces.append(NameReference(name: interface, location: interfaceLocation))
                } while try skip(.ampersand)
            }
            _ = try parseDirectives(constant: true)
            if try skip(.braceLeft) {
                while try !skip(.braceRight) {
                    definition.fields.append(try parseFieldDefinition())
                }
            }
        case .union:
            _ = try parseDirectives(constant: true)
            if try skip(.equals) {
                _ = try skip(.pipe)
                repeat {
                    let (member, memberLocation) = try expectName()
                    definition.unionMembers.append(NameReference(name: member, location: memberLocation))
                } while try skip(.pipe)
            }
        case .enumeration:
            _ = try parseDirectives(constant: true)
            if try skip(.braceLeft) {
                while try !skip(.braceRight) {
                    definition.enumValues.append(try parseEnumValueDefinition())
                }
            }
        case .inputObject:
            _ = try parseDirectives(constant: true)
            if try skip(.braceLeft) {
                while try !skip(.braceRight) {
                    definition.inputFields.append(try parseInputValueDefinition())
                }
            }
        case .scalar:
            _ = try parseDirectives(constant: true)
        }
        return definition
    }

    /// `"description" name(arguments): Type @directives`.
    private mutating func parseFieldDefinition() throws -> Schema.Field {
        let description = try parseDescription()
        let (name, location) = try expectName()
        let arguments = token.kind == .parenLeft ? try parseArgumentDefinitions() : []
        try expect(.colon)
        let type = try parseTypeReference()
        _ = try parseDirectives(constant: true)
        return Schema.Field(name: name, description: description, arguments: arguments, type: type, location: location)
    }

    /// `(name: Type = default, …)`: at least one.
    private mutating func parseArgumentDefinitions() throws -> [Schema.InputValue] {
        try expect(.parenLeft)
        var arguments: [Schema.InputValue] = []
        repeat {
            arguments.append(try parseInputValueDefinition())
        } while try !skip(.parenRight)
        return arguments
    }

    /// `"description" name: Type = default @directives`.
    private mutating func parseInputValueDefinition() throws -> Schema.InputValue {
        let description = try parseDescription()
        let (name, location) = try expectName()
        try expect(.colon)
        let type = try parseTypeReference()
        let defaultValue = try skip(.equals) ? try parseValue(constant: true) : nil
        _ = try parseDirectives(constant: true)
        return Schema.InputValue(
            name: name, description: description, type: type, defaultValue: defaultValue, location: location)
    }

    /// `"description" VALUE @directives`; `true`, `false` and `null` are not enum values.
    private mutating func parseEnumValueDefinition() throws -> Schema.EnumValue {
        let description = try parseDescription()
        if at(keyword: "true") || at(keyword: "false") || at(keyword: "null") {
            throw GraphQLError("\(tokenText) cannot be an enum value", at: token.location)
        }
        let (name, location) = try expectName()
        _ = try parseDirectives(constant: true)
        return Schema.EnumValue(name: name, description: description, location: location)
    }

    /// `directive @name(arguments) repeatable on A | B`.
    private mutating func parseDirectiveDefinition() throws -> DirectiveDefinitionSyntax {
        try advance()
        try expect(.at)
        let (name, location) = try expectName()
        let arguments = token.kind == .parenLeft ? try parseArgumentDefinitions() : []
        var isRepeatable = false
        if at(keyword: "repeatable") {
            isRepeatable = true
            try advance()
        }
        try expect(keyword: "on")
        _ = try skip(.pipe)
        var locations: [NameReference] = []
        repeat {
            let (place, placeLocation) = try expectName()
            locations.append(NameReference(name: place, location: placeLocation))
        } while try skip(.pipe)
        return DirectiveDefinitionSyntax(
            name: name, arguments: arguments, locations: locations, isRepeatable: isRepeatable, location: location)
    }
}
