import Foundation
import Testing
import Baton

/// Parses `text` as a whole document, answering the error instead of throwing.
private func parse(_ text: String, maxDepth: Int = 512) -> Result<JSONValue, JSONError> {
    do throws(JSONError) {
        return .success(try JSONValue.parse(text, maxDepth: maxDepth))
    } catch {
        return .failure(error)
    }
}

private func parse(_ bytes: [UInt8]) -> Result<JSONValue, JSONError> {
    do throws(JSONError) {
        return .success(try JSONValue.parse(bytes))
    } catch {
        return .failure(error)
    }
}

private func reason(_ text: String) -> JSONError.Reason? {
    if case .failure(let error) = parse(text) { return error.reason }
    return nil
}

/// Skips one value of `bytes` with the scanner and checks only whitespace follows.
private func skip(_ bytes: [UInt8], maxDepth: Int = 512) -> JSONError? {
    bytes.withUnsafeBytes { buffer in
        var scanner = JSONScanner(buffer, maxDepth: maxDepth)
        do throws(JSONError) {
            try scanner.skipValue()
            try scanner.finish()
            return nil
        } catch {
            return error
        }
    }
}

private func skip(_ text: String) -> JSONError? { skip(Array(text.utf8)) }

@Suite("JSON scanner: numbers")
struct JSONNumberTests {
    @Test("integers stay Int when they fit", arguments: [
        ("0", 0), ("-0", 0), ("7", 7), ("-42", -42), ("1234567890123", 1_234_567_890_123),
        ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min),
    ])
    func integers(text: String, expected: Int) throws {
        #expect(try JSONValue.parse(text) == .int(expected))
    }

    @Test("fractions and exponents a double holds are Double", arguments: [
        ("1.5", 1.5), ("-0.25", -0.25), ("1e3", 1000.0), ("2E-2", 0.02), ("1.0", 1.0), ("5e+1", 50.0),
        ("0.1", 0.1), ("1e22", 1e22),
    ])
    func doubles(text: String, expected: Double) throws {
        #expect(try JSONValue.parse(text) == .double(expected))
    }

    /// A tree keeps a value as it came, so a number no double holds keeps its digits (rounded to
    /// the nearest double until 2026-12-06; ExactNumberTests has the spelling rules).
    @Test("overflowing integers and fractions a double cannot hold keep their digits", arguments: [
        "9223372036854775808", "-9223372036854775809", "123456789.123456789",
    ])
    func exact(text: String) throws {
        #expect(try JSONValue.parse(text) == .decimal(text))
    }

    @Test("numbers outside JSON's grammar are refused", arguments: [
        "01", "-", "-a", "1.", ".5", "1e", "1e+", "+1", "--1", "1.e5", "-01", "00",
    ])
    func invalid(text: String) {
        #expect(reason(text) != nil, "accepted \(text)")
        #expect(skip(text) != nil, "skipped \(text)")
    }

    @Test func hexAndInfinityAreNotNumbers() {
        #expect(reason("0x10") == .trailingData)
        #expect(reason("Infinity") != nil)
        #expect(reason("NaN") != nil)
    }

    @Test func hugeExponentIsOutOfRange() throws {
        #expect(reason("1e400") == .numberOutOfRange)
        #expect(reason("-1e400") == .numberOutOfRange)
        #expect(try JSONValue.parse("1e-400") == .decimal("1e-400"))
    }
}

@Suite("JSON scanner: strings")
struct JSONStringTests {
    @Test func escapesDecode() throws {
        let text = #""q\" b\\ s\/ \b\f\n\r\t e\u00e9 \u0041""#
        #expect(try JSONValue.parse(text) == .string("q\" b\\ s/ \u{8}\u{C}\n\r\t eé A"))
    }

    @Test func surrogatePairsDecode() throws {
        #expect(try JSONValue.parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSONValue.parse(#""x\uD834\uDD1Ey""#) == .string("x𝄞y"))
    }

    /// Long texts with escapes between runs of raw characters (a GitHub issue's body): the runs
    /// are copied whole and every escape is decoded, whatever stands next to it.
    @Test("escaped texts decode to the text they were written from")
    func escapedTextsRoundTrip() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let alphabet: [Unicode.Scalar] = ["a", "Z", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{8}", "\u{C}", "\u{1}", "é", "世", "😀", "\u{7F}"]
        for _ in 0..<500 {
            var text = ""
            var json = "\""
            for _ in 0..<next(200) {
                let scalar = alphabet[next(alphabet.count)]
                text.unicodeScalars.append(scalar)
                switch (scalar, next(3)) {
                case ("\"", _): json += "\\\""
                case ("\\", _): json += "\\\\"
                case ("\n", 0): json += "\\n"
                case ("\r", 0): json += "\\r"
                case ("\t", 0): json += "\\t"
                case ("/", 0): json += "\\/"
                case ("\u{8}", 0): json += "\\b"
                case ("\u{C}", 0): json += "\\f"
                case (_, 1), ("\n", _), ("\r", _), ("\t", _), ("\u{8}", _), ("\u{C}", _), ("\u{1}", _):
                    for unit in String(scalar).utf16 { json += "\\u" + String(format: "%04x", unit) }
                default: json.unicodeScalars.append(scalar)
                }
            }
            json += "\""
            #expect(try JSONValue.parse(json) == .string(text), "\(json)")
        }
    }

