import Baton
import Testing

/// Numbers a double cannot hold, where the store keeps a value as it came (a custom scalar, an
/// error's `extensions`, variables): every digit is kept, in one canonical spelling per value.
/// Until 2026-12-06 they were rounded to the nearest double, so a server's
/// `123456789012345678901234567890` read back as `1.2345678901234568e+29`.
struct ExactNumberTests {
    private func read(_ text: String) throws -> JSONNumber {
        var bytes = Array(text.utf8)
        return try bytes.withUnsafeMutableBytes { buffer in
            var scanner = JSONScanner(UnsafeRawBufferPointer(buffer))
            let number = try scanner.readExactNumber()
            try scanner.finish()
            return number
        }
    }

    @Test("a number no double holds keeps its value, spelled canonically", arguments: [
        ("123456789012345678901234567890", "123456789012345678901234567890"),
        ("-123456789012345678901234567890", "-123456789012345678901234567890"),
        ("12345678901234567.891", "12345678901234567.891"),
        ("0.10000000000000000001", "0.10000000000000000001"),
        ("-0.000001234567890123456789", "-0.000001234567890123456789"),
        ("0.00000012345678901234567890", "0.0000001234567890123456789"),
        ("1.2345678901234567890123e-30", "1.2345678901234567890123e-30"),
        ("9.876543210987654321e+250", "9.876543210987654321e250"),
        ("1234567890123456789012e2", "123456789012345678901200"),
        ("12345678901234567890.000", "12345678901234567890"),
        ("1234567890123456789E1", "12345678901234567890"),
        ("1e-400", "1e-400"),
        ("-4.9e-324", "-4.9e-324"),
        ("1234567890123456789e-1", "123456789012345678.9"),
    ])
    func kept(text: String, canonical: String) throws {
        #expect(try read(text) == .decimal(canonical))
    }

    @Test("a number a double holds is that double, however many digits it is written with", arguments: [
        "0.1", "1.5", "1.50", "1e-07", "-0.0", "0.30000000000000004", "1.7976931348623157e308", "5e-324",
        "2.5e-310", "0.100000000000000000000000", "1e22", "0e-99999999999999",
    ])
    func double(text: String) throws {
        guard case .double(let value) = try read(text) else {
            Issue.record("\(text) was not read as a double")
            return
        }
        #expect(value == Double(text))
    }

    @Test("an integer that fits 64 bits is an integer")
    func integers() throws {
        #expect(try read("9223372036854775807") == .int(.max))
        #expect(try read("-9223372036854775808") == .int(.min))
        #expect(try read("9223372036854775808") == .decimal("9223372036854775808"))
    }

    @Test("a whole number that fits an Int but no double holds is that integer, however it is written", arguments: [
        ("9007199254740993.0", 9_007_199_254_740_993), ("9.007199254740993e15", 9_007_199_254_740_993),
        ("-900719925474099300e-2", -9_007_199_254_740_993), ("9223372036854775807.000", .max),
    ])
    func wholeIsInteger(text: String, value: Int) throws {
        // Its canonical text is its digits, which read back as that integer from inside an
        // object: until 2026-12-06 it was `.decimal` bare.
        #expect(try read(text) == .int(value))
        #expect(try read(String(value)) == .int(value))
    }

    @Test("past a double's range, or a first digit past 10^-999,999,999, is refused as out of range", arguments: [
        "1e400", "-1e400", "1e-1000000000", "1e-99999999999999999999", "0.001e-999999998",
    ])
    func outOfRange(text: String) {
        #expect(throws: JSONError.self) { try read(text) }
    }

    @Test("spellings of one value that no double holds are one text, and two values a double confuses are two")
    func oneSpellingPerValue() throws {
        let one = try ["12345678901234567890123", "1.2345678901234567890123e22", "123456789012345678901230e-1"].map(read)
        #expect(Set(one).count == 1)
        #expect(try read("12345678901234567890123") != read("12345678901234567890124"))
        #expect(Double("12345678901234567890123") == Double("12345678901234567890124"))
    }

