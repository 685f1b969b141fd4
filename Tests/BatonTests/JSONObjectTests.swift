import Baton
import Testing

/// `é` precomposed, and `e` followed by a combining acute accent: equal to Swift's `==`, two texts
/// by their bytes.
private let composed = "caf\u{E9}"
private let decomposed = "cafe\u{301}"

@Suite("JSONValue: text compared by its bytes, object members named by theirs")
struct JSONObjectTests {
    @Test("two strings that differ only in their normalization are two values")
    func stringsByBytes() {
        #expect(composed == decomposed)  // Swift's own comparison, for contrast
        #expect(JSONValue.string(composed) != .string(decomposed))
        #expect(Set([JSONValue.string(composed), .string(decomposed)]).count == 2)
        #expect(JSONValue.string(composed) == .string("caf\u{E9}"))
    }

    @Test("parsing keeps two names that differ only in their normalization, and refuses one name given twice")
    func parsing() throws {
        let parsed = try JSONValue.parse(#"{"caf\u00e9":1,"cafe\u0301":2,"z":{"cafe\u0301":3,"caf\u00e9":4}}"#)
        guard case .object(let object) = parsed else {
            Issue.record("not an object: \(parsed)")
            return
        }
        #expect(object.count == 3)
        #expect(object[composed] == .int(1))
        #expect(object[decomposed] == .int(2))
        // Byte order: `e` (0x65) before `é` (0xC3 0xA9).
        #expect(object.keys == [decomposed, composed, "z"])
        #expect(CanonicalJSON.render(parsed) == "{\"\(decomposed)\":2,\"\(composed)\":1,\"z\":{\"\(decomposed)\":3,\"\(composed)\":4}}")
        #expect(throws: JSONError.self) { try JSONValue.parse(#"{"caf\u00e9":1,"café":2}"#) }
    }

    @Test("members: set, replace, remove, literal, map, in the byte order of their names")
    func members() {
        var object: JSONObject = ["b": .int(2), "a": .int(1)]
        #expect(object.keys == ["a", "b"])
        object[decomposed] = .int(3)
        object[composed] = .int(4)
        #expect(object.count == 4)
        #expect(object.updateValue(.int(5), forKey: composed) == .int(4))
        #expect(object.removeValue(forKey: decomposed) == .int(3))
        #expect(object[decomposed] == nil)
        object["a"] = nil
        #expect(object.map(\.key) == ["b", composed])
        #expect(object.mapValues { value in
            guard case .int(let n) = value else { return value }
            return .int(n * 10)
        }.values == [.int(20), .int(50)])
        #expect(object.dictionary == ["b": .int(2), composed: .int(5)])
        let later = JSONObject(uniquingNames: [("x", .int(1)), ("x", .int(2)), (composed, .int(3)), (decomposed, .int(4))])
        #expect(later.count == 3)
        #expect(later["x"] == .int(2))
    }

    @Test("objects are equal when they name the same members by bytes")
    func equality() {
        let one: JSONObject = [composed: .int(1)]
        let other: JSONObject = [decomposed: .int(1)]
        #expect(one != other)
        #expect(JSONValue.object(one) != .object(other))
        #expect(JSONValue.object(["a": .int(1), "b": .null]) == .object(JSONObject(["b": .null, "a": .int(1)])))
        #expect(Set([JSONValue.object(one), .object(other)]).count == 2)
    }

    @Test("a large object in any order parses whole, and the first name given again is the one reported")
    func largeObjects() throws {
        let names = (0..<20_000).map { "k\(($0 * 7_919) % 20_000)" }
        let text = "{" + names.map { "\"\($0)\":1" }.joined(separator: ",") + "}"
        guard case .object(let object) = try JSONValue.parse(text) else {
            Issue.record("not an object")
            return
        }
        #expect(object.count == 20_000)
        #expect(object["k7919"] == .int(1))
        #expect(object.keys == object.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        // `b` is given again (at byte 13) before `a` is (at byte 19).
        guard let error = refusal(#"{"a":1,"b":2,"b":3,"a":4}"#) else {
            Issue.record("a name given twice was accepted")
            return
        }
        #expect(error.reason == .duplicateKey("b"))
        #expect(error.offset == 13)
        // Past the members parsing places one by one: `k3` is given again before `k90` is.
        let many = (0..<100).map { "\"k\($0)\":\($0)" }
        let text2 = "{" + many.joined(separator: ",") + ",\"k3\":0,\"k90\":0}"
        guard let late = refusal(text2) else {
            Issue.record("a name given twice among many was accepted")
            return
        }
        #expect(late.reason == .duplicateKey("k3"))
        #expect(late.offset == text2.utf8.count - #""k3":0,"k90":0}"#.utf8.count)
    }

    /// Why `text` was refused, or nil when it parsed.
    private func refusal(_ text: String) -> JSONError? {
        do throws(JSONError) {
            _ = try JSONValue.parse(text)
            return nil
        } catch {
            return error
        }
    }
}
