import Baton

/// Why a world cannot be served, and where: the file (or the name a test gave), line and column.
///
/// Reads `Queries.graphql:3:14: field "nme" does not exist on "Character"`. Every problem a
/// world can have is reported this way before any seed runs.
package struct WorldError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file or the name of the text the problem is in.
    package let source: String
    /// The 1-based line of the problem.
    package let line: Int
    /// The 1-based column of the problem.
    package let column: Int
    /// What is wrong, without the position.
    package let message: String

    package init(source: String, line: Int, column: Int, message: String) {
        self.source = source
        self.line = line
        self.column = column
        self.message = message
    }

    /// A problem at `location` of `source`.
    package init(_ message: String, source: String, at location: GraphQLLocation) {
        self.init(source: source, line: location.line, column: location.column, message: message)
    }

    /// A parser's error, placed in `source`.
    package init(_ error: GraphQLError, source: String) {
        self.init(error.message, source: source, at: error.location)
    }

    package var description: String { "\(source):\(line):\(column): \(message)" }
}
