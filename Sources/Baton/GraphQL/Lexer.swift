/// Splits GraphQL source into tokens, one at a time, reading its UTF-8 bytes.
///
/// Whitespace, line terminators, commas, comments and a byte-order mark are skipped. Lines and
/// columns are tracked as the lexer advances; a column is found by counting the scalars between
/// the previous token and this one, so the whole pass stays linear even on one long line.
package struct Lexer {
    package let bytes: [UInt8]
    /// The offset of the next unread byte.
    private(set) var position = 0
    private var line = 1
    private var lineStart = 0
    /// A known (offset, column) on the current line, to count columns from.
    private var columnOffset = 0
    private var columnValue = 1

    package init(_ source: String) {
        bytes = Array(source.utf8)
    }

    /// The text of `token` as the source spells it.
    func text(of token: Token) -> String {
        String(decoding: bytes[token.start..<token.end], as: UTF8.self)
    }

    /// True when `token`'s bytes are exactly `word` (keywords are compared without allocating).
    package func token(_ token: Token, is word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard token.end - token.start == count else { return false }
        return word.withUTF8Buffer { buffer in
            var i = 0
            while i < count {
                if buffer[i] != bytes[token.start + i] { return false }
                i += 1
            }
            return true
        }
    }

    // MARK: Positions

    /// The line and column of `offset`, which must lie on the current line.
    mutating func location(at offset: Int) -> GraphQLLocation {
        let target = min(max(offset, lineStart), bytes.count)
        if columnOffset < lineStart || columnOffset > target {
            columnOffset = lineStart
            columnValue = 1
        }
        var i = columnOffset
        var column = columnValue
        while i < target {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        columnOffset = target
        columnValue = column
        return GraphQLLocation(line: line, column: column)
    }

    /// Moves past a token that an extension read.
    mutating func skipTo(_ offset: Int) {
        position = offset
    }

    /// Records that a line ended and the next one starts at `offset`.
    mutating func startLine(at offset: Int) {
        line += 1
        lineStart = offset
    }

    mutating func error(_ message: String, at offset: Int) -> GraphQLError {
        GraphQLError(message, at: location(at: offset))
    }

    /// The character at `offset` as an error quotes it: `"x"`, `U+0007` or `<EOF>`.
    func describeCharacter(at offset: Int) -> String {
        guard offset < bytes.count else { return "<EOF>" }
        let lead = bytes[offset]
        let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        let text = String(decoding: bytes[offset..<min(offset + length, bytes.count)], as: UTF8.self)
        guard let scalar = text.unicodeScalars.first else { return "<EOF>" }
        if scalar.value < 0x20 || scalar.value == 0x7F {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        return "\"" + text + "\""
    }

    // MARK: Tokens

    /// Reads the next token; at the end of the source, an `endOfFile` token (again and again).
    package mutating func next() throws -> Token {
        skipIgnored()
        let start = position
        let location = location(at: start)
        guard start < bytes.count else {
            return Token(kind: .endOfFile, start: start, end: start, location: location)
        }
        let kind: Token.Kind
        switch bytes[start] {
        case UInt8(ascii: "!"): kind = .bang
        case UInt8(ascii: "$"): kind = .dollar
        case UInt8(ascii: "&"): kind = .ampersand
        case UInt8(ascii: "("): kind = .parenLeft
        case UInt8(ascii: ")"): kind = .parenRight
        case UInt8(ascii: ":"): kind = .colon
        case UInt8(ascii: "="): kind = .equals
        case UInt8(ascii: "@"): kind = .at
        case UInt8(ascii: "["): kind = .bracketLeft
        case UInt8(ascii: "]"): kind = .bracketRight
        case UInt8(ascii: "{"): kind = .braceLeft
        case UInt8(ascii: "|"): kind = .pipe
        case UInt8(ascii: "}"): kind = .braceRight
        case UInt8(ascii: "."):
            guard start + 2 < bytes.count, bytes[start + 1] == UInt8(ascii: "."),
                  bytes[start + 2] == UInt8(ascii: ".")
            else { throw error("unexpected character \".\", did you mean \"...\"?", at: start) }
            position = start + 3
            return Token(kind: .spread, start: start, end: position, location: location)
        case UInt8(ascii: "\""):
            if start + 2 < bytes.count, bytes[start + 1] == UInt8(ascii: "\""),
               bytes[start + 2] == UInt8(ascii: "\"") {
                return try lexBlockString(start: start, location: location)
            }
            return try lexString(start: start, location: location)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try lexNumber(start: start, location: location)
        case let byte where Lexer.isNameStart(byte):
            var i = start + 1
            while i < bytes.count, Lexer.isNameContinue(bytes[i]) { i += 1 }
            position = i
            return Token(kind: .name, start: start, end: i, location: location)
        default:
            throw error("unexpected character \(describeCharacter(at: start))", at: start)
        }
        position = start + 1
        return Token(kind: kind, start: start, end: start + 1, location: location)
    }

    /// Skips whitespace, line terminators, commas, comments and byte-order marks.
    private mutating func skipIgnored() {
        let count = bytes.count
        while position < count {
            switch bytes[position] {
            case 0x20, 0x09, UInt8(ascii: ","):
                position += 1
            case 0x0A:
                position += 1
                startLine(at: position)
            case 0x0D:
                position += 1
                if position < count, bytes[position] == 0x0A { position += 1 }
                startLine(at: position)
            case UInt8(ascii: "#"):
                while position < count, bytes[position] != 0x0A, bytes[position] != 0x0D { position += 1 }
            case 0xEF where position + 2 < count && bytes[position + 1] == 0xBB && bytes[position + 2] == 0xBF:
                position += 3
            default:
                return
            }
        }
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, not followed by a digit, `.` or a name.
    private mutating func lexNumber(start: Int, location: GraphQLLocation) throws -> Token {
        var i = start
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        if i < bytes.count, bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < bytes.count, Lexer.isDigit(bytes[i]) {
                throw error("invalid number, unexpected digit after 0: \(describeCharacter(at: i))", at: i)
            }
        } else {
            i = try digits(from: i)
        }
        var isFloat = false
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            isFloat = true
            i = try digits(from: i + 1)
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            isFloat = true
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            i = try digits(from: i)
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") || Lexer.isNameStart(bytes[i]) {
            throw error("invalid number, expected digit but found \(describeCharacter(at: i))", at: i)
        }
        position = i
        return Token(kind: isFloat ? .float : .int, start: start, end: i, location: location)
    }

    /// The offset after one or more digits starting at `offset`.
    private mutating func digits(from offset: Int) throws -> Int {
        var i = offset
        while i < bytes.count, Lexer.isDigit(bytes[i]) { i += 1 }
        if i == offset {
            throw error("invalid number, expected digit but found \(describeCharacter(at: i))", at: i)
        }
        return i
    }

    // MARK: Character classes

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "_")
    }

    static func isNameContinue(_ byte: UInt8) -> Bool {
        isNameStart(byte) || isDigit(byte)
    }

    /// True when `text` is a GraphQL name: a letter or `_`, then letters, digits and `_`, ASCII.
    static func isName(_ text: String) -> Bool {
        var bytes = text.utf8.makeIterator()
        guard let first = bytes.next(), isNameStart(first) else { return false }
        while let byte = bytes.next() {
            if !isNameContinue(byte) { return false }
        }
        return true
    }
}