    @Test func rawUTF8PassesThrough() throws {
        #expect(try JSONValue.parse("\"Grüße, 世界 🚀\"") == .string("Grüße, 世界 🚀"))
    }

    @Test func nulEscapeIsAllowed() throws {
        #expect(try JSONValue.parse(#""a\u0000b""#) == .string("a\u{0}b"))
    }

    @Test("bad escapes and lone surrogates are refused", arguments: [
        (#""\x""#, JSONError.Reason.invalidEscape),
        (#""\ud83d""#, .invalidUnicodeEscape),
        (#""\ude00""#, .invalidUnicodeEscape),
        (#""\ud83d\u0041""#, .invalidUnicodeEscape),
        (#""\ud83dx""#, .invalidUnicodeEscape),
        (#""\u12G4""#, .invalidUnicodeEscape),
        (#""\u12""#, .invalidUnicodeEscape),
    ])
    func badEscapes(text: String, expected: JSONError.Reason) {
        #expect(reason(text) == expected)
        #expect(skip(text)?.reason == expected, "skipping must refuse it too")
    }

    @Test("raw control characters are refused", arguments: [0x00, 0x01, 0x0A, 0x0D, 0x09, 0x1F] as [UInt8])
    func controlCharacters(byte: UInt8) {
        let bytes: [UInt8] = [0x22, 0x61, byte, 0x62, 0x22]
        guard case .failure(let error) = parse(bytes) else {
            Issue.record("accepted a raw control character")
            return
        }
        #expect(error.reason == .controlCharacterInString)
        #expect(error.offset == 2)
        #expect(skip(bytes)?.reason == .controlCharacterInString)
    }

    @Test("invalid UTF-8 in a string is refused", arguments: [
        [0xFF], [0xC3], [0xC0, 0xAF], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80],
    ] as [[UInt8]])
    func invalidUTF8(bytes: [UInt8]) {
        guard case .failure(let error) = parse([0x22] + bytes + [0x22]) else {
            Issue.record("accepted invalid UTF-8")
            return
        }
        #expect(error.reason == .invalidUTF8)
    }

    @Test("invalid UTF-8 is refused by a skip too, in keys and values, at the offset of its first byte, wherever it falls in a word", arguments: [
        [0xFF], [0x80], [0xC3], [0xC0, 0xAF], [0xC1, 0x81], [0xE0, 0x9F, 0xBF], [0xE2, 0x82], [0xED, 0xA0, 0x80],
        [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xE2, 0x82, 0x22],
    ] as [[UInt8]])
    func invalidUTF8Skipped(bytes: [UInt8]) {
        for padding in 0..<9 {
            let text = [UInt8](repeating: 0x61, count: padding) + bytes
            for document in [
                [0x5B, 0x22] + text + [0x22, 0x5D],
                Array(#"{""#.utf8) + text + Array(#"":1}"#.utf8),
                Array(#"{"k":{"deep":[1,""#.utf8) + text + Array(#""]}}"#.utf8),
            ] {
                let error = skip(document)
                #expect(error?.reason == .invalidUTF8, "\(document)")
                #expect(error?.offset == document.firstIndex(where: { $0 >= 0x80 }), "\(document)")
            }
        }
    }

    @Test("valid UTF-8 of every length passes a skip and a parse, whatever its alignment", arguments: [
        "é", "ß", "€", "日本語", "😀", "𝄞", "\u{10FFFF}", "\u{7FF}\u{800}\u{FFFF}\u{10000}", "mixed ascii é and 😀 over eight bytes",
    ])
    func validUTF8(text: String) throws {
        for padding in 0..<9 {
            let body = String(repeating: "a", count: padding) + text
            #expect(skip(#"{""# + body + #"":[""# + body + #""]}"#) == nil)
            #expect(try JSONValue.parse(#"[""# + body + #""]"#) == .array([.string(body)]))
        }
    }

    @Test func unterminatedStringIsRefused() {
        #expect(reason(#""abc"#) == .unexpectedEnd)
        #expect(reason(#""abc\"#) == .unexpectedEnd)
        #expect(reason(#""abcdefghijklmnopqrstuvwxyz"#) == .unexpectedEnd)
    }

    /// The scanner reads eight bytes at a time: put the special byte at every offset of a word.
    @Test("special bytes are found at every offset", arguments: 0..<20)
    func specialByteOffsets(offset: Int) throws {
        let prefix = String(repeating: "a", count: offset)
        let suffix = String(repeating: "b", count: 11)
        #expect(try JSONValue.parse("\"\(prefix)\\n\(suffix)\"") == .string(prefix + "\n" + suffix))
        #expect(try JSONValue.parse("\"\(prefix)é\(suffix)\"") == .string(prefix + "é" + suffix))
        #expect(try JSONValue.parse("[\"\(prefix)\",\"\(suffix)\"]") == .array([.string(prefix), .string(suffix)]))
        var raw = Array("\"\(prefix)x\(suffix)\"".utf8)
        raw[1 + offset] = 0x07
        #expect(skip(raw)?.reason == .controlCharacterInString)
        #expect(skip(raw)?.offset == 1 + offset)
    }
}

@Suite("JSON scanner: integers however they are written")
struct JSONIntegerTests {
    /// What ``JSONScanner/readInteger()`` says of `text`.
    private func integer(_ text: String) throws -> Int? {
        try Array(text.utf8).withUnsafeBytes { buffer in
            var scanner = JSONScanner(buffer)
            let (value, range) = try scanner.readInteger()
            #expect(range == 0..<buffer.count)
            return value
        }
    }

    @Test("a whole number is an integer, with a fraction or an exponent too", arguments: [
        ("0", 0), ("-0", 0), ("12", 12), ("1.0", 1), ("-1.000", -1), ("1e2", 100), ("1E+2", 100), ("1.50e1", 15),
        ("1500e-2", 15), ("0.0e5", 0), ("0e-999999999999", 0), ("123.456e3", 123_456), ("-9223372036854775808", Int.min),
        ("-922337203685477580.8e1", Int.min), ("9223372036854775807.0", Int.max), ("10000000000000000000e-1", 1_000_000_000_000_000_000),
    ])
    func whole(text: String, value: Int) throws {
        #expect(try integer(text) == value)
    }

    @Test("a fraction, or a number past Int, is not", arguments: [
        "1.5", "0.1", "1e-1", "15e-1", "9223372036854775808", "-9223372036854775809", "1e19", "1e999999999999999999",
        "92233720368547758.08e2", "0.000000000000000000001e20",
    ])
    func notWhole(text: String) throws {
        #expect(try integer(text) == nil)
    }
}

@Suite("JSON scanner: structure")
struct JSONStructureTests {
    @Test func parsesNestedDocument() throws {
        let value = try JSONValue.parse(#" { "a" : [1, 2.5, "x", true, false, null, {}, []], "b": {"c": {"d": -1}} } "#)
        #expect(value == .object([
            "a": .array([.int(1), .double(2.5), .string("x"), .bool(true), .bool(false), .null, .object([:]), .array([])]),
            "b": .object(["c": .object(["d": .int(-1)])]),
        ]))
    }

    @Test("a member name given twice is refused when parsed, at its second occurrence, escapes decoded", arguments: [
        (#"{"a":1,"a":2}"#, 7), (#"{"a":1,"b":{"c":1,"c":1}}"#, 18), (#"{"a":1,"\u0061":2}"#, 7), (#"[{"x":[],"x":{}}]"#, 9),
    ])
    func repeatedKeyIsRefused(text: String, offset: Int) {
        guard case .failure(let error) = parse(text) else {
            Issue.record("accepted \(text)")
            return
        }
        #expect(error.reason == .duplicateKey(text.contains("x") ? "x" : text.contains("c") ? "c" : "a"))
        #expect(error.offset == offset)
    }

    @Test func repeatedKeyIsPassedBySkipping() throws {
        #expect(skip(#"{"a":1,"a":2}"#) == nil)
    }

    @Test("broken structure is refused, parsed or skipped", arguments: [
        #"{"a" 1}"#, #"{"a":1,}"#, "[1,]", "{1:2}", "[1 2]", #"{"a":1]"#, "[1}", "{", "[", "]", "}",
        "tru", "nul", "falsy", "[,1]", #"{,"a":1}"#, #"{"a":}"#, "", "   ", #"{"a"}"#, "[1,,2]",
    ])
    func brokenStructure(text: String) {
        #expect(reason(text) != nil, "parse accepted \(text)")
        #expect(skip(text) != nil, "skip accepted \(text)")
    }

    @Test("anything after the value is refused", arguments: ["{} x", "1 2", "[1]]", #""a" "b""#, "nullnull", "{}{}"])
    func trailingData(text: String) {
        #expect(reason(text) == .trailingData)
        #expect(skip(text)?.reason == .trailingData)
    }

    @Test func surroundingWhitespaceIsFine() throws {
        #expect(try JSONValue.parse(" \n\t\r[ 1 ,\n2 ] \n") == .array([.int(1), .int(2)]))
    }

    @Test func everyTruncationIsAnError() {
        let text = #"{"a":[1,-2.5e3,"x\u00e9\"y",true,false,null,{"b":{}}],"c":"d"}"#
        let bytes = Array(text.utf8)
        #expect(skip(bytes) == nil)
        for length in 0..<bytes.count {
            let prefix = Array(bytes[..<length])
            if case .success = parse(prefix) {
                Issue.record("a truncation to \(length) bytes parsed")
            }
            #expect(skip(prefix) != nil, "a truncation to \(length) bytes skipped")
        }
    }

    @Test func skipLandsJustAfterTheValue() throws {
        let bytes = Array(#"[ {"a":[1,2,{"b":"c\"]d"}],"e":{}} , 5 ]"#.utf8)
        try bytes.withUnsafeBytes { buffer in
            var scanner = JSONScanner(buffer)
            #expect(try scanner.openArray())
            try scanner.skipValue()
            #expect(scanner.depth == 1)
            #expect(try scanner.nextElement())
            #expect(try scanner.readNumber() == .int(5))
            #expect(try scanner.nextElement() == false)
            try scanner.finish()
        }
    }

    @Test func errorsCarryLineAndColumn() {
        guard case .failure(let error) = parse("{\n  \"a\": tru\n}") else {
            Issue.record("accepted")
            return
        }
        #expect(error.offset == 12)
        #expect(error.line == 2)
        #expect(error.column == 11)
        #expect(error.description.contains("line 2"))
    }
}

@Suite("JSON scanner: depth")
struct JSONDepthTests {
    private func nested(_ depth: Int, open: String = "[", close: String = "]") -> String {
        String(repeating: open, count: depth) + String(repeating: close, count: depth)
    }

    @Test func depthAtTheLimitIsAccepted() throws {
        _ = try JSONValue.parse(nested(512))
        #expect(skip(nested(512)) == nil)
    }

    @Test func depthBeyondTheLimitIsRefused() {
        #expect(reason(nested(513)) == .tooDeep(limit: 512))
        #expect(skip(nested(513))?.reason == .tooDeep(limit: 512))
    }

    @Test func objectsCountToo() {
        let deep = String(repeating: #"{"a":"#, count: 600) + "1" + String(repeating: "}", count: 600)
        #expect(reason(deep) == .tooDeep(limit: 512))
        #expect(skip(deep)?.reason == .tooDeep(limit: 512))
    }

    @Test func hugeDepthErrorsInsteadOfOverflowing() {
        let deep = String(repeating: "[", count: 200_000)
        #expect(reason(deep) == .tooDeep(limit: 512))
        #expect(skip(deep)?.reason == .tooDeep(limit: 512))
    }

    @Test func customLimit() {
        #expect(reason(nested(3)) == nil)
        if case .failure(let error) = parse(nested(4), maxDepth: 3) {
            #expect(error.reason == .tooDeep(limit: 3))
        } else {
            Issue.record("accepted depth 4 with a limit of 3")
        }
        #expect(skip(Array(nested(4).utf8), maxDepth: 3)?.reason == .tooDeep(limit: 3))
    }
}

@Suite("JSON scanner: random input")
struct JSONFuzzTests {
    @Test func randomBytesNeverTrap() {
        var random = SeededGenerator(seed: 0x5EED)
        let alphabet = Array(#"{}[]",:\-0123456789.eE+truefalsn u \"#.utf8) + [0x00, 0x0A, 0xC3, 0xA9, 0xFF]
        for _ in 0..<3000 {
            let length = Int.random(in: 0..<40, using: &random)
            let bytes = (0..<length).map { _ in alphabet.randomElement(using: &random)! }
            let parsed = parse(bytes)
            let skipped = skip(bytes)
            // Both readers must agree on whether the document is well formed (UTF-8 aside).
            if case .failure(let error) = parsed, error.reason == .numberOutOfRange { continue }
            if !bytes.contains(where: { $0 >= 0x80 }) {
                #expect((try? parsed.get()) != nil ? skipped == nil : skipped != nil, "disagree on \(bytes)")
            }
        }
    }
}
