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
    /// a lone surrogate, an escaped NUL.
    static let replacements = [
        "{}", "[]", #""x""#, "7", "true", "2.5", "null", #"{"id":"x"}"#, #"["x"]"#,
        "2147483648", "-2147483649", "1e400", "-0", "15e-1", "3.0e0", "1.50e1", "2147483648.0", "18446744073709551616",
        "123456789012345678901234567890123456789012345", #""\ud800""#, #""a\u0000b""#,
        "1e-400", "4.9e-324", "1.7976931348623157e308", "1.7976931348623159e308", "-1e400", "1E+2", "-0.0",
        "0.00000000000000000000000000000000000000000000001", "9007199254740993", "-9223372036854775808",
        "9223372036854775808", #""\uffff""#, #""\u00E9\u0065\u0301""#,
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
    /// a name given twice. Twin spellings of `café` are two names, as JSON makes them.
    static let extraMembers = [
        #""extra":{"deep":[1,{"b":"c"}],"s":"q\"\\\u00e9\ud83e\udd84"}"#,
        #""__meta":null"#,
        #""ex\u0074ra":[]"#,
        #""big":1e400"#,
        #""long":123456789012345678901234567890"#,
        #""nested":{"a":{"a":{"a":[[[{}]]]}}}"#,
        #""caf\u00e9":"x","cafe\u0301":"y""#,
        #""id2":"\u0000""#,
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

    /// `text` with the value of one `__typename` member spelled another way: the same name with
    /// its first letter escaped (`\u0043haracter`, to be read as `Character`), or another text:
    /// its `K` as an escaped Kelvin sign (which Swift's `==` takes for a `K`), its first letter's
    /// case flipped (a name the schema does not have), a combining accent or an `é` added, a
    /// space added, or nothing. `nil` when no member is named `__typename` as written.
    static func respelledTypename(_ text: [UInt8], random: inout SimRandom) -> (text: [UInt8], how: String)? {
        let typenames = JSONValueSpans.objectMembers(of: text).compactMap { member -> (Range<Int>, [UInt8])? in
            guard text[member.name].elementsEqual("__typename".utf8) else { return nil }
            var start = member.name.upperBound + 1
            while start < member.whole.upperBound, text[start] != UInt8(ascii: "\"") { start += 1 }
            let value = start..<member.whole.upperBound
            let name = Array(text[value].dropFirst().dropLast())
            guard value.count >= 2, text[value.upperBound - 1] == UInt8(ascii: "\""), let first = name.first,
                  !name.contains(UInt8(ascii: "\\")), first < 0x80 else { return nil }
            return (value, name)
        }
        guard !typenames.isEmpty else { return nil }
        let (value, name) = random.pick(typenames)
        var spellings: [(bytes: [UInt8], how: String)] = [
            (Array(#"\u00"#.utf8) + Array(String(name[0], radix: 16, uppercase: random.chance(0.5)).utf8) + name.dropFirst(),
             "its first letter escaped"),
            ([name[0] ^ 0x20] + name.dropFirst(), "its first letter's case flipped"),
            (name + Array(#"\u0301"#.utf8), "an escaped combining accent added"),
            (name + [0xC3, 0xA9], "an é added"),
            (name + [0x20], "a space added"),
            ([], "emptied"),
        ]
        // Where the name has a `K`, half the time its Kelvin twin.
        if let k = name.firstIndex(of: UInt8(ascii: "K")), random.chance(0.5) {
            spellings = [(Array(name[..<k]) + Array(#"\u212A"#.utf8) + Array(name[(k + 1)...]), "its K written \\u212A")]
        }
        let (bytes, how) = random.pick(spellings)
        return (Array(text[..<value.lowerBound]) + [UInt8(ascii: "\"")] + bytes + [UInt8(ascii: "\"")] + Array(text[value.upperBound...]),
                "the __typename at byte \(value.lowerBound) (\(String(decoding: name, as: UTF8.self))) respelled: \(how)")
    }

    /// `text` with one number written another way that means the same decimal value: digits
    /// moved across the point, trailing zeros added, an exponent (`15` as `150e-1`, `1.5E+1` or
    /// `0.015e3`; `2.5` as `25e-1`). JSON numbers carry no type, so an `Int` field reads each as
    /// 15, an `ID` none (a fraction or an exponent is no id), a `Float` one double. `nil` when
    /// the text holds no number.
    static func respelledNumber(_ text: [UInt8], random: inout SimRandom) -> (text: [UInt8], how: String)? {
        let numbers = JSONValueSpans.members(of: text).compactMap { span -> (Range<Int>, DecimalSpelling)? in
            DecimalSpelling(text[span]).map { (span, $0) }
        }
        guard !numbers.isEmpty else { return nil }
        let (span, number) = random.pick(numbers)
        let old = Array(text[span])
        var new = number.spelled(random: &random)
        if new == old { new = number.spelled(zeros: 1, integerDigits: 0, random: &random) }
        return (Array(text[..<span.lowerBound]) + new + Array(text[span.upperBound...]),
                "the number at byte \(span.lowerBound) (\(String(decoding: old, as: UTF8.self))) respelled \(String(decoding: new, as: UTF8.self))")
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

/// Where the values of a JSON text lie, found by a scanner of its own (strings with their
/// escapes, numbers, literals, brackets): the server writes valid JSON, so no more is needed.
enum JSONValueSpans {
    /// The byte ranges of every value below the top-level object (its members' values, and
    /// everything inside them), in text order.
    static func members(of text: [UInt8]) -> [Range<Int>] {
        scan(text).spans
    }

    /// The spans of values and the members of objects below the top-level object.
    private static func scan(_ text: [UInt8]) -> (spans: [Range<Int>], members: [Member]) {
        var spans: [Range<Int>] = []
        var members: [Member] = []
        var position = 0
        skipSpace(text, &position)
        guard position < text.count, text[position] == UInt8(ascii: "{") else { return ([], []) }
        _ = value(text, &position, depth: 0, into: &spans, members: &members)
        return (spans, members)
    }

    /// One member of an object: the bytes from its name to the end of its value, and the bytes
    /// to take out to leave the object without it (a comma beside it included).
    struct Member {
        var whole: Range<Int>
        var removable: Range<Int>
        /// The bytes of its name, between the quotes, escapes as written.
        var name: Range<Int>
    }

    /// Every member of every object below the top-level one, in text order.
    static func objectMembers(of text: [UInt8]) -> [Member] {
        scan(text).members
    }

    /// Scans the value at `position`, recording its span when `depth` is 1 or more (and the
    /// members of the objects below the top-level one); answers false when the text ends or
    /// breaks inside it.
    private static func value(
        _ text: [UInt8], _ position: inout Int, depth: Int, into spans: inout [Range<Int>], members: inout [Member]
    ) -> Bool {
        skipSpace(text, &position)
        guard position < text.count else { return false }
        let start = position
        switch text[position] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let close = text[position] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            let isObject = close == UInt8(ascii: "}")
            position += 1
            skipSpace(text, &position)
            if position < text.count, text[position] == close {
                position += 1
            } else {
                // The comma before the member being read, if any.
                var comma: Int?
                while true {
                    var nameStart = position
                    var nameEnd = position
                    if isObject {
                        skipSpace(text, &position)
                        nameStart = position
                        guard string(text, &position) else { return false }
                        nameEnd = position
                        skipSpace(text, &position)
                        guard position < text.count, text[position] == UInt8(ascii: ":") else { return false }
                        position += 1
                    }
                    guard value(text, &position, depth: depth + 1, into: &spans, members: &members) else { return false }
                    let valueEnd = position
                    skipSpace(text, &position)
                    guard position < text.count else { return false }
                    let follows = text[position] == UInt8(ascii: ",")
                    if isObject, depth >= 1 {
                        // Out with the comma before it, or else the one after it.
                        let removable = comma.map { $0..<valueEnd } ?? (follows ? nameStart..<(position + 1) : nameStart..<valueEnd)
                        members.append(Member(whole: nameStart..<valueEnd, removable: removable, name: (nameStart + 1)..<(nameEnd - 1)))
                    }
                    if follows { comma = position; position += 1; continue }
                    guard text[position] == close else { return false }
                    position += 1
                    break
                }
            }
        case UInt8(ascii: "\""):
            guard string(text, &position) else { return false }
        default:
            // A number or a literal: up to the next delimiter.
            while position < text.count, !isDelimiter(text[position]) { position += 1 }
            guard position > start else { return false }
        }
        if depth >= 1 { spans.append(start..<position) }
        return true
    }

    private static func string(_ text: [UInt8], _ position: inout Int) -> Bool {
        guard position < text.count, text[position] == UInt8(ascii: "\"") else { return false }
        position += 1
        while position < text.count {
            switch text[position] {
            case UInt8(ascii: "\\"): position += 2
            case UInt8(ascii: "\""): position += 1; return true
            default: position += 1
            }
        }
        return false
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
            || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func skipSpace(_ text: [UInt8], _ position: inout Int) {
        while position < text.count, text[position] == 0x20 || text[position] == 0x09 || text[position] == 0x0A || text[position] == 0x0D {
            position += 1
        }
    }
}

/// A JSON number as a sign, its significant digits and a power of ten (`-1.50e2` is `-`, `150`,
/// 0), to write again in another spelling of the same value.
struct DecimalSpelling {
    var negative: Bool
    /// The digits without leading zeros (`0` for zero).
    var digits: [UInt8]
    var exponent: Int

    /// Reads `bytes` if they are a JSON number whose exponent is small enough to write again.
    init?(_ bytes: ArraySlice<UInt8>) {
        var rest = bytes[...]
        negative = rest.first == UInt8(ascii: "-")
        if negative { rest = rest.dropFirst() }
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        let whole = rest.prefix(while: isDigit)
        guard !whole.isEmpty, whole.count == 1 || whole.first != UInt8(ascii: "0") else { return nil }
        rest = rest.dropFirst(whole.count)
        var fraction: ArraySlice<UInt8> = []
        if rest.first == UInt8(ascii: ".") {
            fraction = rest.dropFirst().prefix(while: isDigit)
            guard !fraction.isEmpty else { return nil }
            rest = rest.dropFirst(1 + fraction.count)
        }
        var power = 0
        if let e = rest.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            rest = rest.dropFirst()
            var minus = false
            if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                minus = sign == UInt8(ascii: "-")
                rest = rest.dropFirst()
            }
            let written = rest.prefix(while: isDigit)
            guard !written.isEmpty, written.count <= 4 else { return nil }
            power = Int(String(decoding: written, as: UTF8.self))! * (minus ? -1 : 1)
            rest = rest.dropFirst(written.count)
        }
        guard rest.isEmpty else { return nil }
        let all = Array(whole) + Array(fraction)
        let significant = all.drop { $0 == UInt8(ascii: "0") }
        digits = significant.isEmpty ? [UInt8(ascii: "0")] : Array(significant)
        exponent = significant.isEmpty ? 0 : power - fraction.count
    }

    /// The value written with 0 to 3 zeros added to its digits and the point at a drawn place.
    func spelled(random: inout SimRandom) -> [UInt8] {
        let zeros = random.int(0...3)
        return spelled(zeros: zeros, integerDigits: random.int(0...(digits.count + zeros)), random: &random)
    }

    /// The value as `I.F` times a power of ten, where `I` is the first `integerDigits` of its
    /// digits with `zeros` zeros after them (`0` when none), `F` the rest.
    func spelled(zeros: Int, integerDigits: Int, random: inout SimRandom) -> [UInt8] {
        let all = digits + Array(repeating: UInt8(ascii: "0"), count: zeros)
        let split = min(integerDigits, all.count)
        var whole = Array(all[..<split])
        // JSON allows no leading zero before other digits.
        while whole.count > 1, whole.first == UInt8(ascii: "0") { whole.removeFirst() }
        if whole.isEmpty { whole = [UInt8(ascii: "0")] }
        let fraction = Array(all[split...])
        let power = exponent - zeros + fraction.count
        var out: [UInt8] = negative ? [UInt8(ascii: "-")] : []
        out += whole
        if !fraction.isEmpty { out += [UInt8(ascii: ".")] + fraction }
        if power != 0 || random.chance(0.2) {
            out.append(random.chance(0.5) ? UInt8(ascii: "e") : UInt8(ascii: "E"))
            if power >= 0, random.chance(0.3) { out.append(UInt8(ascii: "+")) }
            out += Array(String(power).utf8)
        }
        return out
    }
}
