/// What can happen to a response on its way to the app: cut short (the connection dropped), a
/// body that is no GraphQL response (a proxy's error page, a gateway's JSON), or one value
/// changed into another kind of value (a server of another version, a broken middlebox).
///
/// A garbled response carries no provenance: the store and the model each read its text on their
/// own and must agree whether it can be read. One both refuse must change nothing.
enum ResponseGarbling {
    /// Bodies that are not GraphQL responses, as proxies and gateways send them.
    static let foreignBodies = [
        "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>",
        "",
        #"{"message":"Internal server error"}"#,
        "[]",
        "null",
        #"{"data":[]}"#,
        #"{"errors":{"message":"rate limited"}}"#,
    ]

    /// Values another kind of value may be changed into, and values at the edges of their kind:
    /// integers just past 32 bits, a float past a double's range, a negative zero, an exponent,
    /// numbers with more digits than a double keeps, a lone surrogate, an escaped NUL.
    static let replacements = [
        "{}", "[]", #""x""#, "7", "true", "2.5", "null", #"{"id":"x"}"#, #"["x"]"#,
        "2147483648", "-2147483649", "1e400", "-0", "15e-1", "3.0e0", "1.50e1", "2147483648.0", "18446744073709551616",
        "123456789012345678901234567890123456789012345", #""\ud800""#, #""a\u0000b""#,
        "1e-400", "4.9e-324", "1.7976931348623157e308", "1.7976931348623159e308", "-1e400", "1E+2", "-0.0",
        "0.00000000000000000000000000000000000000000000001", "9007199254740993", "-9223372036854775808",
        "9223372036854775808", #""\uffff""#, #""\u00E9\u0065\u0301""#,
        // Numbers a double cannot hold: kept exactly where a reader keeps values as they came (a
        // custom scalar, an error's members), a double in a Float; the last too far to keep.
        "0.10000000000000000001", "-12345678901234567.891", "1.2345678901234567891e-30", "1e-1000000000",
    ]

    /// Values no JSON reader may take: numbers JSON does not spell so, broken escapes, a raw
    /// control character in a string, a literal misspelled.
    static let malformedValues = [
        "01", "+1", ".5", "1.", "1e", "-", "0x10", "NaN", "Infinity", "-Infinity",
        #""\x""#, #""\u12""#, #""\uZZZZ""#, "\"a\tb\"", "\"a\u{1}b\"", #""\uD800\u0041""#, #""\uDC00""#,
        "True", "nul", "falsey", "nullx", #""a"b""#, "'a'",
    ]

    /// Members a server adds that the operation did not select (a newer server's fields, a
    /// gateway's annotations): a reader passes over them, whatever they hold, and refuses only
    /// a name given twice, or a `__typename` that contradicts the object's type. Twin spellings
    /// of `café` are two names, as JSON makes them.
    static let extraMembers = [
        #""extra":{"deep":[1,{"b":"c"}],"s":"q\"\\\u00e9\ud83e\udd84"}"#,
        #""__meta":null"#,
        #""ex\u0074ra":[]"#,
        #""big":1e400"#,
        #""long":123456789012345678901234567890"#,
        #""nested":{"a":{"a":{"a":[[[{}]]]}}}"#,
        #""caf\u00e9":"x","cafe\u0301":"y""#,
        #""id2":"\u0000""#,
        // A `__typename` the operation did not select, as a network layer adds it everywhere: it
        // still speaks for the object's type, so one naming no type of the schema is refused
        // where the object has one (and is plain data inside a JSON scalar or an extension).
        #""__typename":"Ghost""#,
        #""\u005f_typename":null"#,
        // Arrays 505 deep: with the objects around them, a little under or over the 512 levels
        // both readers allow, wherever the member lands.
        #""deep":"# + String(repeating: "[", count: 505) + String(repeating: "]", count: 505),
    ]

    /// Members a server adds at the top of a response, beside `data` and `errors`.
    static let extraTopMembers = [
        #""extensions":{"tracing":{"version":1,"startTime":"2026-12-05T00:00:00Z"},"cost":[1,2.5]}"#,
        #""extensions":null"#,
        #""hasNext":false"#,
    ]

    /// What may come before or after a response's object on the wire: a byte order mark,
    /// whitespace, a stray byte, a second object, a NUL.
    static let frames: [(prefix: [UInt8], suffix: [UInt8], how: String)] = [
        ([0xEF, 0xBB, 0xBF], [], "after a byte order mark"),
        (Array(" \r\n".utf8), Array("\n ".utf8), "inside whitespace"),
        ([], Array("x".utf8), "followed by a stray x"),
        ([], Array("{}".utf8), "followed by a second object"),
        ([], [0], "followed by a NUL byte"),
    ]

    /// Strings whose bytes are not UTF-8 (a lone continuation byte, a cut sequence, an overlong
    /// form, a surrogate encoded as UTF-8), in place of a value.
    static let badUTF8: [[UInt8]] = [
        [0x22, 0x61, 0xFF, 0x62, 0x22],
        [0x22, 0xC3, 0x22],
        [0x22, 0xC0, 0xAF, 0x22],
        [0x22, 0xED, 0xA0, 0x80, 0x22],
    ]

