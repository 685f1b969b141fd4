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
    /// a `{` opens an input object) except the one that opens an operation. Strings, block
    /// strings and comments are skipped as the lexer skips them; a file the parser would refuse
    /// comes out with its error in the same place.
    package init(_ source: String) {
        var output = String.UnicodeScalarView()
        var insertions: [Insertion] = []
        let scalars = Array(source.unicodeScalars)
        var index = 0
        var line = 1
        var column = 1
        var added = 0  // columns inserted so far on this line
        var parens = 0
        var braces = 0
        var definitionKeyword: String?  // the first name of the definition at depth 0
        func emit(_ scalar: Unicode.Scalar) {
            output.append(scalar)
            if scalar == "\n" || (scalar == "\r" && !(index + 1 < scalars.count && scalars[index + 1] == "\n")) {
                line += 1
                column = 1
                added = 0
            } else if scalar != "\r" {
                column += 1
            }
            index += 1
        }
        func at(_ offset: Int) -> Unicode.Scalar? {
            index + offset < scalars.count ? scalars[index + offset] : nil
        }
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "#":
                while let next = at(0), next != "\n", next != "\r" { emit(next) }
            case "\"":
                if at(1) == "\"", at(2) == "\"" {
                    emit("\""); emit("\""); emit("\"")
                    while index < scalars.count {
                        if scalars[index] == "\\", at(1) == "\"", at(2) == "\"", at(3) == "\"" {
                            emit("\\"); emit("\""); emit("\""); emit("\"")
                        } else if scalars[index] == "\"", at(1) == "\"", at(2) == "\"" {
                            emit("\""); emit("\""); emit("\"")
                            break
                        } else {
                            emit(scalars[index])
                        }
                    }
                } else {
                    emit("\"")
                    while let next = at(0), next != "\n", next != "\r" {
                        if next == "\\", let escaped = at(1), escaped != "\n", escaped != "\r" {
                            emit(next)
                            emit(escaped)
                            continue
                        }
                        emit(next)
                        if next == "\"" { break }
                    }
                }
            case "(":
                parens += 1
                emit(scalar)
            case ")":
                parens = max(0, parens - 1)
                emit(scalar)
            case "{":
                let opensSelections = parens == 0 && (braces > 0 || definitionKeyword == "fragment")
                if parens == 0 { braces += 1 }
                emit(scalar)
                if opensSelections {
                    insertions.append(Insertion(line: line, column: column + added))
                    output.append(contentsOf: Self.inserted.unicodeScalars)
                    added += Self.inserted.unicodeScalars.count
                }
            case "}":
                if parens == 0 {
                    braces = max(0, braces - 1)
                    if braces == 0 { definitionKeyword = nil }
                }
                emit(scalar)
            default:
                if Self.startsName(scalar) {
                    var name = String.UnicodeScalarView()
                    while let next = at(0), Self.startsName(next) || ("0"..."9").contains(next) {
                        name.append(next)
                        emit(next)
                    }
                    if braces == 0, parens == 0, definitionKeyword == nil { definitionKeyword = String(name) }
                } else {
                    emit(scalar)
                }
            }
        }
        text = String(output)
        self.insertions = insertions
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

    private static func startsName(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}
