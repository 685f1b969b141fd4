/// A position in GraphQL source text: 1-based line and column.
///
/// Columns count Unicode scalars from the start of the line; `\n`, `\r\n` and `\r` each end a line.
public struct GraphQLLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The start of the source, used for errors about a document as a whole.
    public static let start = GraphQLLocation(line: 1, column: 1)

    public var description: String { "\(line):\(column)" }

    public static func < (lhs: GraphQLLocation, rhs: GraphQLLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

/// A syntax or validation error in a GraphQL document or schema, with where it happened.
///
/// Its description reads `3:14: expected Name, found "}"`. Errors about a document as a whole
/// (such as an operation name it does not define) point at `1:1`.
public struct GraphQLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, without the position.
    public let message: String
    public let location: GraphQLLocation

    public init(_ message: String, at location: GraphQLLocation) {
        self.message = message
        self.location = location
    }

    /// The 1-based line of the error.
    public var line: Int { location.line }
    /// The 1-based column of the error.
    public var column: Int { location.column }

    public var description: String { "\(location): \(message)" }
}
