/// Why the oracle's JSON parser refused its input, and where.
package struct OracleJSONError: Error, Hashable, Sendable, CustomStringConvertible {
    package var reason: String
    /// The byte offset of the problem.
    package var offset: Int

    package var description: String { "\(reason) at byte \(offset)" }
}

/// A small strict JSON parser (RFC 8259) over UTF-8 bytes, written for the oracle alone.
///
/// Numbers without a fraction or an exponent that fit `Int` are `.int`; longer integers
/// `.longInteger` (keeping their digits); whole numbers written with a fraction or an exponent
/// `.decimal` (keeping the whole value); other numbers a double does not hold `.exact` (keeping
/// their canonical decimal text, ``OracleDecimal``); every other number is `.double`. Strings must be valid UTF-8 with no raw control characters; `\u` escapes must pair
/// surrogates. Nesting deeper than 512 levels is refused rather than recursed into.
package struct OracleJSONParser {
    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0
    private static let maxDepth = 512
    /// The byte an escape that stands for one byte stands for: `\"` `\\` `\/` `\b` `\f` `\n`
    /// `\r` `\t`; `nil` for any other escape letter.
    private static func shortEscape(_ letter: UInt8) -> UInt8? {
        switch letter {
        case 0x22: 0x22
        case 0x5C: 0x5C
        case 0x2F: 0x2F
        case 0x62: 0x08
        case 0x66: 0x0C
        case 0x6E: 0x0A
        case 0x72: 0x0D
        case 0x74: 0x09
        default: nil
        }
    }

    /// Parses one JSON document (surrounding whitespace allowed, nothing else).
    package static func parse(_ bytes: [UInt8]) throws(OracleJSONError) -> OracleJSON {
        var parser = OracleJSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.fail("text after the JSON value") }
        return value
    }

    /// Parses a document given as text.
    package static func parse(_ text: String) throws(OracleJSONError) -> OracleJSON {
        try parse(Array(text.utf8))
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func fail(_ reason: String, at offset: Int? = nil) -> OracleJSONError {
        OracleJSONError(reason: reason, offset: offset ?? position)
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func value() throws(OracleJSONError) -> OracleJSON {
        guard position < bytes.count else { throw fail("unexpected end") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw fail("unexpected byte \(bytes[position])")
        }
    }

    private mutating func literal(_ word: String) throws(OracleJSONError) {
        for expected in word.utf8 {
            guard position < bytes.count, bytes[position] == expected else { throw fail("bad literal") }
            position += 1
        }
    }

    private mutating func enter() throws(OracleJSONError) {
        depth += 1
        if depth > Self.maxDepth { throw fail("nesting deeper than \(Self.maxDepth)") }
    }

    private mutating func object() throws(OracleJSONError) -> OracleJSON {
        try enter()
        position += 1
        var members: [OracleJSONMember] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
            let key = try string()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            position += 1
            skipWhitespace()
            members.append(OracleJSONMember(key: key, value: try value()))
            skipWhitespace()
            guard position < bytes.count else { throw fail("unexpected end in an object") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            guard bytes[position] == UInt8(ascii: "}") else { throw fail("expected ',' or '}'") }
            position += 1
            depth -= 1
            return .object(members)
        }
    }

    private mutating func array() throws(OracleJSONError) -> OracleJSON {
        try enter()
        position += 1
        var items: [OracleJSON] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try value())
            skipWhitespace()
            guard position < bytes.count else { throw fail("unexpected end in a list") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            guard bytes[position] == UInt8(ascii: "]") else { throw fail("expected ',' or ']'") }
            position += 1
            depth -= 1
            return .array(items)
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func number() throws(OracleJSONError) -> OracleJSON {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, Self.isDigit(bytes[position]) else { throw fail("bad number", at: start) }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, Self.isDigit(bytes[position]) { throw fail("leading zero", at: start) }
        } else {
            while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
        }
        var integral = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            integral = false
            position += 1
            guard position < bytes.count, Self.isDigit(bytes[position]) else { throw fail("bad fraction", at: start) }
            while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            integral = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count, Self.isDigit(bytes[position]) else { throw fail("bad exponent", at: start) }
            while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if integral, text == "-0" { return .negativeZero }
        if integral, let value = Int(text) { return .int(value) }
        if integral { return .longInteger(Double(text) ?? .infinity, digits: OracleText(text)) }
        guard let value = Double(text) else { throw fail("number out of range", at: start) }
        if !integral, let whole = Self.wholeValue(bytes[start..<position]) { return .decimal(value, whole: whole) }
        // Rule 3 of ``OracleDecimal`` on the digits as written: a number the double's
        // shortest text does not stand for keeps its canonical decimal text beside the double.
        // Sixteen bytes or fewer spell at most 15 significant digits here (a longer integer was
        // taken above), which a double in its normal range always gives back: no text to make.
        let couldLoseDigits = position - start > 16 || !value.isNormal
        if value.isFinite, couldLoseDigits, let exact = OracleDecimal.exactText(json: bytes[start..<position]) {
            return .exact(value, text: OracleText(exact))
        }
        return .double(value)
    }

    /// The whole number a number with a fraction or an exponent stands for, worked out on its
    /// decimal digits (never through a double); nil when it is not whole or does not fit an `Int`.
    static func wholeValue(_ text: ArraySlice<UInt8>) -> Int? {
        var digits: [UInt8] = []
        var fractionDigits = 0
        var exponent = 0
        var negative = false
        var index = text.startIndex
        if text[index] == UInt8(ascii: "-") { negative = true; index += 1 }
        var inFraction = false
        while index < text.endIndex {
            let byte = text[index]
            if isDigit(byte) {
                digits.append(byte - UInt8(ascii: "0"))
                if inFraction { fractionDigits += 1 }
            } else if byte == UInt8(ascii: ".") {
                inFraction = true
            } else {
                // The exponent: a sign and digits (too many of them: too large, or a fraction).
                var exponentText = String(decoding: text[(index + 1)...], as: UTF8.self)
                if exponentText.hasPrefix("+") { exponentText.removeFirst() }
                guard let value = Int(exponentText) else { return digits.allSatisfy { $0 == 0 } ? 0 : nil }
                exponent = value
                break
            }
            index += 1
        }
        while let first = digits.first, first == 0, digits.count > 1 { digits.removeFirst() }
        if digits.allSatisfy({ $0 == 0 }) { return 0 }
        let (scale, overflow) = exponent.subtractingReportingOverflow(fractionDigits)
        if overflow { return nil }
        if scale < 0 {
            guard -scale <= digits.count, digits.suffix(-scale).allSatisfy({ $0 == 0 }) else { return nil }
            digits.removeLast(-scale)
        } else {
            guard digits.count + scale <= 19 else { return nil }
            digits += [UInt8](repeating: 0, count: scale)
        }
        var value = 0
        for digit in digits {
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? times.subtractingReportingOverflow(Int(digit)) : times.addingReportingOverflow(Int(digit))
            if o1 || o2 { return nil }
            value = next
        }
        return value
    }

    private mutating func hex4() throws(OracleJSONError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw fail("short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("bad hex digit in \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private mutating func string() throws(OracleJSONError) -> OracleText {
        let start = position
        // Most strings hold no escape and no control character: their text is the bytes between
        // the quotes, taken at once. Anything else goes the byte-by-byte way below, from the start.
        var end = start + 1
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                guard let text = String(validating: bytes[(start + 1)..<end], as: UTF8.self) else {
                    throw fail("invalid UTF-8 in a string", at: start)
                }
                position = end + 1
                return OracleText(text)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            end += 1
        }
        position += 1
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        while true {
            guard position < bytes.count else { throw fail("unterminated string", at: start) }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let text = String(validating: out, as: UTF8.self) else { throw fail("invalid UTF-8 in a string", at: start) }
                return OracleText(text)
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { throw fail("unterminated escape") }
                let escape = bytes[position]
                position += 1
                if let byte = Self.shortEscape(escape) {
                    out.append(byte)
                    continue
                }
                switch escape {
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if scalar >= 0xDC00 && scalar <= 0xDFFF { throw fail("a low surrogate standing alone") }
                    if scalar >= 0xD800 && scalar <= 0xDBFF {
                        guard position + 2 <= bytes.count, bytes[position] == UInt8(ascii: "\\"),
                            bytes[position + 1] == UInt8(ascii: "u")
                        else { throw fail("a high surrogate without its low half") }
                        position += 2
                        let low = try hex4()
                        guard low >= 0xDC00 && low <= 0xDFFF else { throw fail("a high surrogate without its low half") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    // The scalar's UTF-8 bytes, written straight into the text (no string made).
                    UTF8.encode(Unicode.Scalar(scalar)!) { out.append($0) }
                default:
                    throw fail("unknown escape")
                }
            default:
                guard byte >= 0x20 else { throw fail("a control character inside a string") }
                out.append(byte)
                position += 1
            }
        }
    }
}
