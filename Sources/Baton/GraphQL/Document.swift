/// A parsed executable GraphQL document: its operations and fragments, as written.
///
/// Parsing checks syntax only; ``Plan/build(document:schema:operationName:)`` checks the document
/// against a schema.
public struct Document: Sendable {
    /// The operations, in document order.
    public let operations: [Operation]
    /// The fragment definitions, in document order.
    public let fragments: [Fragment]

    public init(operations: [Operation], fragments: [Fragment]) {
        self.operations = operations
        self.fragments = fragments
    }

    /// Parses an executable document (operations and fragments; no type system definitions).
    ///
    /// - Throws: ``GraphQLError`` naming the line and column of the first syntax error.
    public static func parse(_ source: String) throws -> Document {
        var parser = try Parser(source)
        return try parser.parseExecutableDocument()
    }
}

extension Document {
    /// A query, mutation or subscription.
    public struct Operation: Sendable {
        public let kind: OperationKind
        /// `nil` for an anonymous operation (including the `{ … }` shorthand).
        public let name: String?
        public let variables: [VariableDeclaration]
        public let directives: [GraphQLDirective]
        public let selections: [SelectionNode]
        /// Where the operation starts.
        public let location: GraphQLLocation
    }

    /// `$name: Type = default @directives` in an operation's header.
    public struct VariableDeclaration: Sendable {
        public let name: String
        public let type: GraphQLTypeReference
        /// The default value; it never mentions a variable.
        public let defaultValue: GraphQLValue?
        public let directives: [GraphQLDirective]
        /// Where the `$` is.
        public let location: GraphQLLocation
    }

    /// One entry of a selection set as written.
    public enum SelectionNode: Sendable {
        case field(FieldNode)
        case fragmentSpread(FragmentSpread)
        case inlineFragment(InlineFragment)
    }

    /// `alias: name(arguments) @directives { selections }`.
    public struct FieldNode: Sendable {
        public let alias: String?
        public let name: String
        public let arguments: [GraphQLArgument]
        public let directives: [GraphQLDirective]
        /// `nil` when the field has no selection set.
        public let selections: [SelectionNode]?
        /// Where the field (its alias, if any) starts.
        public let location: GraphQLLocation

        /// The alias, or the name when there is none.
        public var responseKey: String { alias ?? name }
    }

    /// `...Name @directives`.
    public struct FragmentSpread: Sendable {
        public let name: String
        public let directives: [GraphQLDirective]
        /// Where the `...` is.
        public let location: GraphQLLocation
    }

    /// `... on Type @directives { selections }`, the type condition optional.
    public struct InlineFragment: Sendable {
        public let typeCondition: String?
        public let directives: [GraphQLDirective]
        public let selections: [SelectionNode]
        /// Where the `...` is.
        public let location: GraphQLLocation
        /// Where the type condition's name is, when there is one.
        public let typeConditionLocation: GraphQLLocation?
    }

    /// `fragment Name on Type @directives { selections }`.
    public struct Fragment: Sendable {
        public let name: String
        public let typeCondition: String
        public let directives: [GraphQLDirective]
        public let selections: [SelectionNode]
        /// Where the `fragment` keyword is.
        public let location: GraphQLLocation
        /// Where the type condition's name is.
        public let typeConditionLocation: GraphQLLocation
    }
}
