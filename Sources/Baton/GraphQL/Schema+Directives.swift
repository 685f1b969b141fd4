/// Where a directive may stand (the spec's `DirectiveLocation`): the executable places first,
/// then the type system's.
public enum DirectiveLocation: String, Sendable, Hashable, CaseIterable {
    case query = "QUERY"
    case mutation = "MUTATION"
    case subscription = "SUBSCRIPTION"
    case field = "FIELD"
    case fragmentDefinition = "FRAGMENT_DEFINITION"
    case fragmentSpread = "FRAGMENT_SPREAD"
    case inlineFragment = "INLINE_FRAGMENT"
    case variableDefinition = "VARIABLE_DEFINITION"
    case schema = "SCHEMA"
    case scalar = "SCALAR"
    case object = "OBJECT"
    case fieldDefinition = "FIELD_DEFINITION"
    case argumentDefinition = "ARGUMENT_DEFINITION"
    case interface = "INTERFACE"
    case union = "UNION"
    case enumeration = "ENUM"
    case enumValue = "ENUM_VALUE"
    case inputObject = "INPUT_OBJECT"
    case inputFieldDefinition = "INPUT_FIELD_DEFINITION"

    /// The place in words, for errors: `a field`, `an inline fragment`.
    public var phrase: String {
        switch self {
        case .query: "a query"
        case .mutation: "a mutation"
        case .subscription: "a subscription"
        case .field: "a field"
        case .fragmentDefinition: "a fragment definition"
        case .fragmentSpread: "a fragment spread"
        case .inlineFragment: "an inline fragment"
        case .variableDefinition: "a variable definition"
        default: "the type system location " + rawValue
        }
    }

    /// The location of an operation of `kind`.
    static func operation(_ kind: OperationKind) -> DirectiveLocation {
        switch kind {
        case .query: .query
        case .mutation: .mutation
        case .subscription: .subscription
        }
    }
}

extension Schema {
    /// A directive a document may use: one of the spec's, one of Baton's, or one the SDL defines.
    public struct DirectiveDefinition: Sendable {
        public let name: String
        public let arguments: [InputValue]
        public let locations: Set<DirectiveLocation>
        /// A repeatable directive may stand more than once at one place.
        public let isRepeatable: Bool
        /// Where the SDL defines it; `nil` for the built-in ones.
        public let location: GraphQLLocation?

        public init(
            name: String, arguments: [InputValue], locations: Set<DirectiveLocation>, isRepeatable: Bool,
            location: GraphQLLocation?
        ) {
            self.name = name
            self.arguments = arguments
            self.locations = locations
            self.isRepeatable = isRepeatable
            self.location = location
        }

        /// The argument called `name`.
        public func argument(named name: String) -> InputValue? {
            arguments.first { $0.name == name }
        }
    }

    /// The directives every schema has, whatever its SDL says: the spec's `@include`, `@skip`,
    /// `@deprecated` and `@specifiedBy`, Baton's client directives `@connection` and
    /// `@deleteRecord`, and Apollo Kotlin's `@optional` and `@nonnull`, which only shape its
    /// generated code (no store reads them), so an Apollo Kotlin app's documents read as they are.
    /// An SDL definition of one of these names is read and set aside.
    static let builtInDirectives: [String: DirectiveDefinition] = {
        let start = GraphQLLocation.start
        func argument(_ name: String, _ type: GraphQLTypeReference, default value: GraphQLValue? = nil) -> InputValue {
            InputValue(name: name, description: nil, type: type, defaultValue: value, location: start)
        }
        let condition: Set<DirectiveLocation> = [.field, .fragmentSpread, .inlineFragment]
        let string = GraphQLTypeReference.named("String")
        let definitions = [
            DirectiveDefinition(
                name: "include", arguments: [argument("if", .nonNull(.named("Boolean")))], locations: condition,
                isRepeatable: false, location: nil),
            DirectiveDefinition(
                name: "skip", arguments: [argument("if", .nonNull(.named("Boolean")))], locations: condition,
                isRepeatable: false, location: nil),
            DirectiveDefinition(
                name: "deprecated", arguments: [argument("reason", string, default: .string("No longer supported"))],
                locations: [.fieldDefinition, .argumentDefinition, .inputFieldDefinition, .enumValue],
                isRepeatable: false, location: nil),
            DirectiveDefinition(
                name: "specifiedBy", arguments: [argument("url", .nonNull(string))], locations: [.scalar],
                isRepeatable: false, location: nil),
            DirectiveDefinition(
                name: "connection",
                arguments: [
                    argument("key", .nonNull(string)), argument("filters", .list(.nonNull(string))),
                    argument("filter", .list(.nonNull(string))),
                ],
                locations: [.field], isRepeatable: false, location: nil),
            DirectiveDefinition(
                name: "deleteRecord", arguments: [argument("typename", string)], locations: [.field],
                isRepeatable: false, location: nil),
            DirectiveDefinition(
                name: "optional", arguments: [argument("if", .named("Boolean"), default: .boolean(true))],
                locations: [.field, .variableDefinition], isRepeatable: false, location: nil),
            DirectiveDefinition(
                name: "nonnull", arguments: [argument("fields", .nonNull(string), default: .string(""))],
                locations: [.object, .field], isRepeatable: false, location: nil),
        ]
        return Dictionary(uniqueKeysWithValues: definitions.map { ($0.name, $0) })
    }()
}
