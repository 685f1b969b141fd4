import Baton
import BatonSim
import Testing

/// Numbers a double cannot hold (the exact-number rules of ``OracleDecimal``), on the model's
/// side: its own exactness test and canonical text, and its readers of responses and image rows.
@Suite("Exact numbers: the model's canonical decimal text and its readers")
struct OracleExactNumberTests {
    typealias W = TestRowWriter

    @Test("rules 1-4 on the spec's cases: exact numbers keep canonical decimal text, the rest stay ints and doubles", arguments: [
        // Rule 4, already canonical.
        ("123456789012345678901234567890", "123456789012345678901234567890"),
        ("-123456789012345678901234567890", "-123456789012345678901234567890"),
        ("12345678901234567.89", "12345678901234567.89"),
        ("-0.000001234567890123456789", "-0.000001234567890123456789"),
        ("1.2345678901234567891e-30", "1.2345678901234567891e-30"),
        ("0.10000000000000000001", "0.10000000000000000001"),
        // Rule 4, spelled otherwise.
        ("12345678901234567890.0", "12345678901234567890"),
        ("1.2345678901234567891E-30", "1.2345678901234567891e-30"),
        ("12345678901234567891e-49", "1.2345678901234567891e-30"),
        ("0.12345678901234567891e-29", "1.2345678901234567891e-30"),
        ("0.1000000000000000000100", "0.10000000000000000001"),
        ("1234567890123456789000e3", "1234567890123456789000000"),
        // Up to 21 zeros after the digits of a whole number; past that, scientific form.
        ("9.876543210987654321e+250", "9.876543210987654321e250"),
        ("1234567890123456789e21", "1234567890123456789" + String(repeating: "0", count: 21)),
        ("1234567890123456789e22", "1.234567890123456789e40"),
        ("1.2345678901234567891e2", "123.45678901234567891"),
        // The place -6 is still written with zeros, -7 in scientific form.
        ("0.00000012345678901234567891", "0.00000012345678901234567891"),
        ("0.000000012345678901234567891", "1.2345678901234567891e-8"),
        ("-1e-400", "-1e-400"),
        ("1e-99999999999999999999", "1e-99999999999999999999"),
        ("10e-99999999999999999999", "1e-99999999999999999998"),
        ("0.01e-99999999999999999999", "1e-100000000000000000001"),
        ("123e-99999999999999999999", "1.23e-99999999999999999997"),
        // Whole, fits an Int, written with a point: rule 1 passes it by; its double does not hold it.
        ("9007199254740993.0", "9007199254740993"),
        ("1152921504606846976.0", "1152921504606846976"),
    ])
    func exact(written: String, canonical: String) throws {
        #expect(OracleDecimal.exactText(json: Array(written.utf8)) == canonical)
        #expect(OracleDecimal.isCanonical(canonical))
        // The canonical text reads back as itself.
        #expect(OracleDecimal.exactText(json: Array(canonical.utf8)) == canonical || Int(canonical) != nil)
    }

    @Test("numbers a double holds, integers that fit an Int and numbers out of range keep no decimal text", arguments: [
        "0.1", "1e-07", "1e-7", "1.50", "1.5", "-0.0", "0", "-0", "0e-99999999999999999999", "12", "9223372036854775807",
        "-9223372036854775808", "9007199254740993", "1.2345678901234568e+29", "123456789012345680000000000000", "1e400", "-1e400",
        "100000000000000000000", "12345678901234567", "5e-324",
    ])
    func notExact(written: String) {
        #expect(OracleDecimal.exactText(json: Array(written.utf8)) == nil)
    }

