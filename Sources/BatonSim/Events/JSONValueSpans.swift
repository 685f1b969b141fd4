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
