/// A recursive-descent parser over the lexer's tokens, with one token of lookahead.
///
/// This file holds what executable documents and schemas share: token handling, values, types,
/// arguments and directives. Nesting (selection sets, lists, objects, list types) is limited to
/// ``Parser/maximumDepth`` levels so that no input can exhaust the stack.
struct Parser {
    /// The deepest nesting of brackets and braces accepted.
    static let maximumDepth = 128

    private(set) var lexer: Lexer
    /// The current token, not yet consumed.
    private(set) var token: Token
    private var depth = 0

    init(_ source: String) throws {
        var lexer = Lexer(source)
        let first = try lexer.next()
        self.lexer = lexer
        self.token = first
    }

    // MARK: Tokens

    /// Consumes the current token.
    mutating func advance() throws {
        token = try lexer.next()
    }

    /// True when the current token is the name `word`.
    func at(keyword word: StaticString) -> Bool {
        token.kind == .name && lexer.token(token, is: word)
    }

    /// Consumes the current token when it is of `kind`.
    mutating func skip(_ kind: Token.Kind) throws -> Bool {
        guard token.kind == kind else { return false }
        try advance()
        return true
    }

    /// Consumes a token of `kind` or throws `expected …, found …`.
    @discardableResult
    mutating func expect(_ kind: Token.Kind) throws -> Token {
        guard token.kind == kind else { throw unexpected(expected: kind.spelling) }
        let consumed = token
        try advance()
        return consumed
    }

    /// Consumes the keyword `word` or throws.
    mutating func expect(keyword word: StaticString) throws {
        guard at(keyword: word) else { throw unexpected(expected: "\"\(word)\"") }
        try advance()
    }

    /// Consumes a name and returns it with its location.
    mutating func expectName() throws -> (name: String, location: GraphQLLocation) {
        guard token.kind == .name else { throw unexpected(expected: Token.Kind.name.spelling) }
        let name = lexer.text(of: token)
        let location = token.location
        try advance()
        return (name, location)
    }

    /// The current token's text (for names and numbers).
    var tokenText: String { lexer.text(of: token) }

    /// `expected X, found Y` (or `unexpected Y`) at the current token.
    func unexpected(expected: String? = nil) -> GraphQLError {
        let found = describe(token)
        if let expected {
            return GraphQLError("expected \(expected), found \(found)", at: token.location)
        }
        return GraphQLError("unexpected \(found)", at: token.location)
    }

    /// How an error names a token: `"}"`, `Name "foo"`, `String "text"`, `<EOF>`.
    func describe(_ token: Token) -> String {
        guard token.kind.hasText else { return token.kind.spelling }
        var text = token.kind == .string || token.kind == .blockString ? token.string : lexer.text(of: token)
        if text.unicodeScalars.count > 40 {
            text = String(String.UnicodeScalarView(text.unicodeScalars.prefix(40))) + "…"
        }
        var quoted = ""
        CanonicalJSON.writeString(text, into: &quoted)
        return token.kind.spelling + " " + quoted
    }

    /// Enters one level of nesting, throwing past ``maximumDepth``.
    mutating func enterNesting() throws {
        depth += 1
        if depth > Parser.maximumDepth {
            throw GraphQLError("nesting is deeper than \(Parser.maximumDepth) levels", at: token.location)
        }
    }

    mutating func leaveNesting() {
        depth -= 1
    }

    // MARK: Values

    /// The number token as written (``GraphQLValue/decimal(_:)``), once JSON's reading of it says
    /// it is in range.
    private mutating func numberAsWritten() throws -> GraphQLValue {
        let text = tokenText
        guard (try? JSONValue.parse(text)) != nil else {
            throw GraphQLError("number \(text) is out of range", at: token.location)
        }
        try advance()
        return .decimal(text)
    }

    /// A value; with `constant`, variables are an error (default values, schema definitions).
    mutating func parseValue(constant: Bool) throws -> GraphQLValue {
        switch token.kind {
        case .dollar:
            let location = token.location
            if constant {
                throw GraphQLError("unexpected variable in a constant value", at: location)
            }
            try advance()
            return .variable(try expectName().name, location: location)
        case .int:
            guard let value = Int(tokenText) else { return try numberAsWritten() }
            try advance()
            return .int(value)
        case .float:
            guard let value = Double(tokenText), value.isFinite else {
                throw GraphQLError("float \(tokenText) is out of range", at: token.location)
            }
            // Fifteen significant digits in a double's normal range always come back from it.
            let significant = tokenText.prefix { $0 != "e" && $0 != "E" }.drop { $0 == "-" || $0 == "0" || $0 == "." }
            if significant.filter(\.isNumber).count > 15 || (!value.isNormal && significant.contains { $0 != "0" && $0 != "." }) {
                return try numberAsWritten()
            }
            try advance()
            return .float(value)
        case .string, .blockString:
            let value = token.string
            try advance()
            return .string(value)
        case .name:
            let value: GraphQLValue =
                if at(keyword: "true") { .boolean(true) }
                else if at(keyword: "false") { .boolean(false) }
                else if at(keyword: "null") { .null }
                else { .enumeration(tokenText) }
            try advance()
            return value
        case .bracketLeft:
            try enterNesting()
            try advance()
            var items: [GraphQLValue] = []
            while try !skip(.bracketRight) {
                items.append(try parseValue(constant: constant))
            }
            leaveNesting()
            return .list(items)
        case .braceLeft:
            try enterNesting()
            try advance()
            var fields: [GraphQLObjectField] = []
            var names: Set<String> = []
            while try !skip(.braceRight) {
                let (name, location) = try expectName()
                try expect(.colon)
                if !names.insert(name).inserted {
                    throw GraphQLError("duplicate input object field \"\(name)\"", at: location)
                }
                fields.append(GraphQLObjectField(name: name, value: try parseValue(constant: constant), location: location))
            }
            leaveNesting()
            return .object(fields)
        default:
            throw unexpected(expected: "a value")
        }
    }

    // MARK: Types, arguments, directives

    /// `Name`, `[Type]`, either followed by `!`.
    mutating func parseTypeReference() throws -> GraphQLTypeReference {
        var type: GraphQLTypeReference
        if token.kind == .bracketLeft {
            try enterNesting()
            try advance()
            let inner = try parseTypeReference()
            try expect(.bracketRight)
            leaveNesting()
            type = .list(inner)
        } else {
            type = .named(try expectName().name)
        }
        if try skip(.bang) { type = .nonNull(type) }
        return type
    }

    /// `(name: value, …)` when the current token opens it; at least one argument.
    mutating func parseArguments(constant: Bool) throws -> [GraphQLArgument] {
        guard try skip(.parenLeft) else { return [] }
        var arguments: [GraphQLArgument] = []
        repeat {
            let (name, location) = try expectName()
            try expect(.colon)
            arguments.append(GraphQLArgument(name: name, value: try parseValue(constant: constant), location: location))
        } while try !skip(.parenRight)
        return arguments
    }

    /// Zero or more `@name(arguments)`.
    mutating func parseDirectives(constant: Bool) throws -> [GraphQLDirective] {
        var directives: [GraphQLDirective] = []
        while token.kind == .at {
            let location = token.location
            try advance()
            let name = try expectName().name
            directives.append(GraphQLDirective(name: name, arguments: try parseArguments(constant: constant), location: location))
        }
        return directives
    }
}