    @Test("the parser keeps an exact number's text beside its double; a double holds 1.50 and 0.1")
    func parser() throws {
        #expect(try OracleJSONParser.parse("12345678901234567.89") == .exact(12345678901234567.89, text: "12345678901234567.89"))
        #expect(try OracleJSONParser.parse("1.2345678901234567891E-30") == .exact(1.2345678901234567891e-30, text: "1.2345678901234567891e-30"))
        #expect(try OracleJSONParser.parse("1.50") == .double(1.5))
        #expect(try OracleJSONParser.parse("0.1") == .double(0.1))
        #expect(try OracleJSONParser.parse("1e-07") == .double(1e-7))
        let long = try OracleJSONParser.parse("123456789012345678901234567890")
        #expect(long == .longInteger(1.2345678901234568e+29, digits: "123456789012345678901234567890"))
        #expect(long.exactNumber == "123456789012345678901234567890")
        #expect(try OracleJSONParser.parse("99999999999999999999").exactNumber == "99999999999999999999")
        #expect(try OracleJSONParser.parse("100000000000000000000").exactNumber == nil)
        #expect(try OracleJSONParser.parse("9007199254740993.0").exactNumber == "9007199254740993")
        #expect(try OracleJSONParser.parse("2.0").exactNumber == nil)
    }

