/// A name as written, with where it is (an implemented interface, a union member, a root type).
struct NameReference {
    let name: String
    let location: GraphQLLocation
}

/// `schema { query: Q … }` or `extend schema { … }`.
struct SchemaDefinitionSyntax {
    struct Root {
        let kind: OperationKind
        let type: NameReference
    }

    let roots: [Root]
    let isExtension: Bool
    let location: GraphQLLocation
}

/// One type definition or type extension, as written.
struct TypeDefinitionSyntax {
    let kind: Schema.TypeKind
    let name: String
    var description: String?
    /// Where the type's name is; `nil` for a built-in scalar.
    let location: GraphQLLocation?
    let isExtension: Bool
    var fields: [Schema.Field] = []
    var interfaces: [NameReference] = []
    var unionMembers: [NameReference] = []
    var enumValues: [Schema.EnumValue] = []
    var inputFields: [Schema.InputValue] = []
}

/// `directive @name(arguments) repeatable on LOCATION | …`, as written.
struct DirectiveDefinitionSyntax {
    let name: String
    let arguments: [Schema.InputValue]
    let locations: [NameReference]
    let isRepeatable: Bool
    /// Where the directive's name is.
    let location: GraphQLLocation
}

/// The definitions of an SDL document, in document order.
struct TypeSystemDocument {
    var schemaDefinitions: [SchemaDefinitionSyntax] = []
    var types: [TypeDefinitionSyntax] = []
    var directives: [DirectiveDefinitionSyntax] = []
}