    @Test("variables keep every digit, so their storage keys tell apart what a double would not")
    func variables() throws {
        let first = try JSONValue.parse(#"{"amount": 123456789012345678901234567890, "rate": 0.10000000000000000001}"#)
        let second = try JSONValue.parse(#"{"amount": 123456789012345678901234567891, "rate": 0.1}"#)
        #expect(CanonicalJSON.render(first) == #"{"amount":123456789012345678901234567890,"rate":0.10000000000000000001}"#)
        #expect(CanonicalJSON.render(second) == #"{"amount":123456789012345678901234567891,"rate":0.1}"#)
    }
}

/// Ingest keeps a custom scalar's numbers and an error's `extensions` exactly; a `Float` is a
/// double, as GraphQL's spec makes it.
struct IngestExactNumberTests {
    private let plan = Build.query([
        Build.object("item", "Item", [Build.leaf("id", .id), Build.leaf("amount", .customScalar), Build.leaf("ratio", .float)]),
    ])

    @Test("a custom scalar's number keeps every digit, bare, in a list and inside an object")
    func customScalar() throws {
        let big = "123456789012345678901234567890"
        for (written, value) in [
            (big, Value.decimal(big)),
            ("[\(big), 0.1, 7]", .list([.decimal(big), .double(0.1), .int(7)])),
            (#"{"b":[\#(big)],"a":12345678901234567.891}"#, .object(#"{"a":12345678901234567.891,"b":[\#(big)]}"#)),
            ("1.2345678901234568e+29", .double(1.2345678901234568e+29)),
            // A whole number past a double's precision that fits an `Int` is that integer, bare and
            // inside an object alike (whose text spells it as digits, which read as one).
            ("9007199254740993.0", .int(9_007_199_254_740_993)),
            (#"{"a":9.007199254740993e15}"#, .object(#"{"a":9007199254740993}"#)),
        ] as [(String, Value)] {
            let changes = try ingest(plan, #"{"data":{"item":{"id":"1","amount":\#(written),"ratio":null}}}"#)
            #expect(changes.value("Item:1", "amount") == value, "\(written)")
        }
    }

    @Test("a Float is the nearest double, as before")
    func float() throws {
        let changes = try ingest(plan, #"{"data":{"item":{"id":"1","amount":null,"ratio":0.10000000000000000001}}}"#)
        #expect(changes.value("Item:1", "ratio") == .double(0.1))
    }

    @Test("`-0` is negative zero to a Float, and zero to a custom scalar and an ID")
    func negativeZero() throws {
        let changes = try ingest(plan, #"{"data":{"item":{"id":-0,"amount":-0,"ratio":-0}}}"#)
        #expect(changes.value("Item:0", "ratio") == .double(-0.0))
        #expect(changes.value("Item:0", "ratio") != .double(0.0))
        #expect(changes.value("Item:0", "amount") == .int(0))
    }

    @MainActor
    @Test("a Float that turns from zero to negative zero and back is a change the store keeps")
    func signChange() throws {
        let store = Store()
        store.commit(try ingest(plan, #"{"data":{"item":{"id":"1","amount":null,"ratio":0.0}}}"#))
        let item = try #require(store.record(RecordKey("Item:1")))
        store.commit(try ingest(plan, #"{"data":{"item":{"id":"1","amount":null,"ratio":-0.0}}}"#))
        #expect(item["ratio"] == .double(-0.0))
        store.commit(try ingest(plan, #"{"data":{"item":{"id":"1","amount":null,"ratio":0}}}"#))
        #expect(item["ratio"] == .double(0.0))
        #expect(item["ratio"] != .double(-0.0))
    }

    @Test("an error's extensions keep every digit")
    func extensions() throws {
        let changes = try ingest(plan, #"""
            {"data":{"item":{"id":"1","amount":null,"ratio":null}},
             "errors":[{"message":"m","path":["item","amount"],"extensions":{"limit":123456789012345678901234567890,"rate":1.50}}]}
            """#)
        #expect(changes.cell("Item:1", "amount")?.errors.first?.extensions == #"{"limit":123456789012345678901234567890,"rate":1.5}"#)
    }

    @Test("a number out of range in a custom scalar is refused, naming its path")
    func outOfRange() throws {
        let error = try #require(ingestError(plan, #"{"data":{"item":{"id":"1","amount":[1e-1000000000],"ratio":null}}}"#))
        #expect("\(error)".contains("number out of range"))
        #expect("\(error)".contains("item.amount"))
    }
}

/// Variables of a custom scalar keep every digit in storage keys; a `Float` variable is a double.
struct VariableExactNumberTests {
    private let plan: Plan = {
        do {
            let schema = try Schema.parse("""
                scalar Decimal
                type Query { price(amount: Decimal, ratio: Float, count: Int): Int }
                """)
            return try Plan.build(document: "query P($a: Decimal, $r: Float, $c: Int) { price(amount: $a, ratio: $r, count: $c) }", schema: schema)
        } catch {
            fatalError("plan: \(error)")
        }
    }()

    private func key(_ variables: [String: JSONValue]) throws -> String {
        let checked = try plan.variables(variables)
        guard let field = plan.selections.fields(for: "Query", variables: checked).first else { return "" }
        return field.storageKey(checked)
    }

    @Test("two amounts a double confuses are two keys; a Float variable is its double; an Int past 64 bits is refused")
    func keys() throws {
        let one = try JSONValue.parse("123456789012345678901234567890")
        let other = try JSONValue.parse("123456789012345678901234567891")
        #expect(try key(["a": one]) == "price(amount:123456789012345678901234567890)")
        #expect(try key(["a": other]) == "price(amount:123456789012345678901234567891)")
        #expect(try key(["r": JSONValue.parse("0.10000000000000000001")]) == "price(ratio:0.1)")
        #expect(throws: VariableError.self) { try plan.variables(["c": one]) }
        #expect(throws: VariableError.self) { try plan.variables(["c": JSONValue.parse("1.00000000000000000001")]) }
    }
}

extension ExactNumberTests {
    @Test("at the edge of the exact range, and past 21 zeros, one spelling per value")
    func edges() throws {
        #expect(try read("1e-999999999") == .decimal("1e-999999999"))
        #expect(try read("10e-1000000000") == .decimal("1e-999999999"))
        #expect(try read("0.0e-99999999999999999999") == .double(0))
        #expect(try read("1234567890123456789e21") == .decimal("1234567890123456789000000000000000000000"))
        #expect(try read("1234567890123456789e22") == .decimal("1.234567890123456789e40"))
    }
}

/// A number literal in a document that no `Int` or `Double` holds for sure stays as written in the
/// syntax tree, and a storage key reads it as a response's number is read: a custom scalar's
/// `BigInt` literal was refused ("does not fit in 64 bits") until 2026-12-06, and a long float
/// rounded.
struct LiteralExactNumberTests {
    @Test("the parser keeps such literals as written, and the rest as before", arguments: [
        ("123456789012345678901234567890", GraphQLValue.decimal("123456789012345678901234567890")),
        ("0.10000000000000000001", .decimal("0.10000000000000000001")),
        ("1e-400", .decimal("1e-400")),
        ("-9223372036854775809", .decimal("-9223372036854775809")),
        ("9223372036854775807", .int(.max)),
        ("0.1", .float(0.1)),
        ("0.0", .float(0)),
        ("123456789012345", .int(123_456_789_012_345)),
        ("1.23456789012345e300", .float(1.23456789012345e300)),
    ])
    func parsed(literal: String, value: GraphQLValue) throws {
        #expect(try GraphQLFixtures.value(literal) == value)
    }

    @Test("a literal past a double's range is refused with its position")
    func outOfRange() {
        #expect(throws: GraphQLError.self) { try GraphQLFixtures.value("1e400") }
        #expect(throws: GraphQLError.self) { try GraphQLFixtures.value("1e-1000000000") }
    }

    @Test("storage keys keep every digit of a custom scalar's literal; a Float's is its double; an Int's is refused")
    func keys() throws {
        let schema = try Schema.parse("scalar Decimal\ntype Query { price(amount: Decimal, ratio: Float, count: Int): Int }")
        let plan = try Plan.build(
            document: "{ a: price(amount: 123456789012345678901234567890) b: price(amount: 1.50) c: price(ratio: 0.10000000000000000001) }",
            schema: schema)
        let keys = plan.selections.fields(for: "Query", variables: try plan.variables()).map(\.staticStorageKey)
        #expect(keys == ["price(amount:123456789012345678901234567890)", "price(amount:1.5)", "price(ratio:0.1)"])
        #expect(throws: GraphQLError.self) {
            try Plan.build(document: "{ price(count: 123456789012345678901234567890) }", schema: schema)
        }
    }
}