    @Test("a custom scalar keeps exact numbers bare and in lists; Float takes the double, ID the digits, Int refuses")
    func leaves() throws {
        let bare = try OracleJSONParser.parse("123456789012345678901234567890")
        #expect(try OracleLeaf.value(bare, kind: .custom, depth: 0) == .number("123456789012345678901234567890"))
        #expect(try OracleLeaf.value(bare, kind: .float, depth: 0) == .double(1.2345678901234568e+29))
        #expect(try OracleLeaf.value(bare, kind: .id, depth: 0) == .string("123456789012345678901234567890"))
        #expect(throws: OracleResponseError.self) { try OracleLeaf.value(bare, kind: .int, depth: 0) }
        let list = try OracleJSONParser.parse("[0.1, 12345678901234567.890, [-1.2345678901234567891e-30, 7], 1.50]")
        #expect(try OracleLeaf.value(list, kind: .custom, depth: 0) == .list([
            .double(0.1), .number("12345678901234567.89"), .list([.number("-1.2345678901234567891e-30"), .int(7)]), .double(1.5),
        ]))
        // A list field of a custom scalar: each element by itself.
        let elements = try OracleJSONParser.parse("[12345678901234567890.0, 2.5]")
        #expect(try OracleLeaf.value(elements, kind: .custom, depth: 1) == .list([.number("12345678901234567890"), .double(2.5)]))
        #expect(try OracleLeaf.value(elements, kind: .float, depth: 1) == .list([.double(1.2345678901234567e+19), .double(2.5)]))
        // A double's number and an exact one differ as values.
        #expect(OracleValue.number("0.10000000000000000001") != .double(0.1))
        #expect(OracleValue.number("1") != .string("1"))
    }

    @Test("canonical JSON writes exact numbers in objects (a custom scalar's, an error's extensions) by their decimal text")
    func canonicalObjects() throws {
        let object = try OracleJSONParser.parse(
            #"{"z": 1.2345678901234567891E-30, "a": [123456789012345678901234567890, 1.50, 0.1e1], "m": {"x": 12345678901234567.8900}, "n": 1e-7}"#)
        let expected = #"{"a":[123456789012345678901234567890,1.5,1.0],"m":{"x":12345678901234567.89},"n":1e-07,"z":1.2345678901234567891e-30}"#
        #expect(OracleCanonical.render(object) == expected)
        #expect(try OracleLeaf.value(object, kind: .custom, depth: 0) == .object(OracleText(expected)))
        // An error's extensions, read from a response's text.
        let response = #"{"data": null, "errors": [{"message": "m", "extensions": {"amount": -99999999999999999999.5, "code": "X"}}]}"#
        let world = WorldFixtures.github
        let operation = try #require(world.operations.first { $0.kind == .query })
        let model = try ModelResponse.normalize(text: Array(response.utf8), operation: operation, variables: [:], schema: world.schema)
        #expect(model.unplacedErrors.first?.extensions == #"{"amount":-99999999999999999999.5,"code":"X"}"#)
    }

    @Test("a provenance's exact number reads as the text that spells it does")
    func provenance() throws {
        // (Not a whole number that fits an Int: a response spelling that one plainly says an Int,
        // so the server never draws one.)
        for canonical in ["123456789012345678901234567890", "-12345678901234567.89", "1.2345678901234567891e-30", "9.876543210987654321e250"] {
            let fromProvenance = OracleJSON(JSONValue.decimal(canonical))
            let fromText = try OracleJSONParser.parse(canonical)
            #expect(fromProvenance.exactNumber == OracleText(canonical))
            #expect(try OracleLeaf.value(fromProvenance, kind: .custom, depth: 0) == OracleLeaf.value(fromText, kind: .custom, depth: 0))
        }
        #expect(OracleJSON(JSONValue.object(["amount": .string("1")])).exactNumber == nil)
    }

    // MARK: - Image rows

    static let names: [RawImage.Name] = [W.name(1, "Note"), W.name(2, "meta"), W.name(3, "tags")]

    static func row(_ cells: [(UInt64, [UInt8])]) -> RawImage {
        let row = W.row(key: "Note:1", flags: 0x02, type: 1, cells: cells)
        return RawImage(records: [RawImage.Record(key: "Note:1", used: 1, row: row)], names: names, generation: 1)
    }

    static func exact(_ text: String) -> [UInt8] {
        W.value { w in w.tag(12); w.string(text) }
    }

    @Test("tag 12 reads as an exact number, as a cell's value and as a list element")
    func rowTag() throws {
        let image = try Oracle.decode(Self.row([
            (2, Self.exact("123456789012345678901234567890")),
            (3, W.value { w in w.tag(8); w.varint(3); w.bytes += Self.exact("-1.2345678901234567891e-30"); w.int(4); w.bytes += Self.exact("0.10000000000000000001") }),
        ])).get()
        let record = try #require(image.records["Note:1"])
        #expect(record.cells["meta"]?.value == .number("123456789012345678901234567890"))
        #expect(record.cells["tags"]?.value == .list([.number("-1.2345678901234567891e-30"), .int(4), .number("0.10000000000000000001")]))
    }

    @Test("tag 12 holding a whole number within 64 bits, as rows before 2026-12-06 did, reads as that integer")
    func rowTagWholeNumber() throws {
        let image = try Oracle.decode(Self.row([
            (2, Self.exact("9007199254740993")),
            (3, W.value { w in w.tag(8); w.varint(2); w.bytes += Self.exact("-621058133375578131"); w.bytes += Self.exact("9223372036854775808") }),
        ])).get()
        let record = try #require(image.records["Note:1"])
        #expect(record.cells["meta"]?.value == .int(9_007_199_254_740_993))
        // One past `Int.max` stays a number kept as text.
        #expect(record.cells["tags"]?.value == .list([.int(-621_058_133_375_578_131), .number("9223372036854775808")]))
    }

    @Test("tag 12 holding text that is not canonical decimal text is damage", arguments: [
        "", "0.1", "1.5", "1e-07", "12", "01", "-0", "1.50", "12345678901234567.890", "0123456789012345678901234567890",
        "1.2345678901234567891E-30", "1.2345678901234567891e-030", "12345678901234567891e-49", "+123456789012345678901234567890",
        "123456789012345678901234567890.0", "1e400", "abc", " 123456789012345678901234567890", "0.0000000123456789012345678901",
    ])
    func rowRefused(text: String) {
        guard case .failure(let problem) = Oracle.decode(Self.row([(2, Self.exact(text))])) else {
            Issue.record("\(text.debugDescription) was read")
            return
        }
        #expect(problem.entries.count == 1)
        #expect(problem.entries.first?.reason.contains("not canonical decimal text") == true, "\(problem)")
    }
}
