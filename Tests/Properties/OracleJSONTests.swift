import Baton
import BatonSim
import Testing

@Suite("Oracle: its own JSON parser and canonical text")
struct OracleJSONTests {
    @Test("escapes, surrogate pairs and UTF-8 decode to the exact bytes")
    func strings() throws {
        let json = try OracleJSONParser.parse(#"["a\"b\\c\/d\b\f\n\r\t", "\u00e9", "e\u0301", "\ud83d\ude00", "é😀"]"#)
        guard case .array(let items) = json else { Issue.record("not an array"); return }
        #expect(items[0] == .string(OracleText("a\"b\\c/d\u{08}\u{0C}\n\r\t")))
        #expect(items[1] == .string(OracleText("\u{E9}")))
        #expect(items[2] == .string(OracleText("e\u{301}")))
        #expect(items[1] != items[2])
        #expect(items[3] == .string(OracleText("😀")))
        #expect(items[4] == .string(OracleText("é😀")))
    }

    @Test("malformed input is refused", arguments: [
        #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, "\"a\u{01}b\"", #""\x""#, "[1,]", "{\"a\" 1}", "01", "1.", "-", "1e",
        "[1] 2", "", "tru", #"{"a":1,}"#,
    ])
    func refused(text: String) {
        #expect(throws: OracleJSONError.self) { try OracleJSONParser.parse(text) }
    }

    @Test("invalid UTF-8 inside a string is refused")
    func invalidUTF8() {
        #expect(throws: OracleJSONError.self) { try OracleJSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
    }

    @Test("numbers: integers that fit are ints; a whole number written with a fraction or an exponent keeps its whole value beside the double; anything else a double")
    func numbers() throws {
        #expect(try OracleJSONParser.parse("-12") == .int(-12))
        #expect(try OracleJSONParser.parse("1.5e2") == .decimal(150, whole: 150))
        #expect(try OracleJSONParser.parse("2.0") == .decimal(2, whole: 2))
        #expect(try OracleJSONParser.parse("-0.0") == .decimal(-0.0, whole: 0))
        #expect(try OracleJSONParser.parse("120E-1") == .decimal(12, whole: 12))
        #expect(try OracleJSONParser.parse("1.25e1") == .double(12.5))
        #expect(try OracleJSONParser.parse("1e19") == .double(1e19))
        #expect(try OracleJSONParser.parse("0.1e1") == .decimal(1, whole: 1))
        // Its double is 0, which does not stand for it: it keeps its exact value (rule 4 of OracleDecimal).
        #expect(try OracleJSONParser.parse("1e-99999999999999999999") == .exact(0, text: "1e-99999999999999999999"))
        #expect(try OracleJSONParser.parse("99999999999999999999") == .longInteger(1e20, digits: "99999999999999999999"))
    }

    @Test("members keep their order and their bytes; canonical text sorts them by bytes, the last duplicate winning")
    func canonical() throws {
        let json = try OracleJSONParser.parse(#"{"b": 1, "a": [true, null, 2.5], "\u00e9": "x", "e\u0301": "y", "b": 3}"#)
        guard case .object(let members) = json else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["b", "a", OracleText("\u{E9}"), OracleText("e\u{301}"), "b"])
        #expect(OracleCanonical.render(json) == "{\"a\":[true,null,2.5],\"b\":3,\"e\u{301}\":\"y\",\"\u{E9}\":\"x\"}")
    }

    @Test("the CRC-32C of the standard check string is 0xE3069283")
    func crc() {
        #expect(OracleCRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(OracleCRC32C.checksum(Array("1234".utf8), Array("56789".utf8)) == 0xE306_9283)
        #expect(OracleCRC32C.varint(300) == [0xAC, 0x02])
    }
}
