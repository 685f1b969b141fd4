import Baton

/// `__typename` added to every selection set of an operation file but the operations' own, as
/// Apollo's code generators add it to the documents an app sends (`world.json`'s `addTypename`).
///
/// The text changes only inside lines: each insertion is a space and `__typename` right after a
/// selection set's `{`, so lines keep their numbers and a problem found in the new text is moved
/// back to the column the user's file has (``original(_:)``).
package struct TypenameInsertion {
    /// One insertion: the column (in the new text) its first character has, on `line`.
    package struct Insertion: Equatable {
        package var line: Int
        package var column: Int
    }

    /// What is inserted after each `{`.
    package static let inserted = " __typename"

    /// The file with `__typename` added.
    package let text: String
    /// Where it was added, in order.
    package let insertions: [Insertion]

    /// Adds `__typename` to `source`'s selection sets: every `{` outside parentheses (inside them
    /// a `{` opens an input object) except the one that opens an operation. The tokens are Baton's
    /// lexer's, so strings, block strings and comments are passed over as the parser passes over
    /// them; a file the lexer refuses comes back as it is, for the parser to report where it is.
    package init(_ source: String) {
        var lexer = Lexer(source)
        let bytes = lexer.bytes
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var copied = 0
        var insertions: [Insertion] = []
        var parens = 0
        var braces = 0
        var inDefinition = false
        var inFragment = false
        var added = 0  // columns inserted so far on `addedLine`
        var addedLine = 0
        while true {
            guard let token = try? lexer.next() else {
                self.text = source
                self.insertions = []
                return
            }
            switch token.kind {
            case .endOfFile:
                output.append(contentsOf: bytes[copied...])
                self.text = String(decoding: output, as: UTF8.self)
                self.insertions = insertions
                return
            case .parenLeft:
                parens += 1
            case .parenRight:
                parens = max(0, parens - 1)
            case .name where braces == 0 && parens == 0 && !inDefinition:
                // The definition's first word: `fragment`, or an operation's keyword or name.
                inDefinition = true
                inFragment = lexer.token(token, is: "fragment")
            case .braceLeft where parens == 0:
                braces += 1
                guard braces > 1 || inFragment else { continue }
                output.append(contentsOf: bytes[copied..<token.end])
                output.append(contentsOf: Self.inserted.utf8)
                copied = token.end
                if token.location.line != addedLine {
                    addedLine = token.location.line
                    added = 0
                }
                insertions.append(Insertion(line: token.location.line, column: token.location.column + 1 + added))
                added += Self.inserted.unicodeScalars.count
            case .braceRight where parens == 0:
                braces = max(0, braces - 1)
                if braces == 0 { inDefinition = false }
            default:
                break
            }
        }
    }

    /// `location` in the new text, moved to where the same character is in the user's file (a
    /// place inside an inserted `__typename` moves to its `{`).
    package func original(_ location: GraphQLLocation) -> GraphQLLocation {
        let length = Self.inserted.unicodeScalars.count
        var shift = 0
        for insertion in insertions where insertion.line == location.line {
            if insertion.column > location.column { break }
            if location.column < insertion.column + length {
                return GraphQLLocation(line: location.line, column: insertion.column - 1 - shift)
            }
            shift += length
        }
        return GraphQLLocation(line: location.line, column: location.column - shift)
    }
}
