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

    /// Values another kind of value may be changed into.
    static let replacements = ["{}", "[]", #""x""#, "7", "true", "2.5", "null", #"{"id":"x"}"#, #"["x"]"#]

    /// `text` garbled one way, drawn from `random`, with a line that says how.
    static func garble(_ text: [UInt8], random: inout SimRandom) -> (text: [UInt8], how: String) {
        let kind = random.int(0...3)
        if kind == 0, text.count > 1 {
            let length = random.int(0...(text.count - 1))
            return (Array(text[..<length]), "cut after \(length) of \(text.count) bytes")
        }
        if kind == 1 {
            let body = random.pick(foreignBodies)
            return (Array(body.utf8), "replaced by \(body.isEmpty ? "an empty body" : body)")
        }
        let spans = JSONValueSpans.members(of: text)
        guard !spans.isEmpty else { return (text, "left whole") }
        let span = random.pick(spans)
        let replacement = random.pick(replacements)
        let old = String(decoding: text[span], as: UTF8.self)
        let shown = old.count > 40 ? String(old.prefix(40)) + "…" : old
        return (Array(text[..<span.lowerBound]) + Array(replacement.utf8) + Array(text[span.upperBound...]),
                "the value at byte \(span.lowerBound) (\(shown)) replaced by \(replacement)")
    }
}

/// Where the values of a JSON text lie, found by a scanner of its own (strings with their
/// escapes, numbers, literals, brackets): the server writes valid JSON, so no more is needed.
enum JSONValueSpans {
    /// The byte ranges of every value below the top-level object (its members' values, and
    /// everything inside them), in text order.
    static func members(of text: [UInt8]) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        var position = 0
        skipSpace(text, &position)
        guard position < text.count, text[position] == UInt8(ascii: "{") else { return [] }
        _ = value(text, &position, depth: 0, into: &spans)
        return spans
    }

    /// Scans the value at `position`, recording its span when `depth` is 1 or more; answers
    /// false when the text ends or breaks inside it.
    private static func value(_ text: [UInt8], _ position: inout Int, depth: Int, into spans: inout [Range<Int>]) -> Bool {
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
                while true {
                    if isObject {
                        skipSpace(text, &position)
                        guard string(text, &position) else { return false }
                        skipSpace(text, &position)
                        guard position < text.count, text[position] == UInt8(ascii: ":") else { return false }
                        position += 1
                    }
                    guard value(text, &position, depth: depth + 1, into: &spans) else { return false }
                    skipSpace(text, &position)
                    guard position < text.count else { return false }
                    if text[position] == UInt8(ascii: ",") { position += 1; continue }
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
