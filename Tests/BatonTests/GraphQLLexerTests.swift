import Baton
import Testing

private typealias F = GraphQLFixtures

@Suite("GraphQL lexer")
struct GraphQLLexerTests {
    @Test("simple escapes decode", arguments: [
        (#""a\"b""#, "a\"b"),
        (#""back\\slash""#, "back\\slash"),
        (#""a\/b""#, "a/b"),
        (#""\b\f\n\r\t""#, "\u{08}\u{0C}\n\r\t"),
        (#""plain""#, "plain"),
        ("\"\"", ""),
        ("\"tab\tinside\"", "tab\tinside"),
        (#""é ü 中""#, "é ü 中"),
    ])
    func simpleEscapes(literal: String, expected: String) throws {
        #expect(try F.value(literal) == .string(expected))
    }

    @Test("Unicode escapes decode, surrogate pairs included", arguments: [
        (#""\u00e9""#, "é"),
        (#""\u00E9x""#, "éx"),
        (#""\u{1F600}""#, "😀"),
        (#""\u{41}""#, "A"),
        (#""\uD83D\uDE00""#, "😀"),
        (#""a\u0041\u{42}c""#, "aABc"),
    ])
    func unicodeEscapes(literal: String, expected: String) throws {
        #expect(try F.value(literal) == .string(expected))
    }

    @Test("bad escapes are errors at the backslash", arguments: [
        (#"{ f(a: "ab\x") }"#, #"1:11: invalid escape sequence: \ followed by "x""#),
        (#"{ f(a: "\uD83D") }"#, #"1:9: invalid Unicode escape sequence "\uD83D""#),
        (#"{ f(a: "\uDE00") }"#, #"1:9: invalid Unicode escape sequence "\uDE00""#),
        (#"{ f(a: "\u{110000}") }"#, #"1:9: invalid Unicode escape sequence "\u{110000""#),
        (#"{ f(a: "\u{}") }"#, #"1:9: invalid Unicode escape sequence "\u{}""#),
        (#"{ f(a: "\u12") }"#, #"1:9: invalid Unicode escape sequence "\u12""#),
        (#"{ f(a: "\uZZZZ") }"#, #"1:9: invalid Unicode escape sequence "\u""#),
    ])
    func badEscapes(source: String, expected: String) {
        #expect(F.documentError(source) == expected)
    }

    @Test("strings must end on their line")
    func unterminatedStrings() {
        #expect(F.documentError("{ f(a: \"abc\n\") }") == "1:12: unterminated string")
        #expect(F.documentError("{ f(a: \"abc") == "1:12: unterminated string")
        #expect(F.documentError("{ f(a: \"a\u{07}\") }") == "1:10: invalid character within string: U+0007")
        #expect(F.documentError("{ f(a: \"\"\"abc\n") == "2:1: unterminated block string")
    }

    @Test("block strings drop common indentation and blank edge lines")
    func blockStrings() throws {
        let literal = "\"\"\"\n\n    Hello,\n      World!\n\n    Yours\n  \n\"\"\""
        #expect(try F.value(literal) == .string("Hello,\n  World!\n\nYours"))
        #expect(try F.value("\"\"\"  first line kept as is\"\"\"") == .string("  first line kept as is"))
        #expect(try F.value("\"\"\"a \\\"\"\" b\"\"\"") == .string("a \"\"\" b"))
        #expect(try F.value("\"\"\"no \\n escape\"\"\"") == .string("no \\n escape"))
        #expect(try F.value("\"\"\"one\r\n  two\r  three\"\"\"") == .string("one\ntwo\nthree"))
        #expect(try F.value("\"\"\"   \n  \n\"\"\"") == .string(""))
        #expect(try F.value("\"\"\"\té\n\t\"q\"\"\"") == .string("\té\n\"q"))
    }

    @Test("numbers lex as Int or Float", arguments: [
        ("0", GraphQLValue.int(0)),
        ("-0", .int(0)),
        ("42", .int(42)),
        ("-17", .int(-17)),
        ("9223372036854775807", .int(Int.max)),
        ("1.5", .float(1.5)),
        ("-0.25", .float(-0.25)),
        ("1e3", .float(1000)),
        ("1E+3", .float(1000)),
        ("-1.5e-3", .float(-0.0015)),
        ("0.0", .float(0)),
    ])
    func numbers(literal: String, expected: GraphQLValue) throws {
        #expect(try F.value(literal) == expected)
    }

    @Test("malformed numbers are errors at the offending character", arguments: [
        ("{ f(a: 01) }", "1:9: invalid number, unexpected digit after 0: \"1\""),
        ("{ f(a: 1.) }", "1:10: invalid number, expected digit but found \")\""),
        ("{ f(a: 1.e3) }", "1:10: invalid number, expected digit but found \"e\""),
        ("{ f(a: 1e) }", "1:10: invalid number, expected digit but found \")\""),
        ("{ f(a: 12abc) }", "1:10: invalid number, expected digit but found \"a\""),
        ("{ f(a: 0x1F) }", "1:9: invalid number, expected digit but found \"x\""),
        ("{ f(a: 1.2.3) }", "1:11: invalid number, expected digit but found \".\""),
        ("{ f(a: -) }", "1:9: invalid number, expected digit but found \")\""),
        ("{ f(a: .5) }", "1:8: unexpected character \".\", did you mean \"...\"?"),
        // An integer past 64 bits is a number as written (a BigInt), kept: see LiteralExactNumberTests.
        ("{ f(a: 1e-1000000000) }", "1:8: number 1e-1000000000 is out of range"),
        ("{ f(a: 1e400) }", "1:8: float 1e400 is out of range"),
    ])
    func malformedNumbers(source: String, expected: String) {
        #expect(F.documentError(source) == expected)
    }

    @Test("comments, commas, byte-order marks and CR/LF line ends are ignored")
    func ignoredTokens() throws {
        let source = "\u{FEFF}# leading comment\r\nquery Q, { # trailing\r  a,,, b # end\n}"
        let document = try Document.parse(source)
        let names = document.operations.first?.selections.compactMap { node -> String? in
            if case .field(let field) = node { return field.name }
            return nil
        }
        #expect(names == ["a", "b"])
    }

    @Test("unexpected characters are named")
    func unexpectedCharacters() {
        #expect(F.documentError("{ a ? }") == "1:5: unexpected character \"?\"")
        #expect(F.documentError("{ a \u{07} }") == "1:5: unexpected character U+0007")
        #expect(F.documentError("{ a .. }") == "1:5: unexpected character \".\", did you mean \"...\"?")
        #expect(F.documentError("{ a é }") == "1:5: unexpected character \"é\"")
    }

    @Test("lines and columns follow line ends of every kind and count scalars, not bytes")
    func positions() {
        #expect(F.documentError("{\n  a\n  b(x: 1\n}") == "4:1: expected Name, found \"}\"")
        #expect(F.documentError("{\r\n  a\r\n  b(x: 1\r\n}") == "4:1: expected Name, found \"}\"")
        #expect(F.documentError("{\r  a\r  b(x: 1\r}") == "4:1: expected Name, found \"}\"")
        #expect(F.documentError("{ f(a: \"éé😀\", b: ?) }") == "1:18: unexpected character \"?\"")
        #expect(F.documentError("{ f(a: \"\"\"x\n  y\n\"\"\" b 1 ) }") == "3:7: expected \":\", found Int \"1\"")
        #expect(F.documentError("# comment é\n  { a } }") == "2:9: expected an operation or a fragment, found \"}\"")
    }
}
