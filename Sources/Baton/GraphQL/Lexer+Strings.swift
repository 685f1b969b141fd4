/// String and block string tokens: escapes, Unicode escapes and block string indentation.
extension Lexer {
    /// A `"…"` string: escapes decoded, no line terminators inside.
    mutating func lexString(start: Int, location: GraphQLLocation) throws -> Token {
        var i = start + 1
        var segmentStart = i
        var decoded: [UInt8] = []
        var hasEscapes = false
        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "\""):
                let value: String
                if hasEscapes {
                    decoded.append(contentsOf: bytes[segmentStart..<i])
                    value = String(decoding: decoded, as: UTF8.self)
                } else {
                    value = String(decoding: bytes[segmentStart..<i], as: UTF8.self)
                }
                return finish(.string, start: start, end: i + 1, location: location, value: value)
            case 0x0A, 0x0D:
                throw error("unterminated string", at: i)
            case UInt8(ascii: "\\"):
                hasEscapes = true
                decoded.append(contentsOf: bytes[segmentStart..<i])
                i = try escape(at: i, into: &decoded)
                segmentStart = i
            case let control where control < 0x20 && control != 0x09:
                throw error("invalid character within string: \(describeCharacter(at: i))", at: i)
            default:
                i += 1
            }
        }
        throw error("unterminated string", at: bytes.count)
    }

    /// Decodes the escape sequence at `offset` (a backslash) into `out`; returns the offset after it.
    private mutating func escape(at offset: Int, into out: inout [UInt8]) throws -> Int {
        guard offset + 1 < bytes.count else { throw error("unterminated string", at: bytes.count) }
        let simple: UInt8
        switch bytes[offset + 1] {
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            let (scalar, end) = try unicodeEscape(at: offset)
            UTF8.encode(scalar) { out.append($0) }
            return end
        default:
            let character = offset + 1 < bytes.count ? describeCharacter(at: offset + 1) : "<EOF>"
            throw error("invalid escape sequence: \\ followed by \(character)", at: offset)
        }
        out.append(simple)
        return offset + 2
    }

    /// `\uXXXX` (a surrogate pair as two of them) or `\u{X…}`, starting at the backslash.
    private mutating func unicodeEscape(at offset: Int) throws -> (Unicode.Scalar, Int) {
        var i = offset + 2
        if i < bytes.count, bytes[i] == UInt8(ascii: "{") {
            i += 1
            var value: UInt32 = 0
            var digitCount = 0
            while i < bytes.count, let digit = Lexer.hexValue(bytes[i]) {
                value = value &* 16 &+ digit
                digitCount += 1
                if value > 0x10FFFF { break }
                i += 1
            }
            guard digitCount > 0, value <= 0x10FFFF, i < bytes.count, bytes[i] == UInt8(ascii: "}"),
                  let scalar = Unicode.Scalar(value)
            else { throw invalidUnicodeEscape(at: offset, end: i + 1) }
            return (scalar, i + 1)
        }
        guard let high = hex4(at: i) else {
            var end = i
            while end < min(i + 4, bytes.count), Lexer.hexValue(bytes[end]) != nil { end += 1 }
            throw invalidUnicodeEscape(at: offset, end: end)
        }
        i += 4
        if (0xD800...0xDBFF).contains(high) {
            guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u"),
                  let low = hex4(at: i + 2), (0xDC00...0xDFFF).contains(low),
                  let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            else { throw invalidUnicodeEscape(at: offset, end: i) }
            return (scalar, i + 6)
        }
        guard let scalar = Unicode.Scalar(high) else { throw invalidUnicodeEscape(at: offset, end: i) }
        return (scalar, i)
    }

    private mutating func invalidUnicodeEscape(at offset: Int, end: Int) -> GraphQLError {
        var stop = min(end, bytes.count)
        // Quote whole characters only, and nothing past the line.
        while stop < bytes.count, bytes[stop] & 0xC0 == 0x80 { stop += 1 }
        if let lineEnd = bytes[offset..<stop].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) { stop = lineEnd }
        let quoted = String(decoding: bytes[offset..<stop], as: UTF8.self)
        return error("invalid Unicode escape sequence \"\(quoted)\"", at: offset)
    }

    /// Four hex digits at `offset` as a number, or `nil`.
    private func hex4(at offset: Int) -> UInt32? {
        guard offset + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for i in offset..<offset + 4 {
            guard let digit = Lexer.hexValue(bytes[i]) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// A `"""…"""` block string: `\"""` is the only escape; the value is dedented and trimmed.
    mutating func lexBlockString(start: Int, location: GraphQLLocation) throws -> Token {
        var i = start + 3
        var segmentStart = i
        var raw: [UInt8] = []
        let quote = UInt8(ascii: "\"")
        while i < bytes.count {
            let byte = bytes[i]
            if byte == quote, i + 2 < bytes.count, bytes[i + 1] == quote, bytes[i + 2] == quote {
                raw.append(contentsOf: bytes[segmentStart..<i])
                return finish(.blockString, start: start, end: i + 3, location: location,
                              value: Lexer.blockStringValue(raw))
            }
            switch byte {
            case UInt8(ascii: "\\")
                where i + 3 < bytes.count && bytes[i + 1] == quote && bytes[i + 2] == quote && bytes[i + 3] == quote:
                raw.append(contentsOf: bytes[segmentStart..<i])
                raw.append(contentsOf: [quote, quote, quote])
                i += 4
                segmentStart = i
            case 0x0A:
                i += 1
                startLine(at: i)
            case 0x0D:
                i += 1
                if i < bytes.count, bytes[i] == 0x0A { i += 1 }
                startLine(at: i)
            case let control where control < 0x20 && control != 0x09:
                throw error("invalid character within block string: \(describeCharacter(at: i))", at: i)
            default:
                i += 1
            }
        }
        throw error("unterminated block string", at: bytes.count)
    }

    /// The spec's block string value: common indentation removed (except from the first line),
    /// leading and trailing blank lines dropped, lines joined with `\n`.
    static func blockStringValue(_ raw: [UInt8]) -> String {
        var lines: [Range<Int>] = []
        var lineStart = 0
        var i = 0
        while i < raw.count {
            switch raw[i] {
            case 0x0A:
                lines.append(lineStart..<i)
                i += 1
                lineStart = i
            case 0x0D:
                lines.append(lineStart..<i)
                i += 1
                if i < raw.count, raw[i] == 0x0A { i += 1 }
                lineStart = i
            default:
                i += 1
            }
        }
        lines.append(lineStart..<raw.count)

        func indentation(_ line: Range<Int>) -> Int {
            var j = line.lowerBound
            while j < line.upperBound, raw[j] == 0x20 || raw[j] == 0x09 { j += 1 }
            return j - line.lowerBound
        }
        var common = Int.max
        for line in lines.dropFirst() {
            let indent = indentation(line)
            if indent < line.count, indent < common { common = indent }
        }
        var first = 0
        var last = lines.count - 1
        while first <= last, indentation(lines[first]) == lines[first].count { first += 1 }
        while last >= first, indentation(lines[last]) == lines[last].count { last -= 1 }
        guard first <= last else { return "" }

        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        for index in first...last {
            if index > first { out.append(0x0A) }
            var line = lines[index]
            if index > 0, common != Int.max {
                line = (line.lowerBound + min(common, line.count))..<line.upperBound
            }
            out.append(contentsOf: raw[line])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func finish(
        _ kind: Token.Kind, start: Int, end: Int, location: GraphQLLocation, value: String
    ) -> Token {
        skipTo(end)
        return Token(kind: kind, start: start, end: end, location: location, string: value)
    }
}
