import Baton

/// A world's schema: one text (SDL, or an introspection result) and any SDL that extends it in
/// files of its own, as Apollo Kotlin keeps client-side fields and directives in `extra.graphqls`.
extension World {
    /// The schema `text` (SDL, or an introspection result) and its `extensions` (SDL), read as one
    /// document; a problem is placed in the file and at the line where it is written (a problem
    /// in an introspection result's own SDL at its 1:1).
    static func parseSchema(_ text: String, source: String, extensions: [(source: String, text: String)]) throws -> Schema {
        guard !extensions.isEmpty else {
            do {
                return try Schema.parse(text)
            } catch let error as GraphQLError {
                throw WorldError(error, source: source)
            }
        }
        var combined: String
        do {
            combined = try Schema.sdlText(text)
        } catch let error as GraphQLError {
            throw WorldError(error, source: source)
        }
        let fromIntrospection = combined != text
        // Each part starts on a line of its own: the line it starts on, and its file.
        var parts: [(firstLine: Int, source: String)] = [(1, source)]
        for part in extensions {
            combined += "\n"
            parts.append((Self.lineBreaks(in: combined) + 1, part.source))
            combined += part.text
        }
        do {
            return try Schema.parse(combined)
        } catch let error as GraphQLError {
            let part = parts.last { $0.firstLine <= error.line } ?? parts[0]
            if part.firstLine == 1 && fromIntrospection {
                throw WorldError("introspection result: the schema it describes does not hold together: \(error.message)", source: source, at: .start)
            }
            throw WorldError(error.message, source: part.source, at: GraphQLLocation(line: error.line - part.firstLine + 1, column: error.column))
        }
    }

    /// Line breaks in `text` as GraphQL's lexer counts them: LF, CRLF and CR, each one.
    private static func lineBreaks(in text: String) -> Int {
        var count = 0
        var afterCR = false
        for byte in text.utf8 {
            if byte == 0x0A {
                if !afterCR { count += 1 }
                afterCR = false
            } else if byte == 0x0D {
                count += 1
                afterCR = true
            } else {
                afterCR = false
            }
        }
        return count
    }
}