    /// `text` garbled one way, drawn from `random`, with a line that says how.
    static func garble(_ text: [UInt8], random: inout SimRandom) -> (text: [UInt8], how: String) {
        let kind = random.int(0...7)
        if kind == 7 {
            let typenameFirst = random.chance(0.5)
            if typenameFirst, let respelled = respelledTypename(text, random: &random) { return respelled }
            if let respelled = respelledNumber(text, random: &random) { return respelled }
            if !typenameFirst, let respelled = respelledTypename(text, random: &random) { return respelled }
        }
        if kind == 5 {
            return added(text, random: &random)
        }
        if kind == 6 {
            if random.chance(0.5) {
                let frame = random.pick(frames)
                return (frame.prefix + text + frame.suffix, "sent \(frame.how)")
            }
            let spans = JSONValueSpans.members(of: text)
            guard !spans.isEmpty else { return (text, "left whole") }
            let span = random.pick(spans)
            let bytes = random.pick(badUTF8)
            return (Array(text[..<span.lowerBound]) + bytes + Array(text[span.upperBound...]),
                    "the value at byte \(span.lowerBound) replaced by a string that is not UTF-8 (\(bytes.map { String($0, radix: 16) }.joined(separator: " ")))")
        }
        if kind == 0, text.count > 1 {
            let length = random.int(0...(text.count - 1))
            return (Array(text[..<length]), "cut after \(length) of \(text.count) bytes")
        }
        if kind == 1 {
            let body = random.pick(foreignBodies)
            return (Array(body.utf8), "replaced by \(body.isEmpty ? "an empty body" : body)")
        }
        if kind == 2 {
            // A member left out, or written twice.
            let members = JSONValueSpans.objectMembers(of: text)
            guard !members.isEmpty else { return (text, "left whole") }
            let member = random.pick(members)
            let name = String(decoding: text[member.whole.lowerBound..<min(member.whole.upperBound, member.whole.lowerBound + 30)], as: UTF8.self)
            if random.chance(0.5) {
                return (Array(text[..<member.removable.lowerBound]) + Array(text[member.removable.upperBound...]), "without the member \(name)…")
            }
            let copy = Array(text[member.whole])
            return (Array(text[..<member.whole.upperBound]) + Array(",".utf8) + copy + Array(text[member.whole.upperBound...]), "with the member \(name)… twice")
        }
        let spans = JSONValueSpans.members(of: text)
        guard !spans.isEmpty else { return (text, "left whole") }
        let span = random.pick(spans)
        let replacement = random.chance(0.25) ? random.pick(malformedValues) : random.pick(replacements)
        let old = String(decoding: text[span], as: UTF8.self)
        let shown = old.count > 40 ? String(old.prefix(40)) + "…" : old
        return (Array(text[..<span.lowerBound]) + Array(replacement.utf8) + Array(text[span.upperBound...]),
                "the value at byte \(span.lowerBound) (\(shown)) replaced by \(replacement)")
    }
}

extension ResponseGarbling {
    /// `text` with a member the operation did not select added: inside an object below the top
    /// (after one of its members), or at the top beside `data`.
    static func added(_ text: [UInt8], random: inout SimRandom) -> (text: [UInt8], how: String) {
        let members = JSONValueSpans.objectMembers(of: text)
        if members.isEmpty || random.chance(0.25) {
            // At the top: right after its opening brace (the server writes no space before it).
            guard let open = text.firstIndex(of: UInt8(ascii: "{")) else { return (text, "left whole") }
            let extra = random.pick(extraTopMembers)
            return (Array(text[...open]) + Array((extra + ",").utf8) + Array(text[(open + 1)...]), "with \(extra) added at the top")
        }
        if random.chance(0.25), let (member, twin) = kelvinTwin(text, members, random: &random) {
            return (Array(text[..<member.whole.upperBound]) + Array(",".utf8) + twin + Array(text[member.whole.upperBound...]),
                    "with a twin of the member at byte \(member.whole.lowerBound) added, its K written \\u212A")
        }
        let member = random.pick(members)
        let extra = random.pick(extraMembers)
        return (Array(text[..<member.whole.upperBound]) + Array(("," + extra).utf8) + Array(text[member.whole.upperBound...]),
                "with \(extra) added after the member at byte \(member.whole.lowerBound)")
    }

    /// A member whose name holds a `K`, and a copy of it whose name writes that `K` as the
    /// escaped Kelvin sign (`\u212A`): another name in JSON, though Swift's `==` takes the
    /// sign for a `K`. `nil` when no member's name holds a plain `K`.
    static func kelvinTwin(
        _ text: [UInt8], _ members: [JSONValueSpans.Member], random: inout SimRandom
    ) -> (member: JSONValueSpans.Member, twin: [UInt8])? {
        let named = members.filter { member in
            let name = text[member.name]
            return name.contains(UInt8(ascii: "K")) && !name.contains(UInt8(ascii: "\\"))
        }
        guard !named.isEmpty else { return nil }
        let member = random.pick(named)
        let k = text[member.name].firstIndex(of: UInt8(ascii: "K"))!
        let twin = Array(text[member.whole.lowerBound..<k]) + Array(#"\u212A"#.utf8) + Array(text[(k + 1)..<member.whole.upperBound])
        return (member, twin)
    }
}
