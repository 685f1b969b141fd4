/// A value as written in GraphQL source: a literal of any kind or a variable, nested in lists
/// and input objects.
public indirect enum GraphQLValue: Sendable, Hashable {
    /// `$name`; `location` is where the `$` is.
    case variable(String, location: GraphQLLocation)
    case int(Int)
    case float(Double)
    /// A number literal as written, when neither case above holds it for sure: an integer past
    /// 64 bits (a `BigInt` argument), or a float with more than 15 significant digits or past a
    /// double's normal range (`0.10000000000000000001`, `1e-400`). Its readers decide what it
    /// stands for, as they decide a response's numbers (docs/design.md, "Bad input").
    case decimal(String)
    /// A string or a block string, decoded.
    case string(String)
    case boolean(Bool)
    case null
    /// An enum value, such as `ASC`.
    case enumeration(String)
    case list([GraphQLValue])
    /// An input object; fields in the order written.
    case object([GraphQLObjectField])

    /// True when the value mentions no variable at any depth.
    public var isConstant: Bool {
        switch self {
        case .variable: false
        case .list(let items): items.allSatisfy(\.isConstant)
        case .object(let fields): fields.allSatisfy(\.value.isConstant)
        default: true
        }
    }
}

/// One `name: value` member of an input object value.
public struct GraphQLObjectField: Sendable, Hashable {
    public let name: String
    public let value: GraphQLValue
    public let location: GraphQLLocation

    public init(name: String, value: GraphQLValue, location: GraphQLLocation) {
        self.name = name
        self.value = value
        self.location = location
    }
}

/// A type as written: a named type, wrapped in lists and non-null markers (`[ID!]!`).
public indirect enum GraphQLTypeReference: Sendable, Hashable, CustomStringConvertible {
    case named(String)
    case list(GraphQLTypeReference)
    case nonNull(GraphQLTypeReference)

    /// The innermost named type (`ID` in `[ID!]!`).
    public var namedType: String {
        switch self {
        case .named(let name): name
        case .list(let inner), .nonNull(let inner): inner.namedType
        }
    }

    /// How many list wrappers surround the named type.
    public var listDepth: Int {
        switch self {
        case .named: 0
        case .list(let inner): inner.listDepth + 1
        case .nonNull(let inner): inner.listDepth
        }
    }

    /// True when the outermost wrapper is `!`.
    public var isNonNull: Bool {
        if case .nonNull = self { return true }
        return false
    }

    /// The type in GraphQL syntax, without spaces: `[ID!]!`.
    public var description: String {
        switch self {
        case .named(let name): name
        case .list(let inner): "[" + inner.description + "]"
        case .nonNull(let inner): inner.description + "!"
        }
    }
}

/// An argument of a field or a directive: `name: value`.
public struct GraphQLArgument: Sendable, Hashable {
    public let name: String
    public let value: GraphQLValue
    /// Where the argument's name is.
    public let location: GraphQLLocation

    public init(name: String, value: GraphQLValue, location: GraphQLLocation) {
        self.name = name
        self.value = value
        self.location = location
    }
}

/// A directive as written (`@include(if: $x)`); the parser keeps every directive, known or not.
public struct GraphQLDirective: Sendable, Hashable {
    public let name: String
    public let arguments: [GraphQLArgument]
    /// Where the `@` is.
    public let location: GraphQLLocation

    public init(name: String, arguments: [GraphQLArgument], location: GraphQLLocation) {
        self.name = name
        self.arguments = arguments
        self.location = location
    }

    /// The argument called `name`, if written.
    public func argument(_ name: String) -> GraphQLArgument? {
        arguments.first { $0.name == name }
    }
}
