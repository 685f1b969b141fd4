/// Why a JSON text was refused, and where: a byte offset, with the line and column it falls on.
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Hashable, Sendable {
        /// The input ended inside a value (or held no value at all).
        case unexpectedEnd
        /// A byte that cannot stand here; `expected` says what could.
        case unexpectedByte(UInt8, expected: String)
        /// A number that breaks JSON's grammar (leading zero, missing digits, …).
        case invalidNumber
        /// A number whose magnitude no `Double` holds.
        case numberOutOfRange
        /// A backslash followed by something JSON does not define.
        case invalidEscape
        /// A `\u` escape without four hex digits, or a surrogate without its partner.
        case invalidUnicodeEscape
        /// A raw control character (below U+0020) inside a string.
        case controlCharacterInString
        /// A string whose bytes are not UTF-8.
        case invalidUTF8
        /// A member name given twice in one object, where the reader needs names to be unique.
        case duplicateKey(String)
        /// Arrays and objects nested deeper than the reader's limit.
        case tooDeep(limit: Int)
        /// Something other than whitespace after the value.
        case trailingData
    }

    public let reason: Reason
    /// The byte offset of the problem in the input.
    public let offset: Int
    /// The 1-based line of `offset`.
    public let line: Int
    /// The 1-based column of `offset`, in bytes.
    public let column: Int

    public init(_ reason: Reason, offset: Int, line: Int, column: Int) {
        self.reason = reason
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// Makes an error for `offset`, counting lines in `bytes` (only ever on the error path).
    init(_ reason: Reason, offset: Int, in bytes: UnsafeRawBufferPointer) {
        let clamped = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        for i in 0..<clamped where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        self.init(reason, offset: offset, line: line, column: clamped - lineStart + 1)
    }

    /// What went wrong, in words.
    public var message: String {
        switch reason {
        case .unexpectedEnd: "unexpected end of input"
        case .unexpectedByte(let byte, let expected):
            "unexpected \(JSONError.describe(byte)), expected \(expected)"
        case .invalidNumber: "invalid number"
        case .numberOutOfRange: "number out of range"
        case .invalidEscape: "invalid escape sequence in string"
        case .invalidUnicodeEscape: "invalid \\u escape (bad hex digits or unpaired surrogate)"
        case .controlCharacterInString: "unescaped control character in string"
        case .invalidUTF8: "string is not valid UTF-8"
        case .duplicateKey(let name): "member \(JSONError.quote(name)) is given more than once in one object"
        case .tooDeep(let limit): "nesting deeper than \(limit) levels"
        case .trailingData: "unexpected data after the JSON value"
        }
    }

    public var description: String {
        "\(message) at byte \(offset) (line \(line), column \(column))"
    }

    /// `name` as a JSON string, cut to 40 characters for a message; `asciiOnly`, with every
    /// character past ASCII escaped too (`\u212A` for a Kelvin sign), so that a name that only
    /// looks like another reads as what it is.
    static func quote(_ name: String, asciiOnly: Bool = false) -> String {
        var text = name
        if text.unicodeScalars.count > 40 {
            text = String(String.UnicodeScalarView(text.unicodeScalars.prefix(40))) + "…"
        }
        var out = ""
        CanonicalJSON.writeString(text, into: &out)
        guard asciiOnly else { return out }
        var ascii = ""
        for scalar in out.unicodeScalars {
            guard !scalar.isASCII else {
                ascii.unicodeScalars.append(scalar)
                continue
            }
            for unit in String(scalar).utf16 {
                let hex = String(unit, radix: 16, uppercase: true)
                ascii += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return ascii
    }

    static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F {
            return "'" + String(UnicodeScalar(byte)) + "'"
        }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count < 2 ? "0" + hex : hex)
    }
}
