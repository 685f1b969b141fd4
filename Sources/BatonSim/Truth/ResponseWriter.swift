import Baton

/// The server's own JSON writer: it spells a response in one seed's ``JSONStyle``, drawing every
/// choice (whitespace, escapes, number spellings, member order) from the seed.
struct ResponseWriter {
    let style: JSONStyle
    var random: SimRandom
    private var bytes: [UInt8] = []

    init(style: JSONStyle, random: SimRandom) {
        self.style = style
        self.random = random
    }

    /// `{"data": …, "errors": […]}`, errors left out when there are none; beside the bytes, the
    /// data's provenance with every object's fields in the order they were written (a shuffled
    /// style writes members out of execution order, and a reader meets them in this order).
    mutating func response(_ result: ExecutionResult) -> (bytes: [UInt8], data: ProvenanceObject?) {
        var written: ProvenanceObject?
        bytes = []
        bytes.reserveCapacity(512)
        // A refused request's response has errors and no `data` member at all.
        var members = result.refused ? [] : ["data"]
        if !result.errors.isEmpty {
            if style.errorsFirst { members.insert("errors", at: 0) } else { members.append("errors") }
        }
        whitespace()
        token(UInt8(ascii: "{"))
        for (position, member) in order(members.count).map({ members[$0] }).enumerated() {
            if position > 0 { token(UInt8(ascii: ",")) }
            key(member)
            if member == "data" {
                if let data = result.data {
                    written = object(data)
                } else if let inPlace = result.writtenData {
                    value(inPlace)
                } else {
                    literal("null")
                }
            } else {
                token(UInt8(ascii: "["))
                for (index, error) in result.errors.enumerated() {
                    if index > 0 { token(UInt8(ascii: ",")) }
                    self.error(error, located: !result.refused)
                }
                token(UInt8(ascii: "]"))
            }
        }
        token(UInt8(ascii: "}"))
        whitespace()
        return (bytes, written)
    }

    /// Writes `object`'s members (shuffled when the style says so) and returns it with its fields
    /// in the order written.
    private mutating func object(_ object: ProvenanceObject) -> ProvenanceObject {
        token(UInt8(ascii: "{"))
        var written = object
        written.fields = []
        written.fields.reserveCapacity(object.fields.count)
        for (position, index) in order(object.fields.count).enumerated() {
            if position > 0 { token(UInt8(ascii: ",")) }
            var field = object.fields[index]
            key(field.responseKey)
            field.value = value(field.value)
            written.fields.append(field)
        }
        token(UInt8(ascii: "}"))
        return written
    }

    /// Writes `value` and returns it as written (objects' fields in written order).
    @discardableResult
    private mutating func value(_ value: ProvenanceValue) -> ProvenanceValue {
        switch value {
        case .null:
            literal("null")
            return value
        case .scalar(let scalar):
            return .scalar(json(scalar))
        case .object(let object):
            return .object(self.object(object))
        case .nulled(let written):
            return .nulled(written: self.value(written))
        case .list(let items):
            token(UInt8(ascii: "["))
            var written: [ProvenanceValue] = []
            written.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                if index > 0 { token(UInt8(ascii: ",")) }
                written.append(self.value(item))
            }
            token(UInt8(ascii: "]"))
            return .list(written)
        }
    }

    /// Writes `value` and returns it as written: a double spelled as a whole number (`366`) is an
    /// integer to a reader, and inside a custom scalar nothing says otherwise; `-0` is the
    /// number as written (`.decimal("-0")`), an integer zero to every reader but a Float's, which
    /// takes negative zero.
    @discardableResult
    private mutating func json(_ value: JSONValue) -> JSONValue {
        switch value {
        case .null: literal("null")
        case .bool(let flag): literal(flag ? "true" : "false")
        case .int(let number): literal(String(number))
        case .double(let number):
            let spelling: String
            if style.variesNumbers {
                let spellings = FloatText.spellings(number)
                spelling = spellings[random.int(0...(spellings.count - 1))]
            } else {
                spelling = FloatText.plain(number)
            }
            literal(spelling)
            if spelling == "-0" { return .decimal(spelling) }
            if !spelling.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let whole = Int(spelling) { return .int(whole) }
        case .decimal(let canonical):
            exactNumber(canonical)
        case .string(let text):
            whitespace()
            string(text)
        case .array(let items):
            token(UInt8(ascii: "["))
            var written: [JSONValue] = []
            for (index, item) in items.enumerated() {
                if index > 0 { token(UInt8(ascii: ",")) }
                written.append(json(item))
            }
            token(UInt8(ascii: "]"))
            return .array(written)
        case .object(let members):
            token(UInt8(ascii: "{"))
            // Members in the byte order of their names; two that differ only in their Unicode
            // normalization are two members as written (a `[String: …]` here kept one of them).
            var written = JSONObject()
            for (index, member) in members.enumerated() {
                if index > 0 { token(UInt8(ascii: ",")) }
                key(member.key)
                written[member.key] = json(member.value)
            }
            token(UInt8(ascii: "}"))
            return .object(written)
        }
        return value
    }

    /// A number a double cannot hold, written from its canonical decimal text as its digits say
    /// (never through a double): as it is, or in a style that varies numbers any spelling of the
    /// same decimal value (``ServerExactNumbers/spellings(_:)``). A reader keeps it exact whatever
    /// the spelling, so the value written is the value drawn.
    private mutating func exactNumber(_ canonical: String) {
        guard style.variesNumbers else { return literal(canonical) }
        let spellings = ServerExactNumbers.spellings(canonical)
        literal(spellings[random.int(0...(spellings.count - 1))])
    }

    /// One member of an error as written: the spec's by name, the others by their position in the
    /// error's own list.
    private enum ErrorMember {
        case message, path, other(Int), extensions
    }

    /// One error; without `located` (a refused request's, raised before execution) it has no
    /// `path`.
    private mutating func error(_ raised: RaisedError, located: Bool) {
        let others = raised.error.otherMembers ?? []
        var members: [ErrorMember] = [.message] + (located ? [.path] : []) + others.indices.map(ErrorMember.other)
        if raised.error.extensions != nil { members.append(.extensions) }
        token(UInt8(ascii: "{"))
        for (position, member) in order(members.count).map({ members[$0] }).enumerated() {
            if position > 0 { token(UInt8(ascii: ",")) }
            switch member {
            case .other(let index):
                key(others[index].name)
                json(others[index].value)
            case .message:
                key("message")
                whitespace()
                string(raised.error.message)
            case .path:
                key("path")
                token(UInt8(ascii: "["))
                for (index, component) in raised.error.path.enumerated() {
                    if index > 0 { token(UInt8(ascii: ",")) }
                    switch component {
                    case .key(let key):
                        whitespace()
                        string(key)
                    case .index(let number): literal(String(number))
                    }
                }
                token(UInt8(ascii: "]"))
            case .extensions:
                key("extensions")
                let extensions = raised.error.extensions!
                token(UInt8(ascii: "{"))
                for (position, index) in order(extensions.count).enumerated() {
                    if position > 0 { token(UInt8(ascii: ",")) }
                    key(extensions[index].name)
                    json(extensions[index].value)
                }
                token(UInt8(ascii: "}"))
            }
        }
        token(UInt8(ascii: "}"))
    }

    // MARK: - Tokens

    /// The order members are written in: as given, or shuffled when the style says so.
    private mutating func order(_ count: Int) -> [Int] {
        var order = Array(0..<count)
        guard style.shufflesMembers, count > 1 else { return order }
        for index in stride(from: count - 1, to: 0, by: -1) {
            order.swapAt(index, random.int(0...index))
        }
        return order
    }

    private mutating func key(_ name: String) {
        whitespace()
        string(name)
        token(UInt8(ascii: ":"))
    }

    /// A structural character, with the style's whitespace around it.
    private mutating func token(_ byte: UInt8) {
        whitespace()
        bytes.append(byte)
        if style.whitespace == .spaces, byte == UInt8(ascii: ":") || byte == UInt8(ascii: ",") {
            bytes.append(0x20)
        }
    }

    private mutating func literal(_ text: String) {
        whitespace()
        bytes.append(contentsOf: text.utf8)
    }

    /// Whitespace strewn between tokens, in the scattered style.
    private mutating func whitespace() {
        guard style.whitespace == .scattered, random.chance(0.3) else { return }
        let choices: [[UInt8]] = [[0x20], [0x0A], [0x09], [0x0D, 0x0A], [0x20, 0x20]]
        bytes.append(contentsOf: choices[random.int(0...(choices.count - 1))])
    }

    /// A JSON string: the escapes JSON requires, and in some styles more (`\uXXXX` for any
    /// character, surrogate pairs beyond the Basic Multilingual Plane, `\/`).
    private mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        if style.escapeRate == 0 && !style.escapesSolidus {
            var text = text
            text.withUTF8 { buffer in
                var run = 0
                for index in 0..<buffer.count {
                    let byte = buffer[index]
                    guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 else { continue }
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[run..<index]))
                    if byte < 0x20 {
                        control(byte)
                    } else {
                        bytes.append(UInt8(ascii: "\\"))
                        bytes.append(byte)
                    }
                    run = index + 1
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[run...]))
            }
        } else {
            for scalar in text.unicodeScalars {
                let code = scalar.value
                if code < 0x20 {
                    if random.chance(style.escapeRate) { escape(code) } else { control(UInt8(code)) }
                } else if code == 0x22 || code == 0x5C || code == 0x2F && style.escapesSolidus {
                    if random.chance(style.escapeRate) {
                        escape(code)
                    } else {
                        bytes.append(UInt8(ascii: "\\"))
                        bytes.append(UInt8(code))
                    }
                } else if random.chance(style.escapeRate) {
                    escape(code)
                } else {
                    // The scalar's UTF-8 bytes, written straight in (no string made per scalar).
                    UTF8.encode(scalar) { bytes.append($0) }
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A control character: its short escape when it has one, else `\u00XX`.
    private mutating func control(_ byte: UInt8) {
        let short: UInt8? =
            switch byte {
            case 0x08: UInt8(ascii: "b")
            case 0x09: UInt8(ascii: "t")
            case 0x0A: UInt8(ascii: "n")
            case 0x0C: UInt8(ascii: "f")
            case 0x0D: UInt8(ascii: "r")
            default: nil
            }
        if let short {
            bytes.append(UInt8(ascii: "\\"))
            bytes.append(short)
        } else {
            escape(UInt32(byte))
        }
    }

    /// `\uXXXX`, or a surrogate pair for a character beyond U+FFFF.
    private mutating func escape(_ code: UInt32) {
        if code > 0xFFFF {
            let offset = code - 0x10000
            unit(0xD800 + (offset >> 10))
            unit(0xDC00 + (offset & 0x3FF))
        } else {
            unit(code)
        }
    }

    private mutating func unit(_ code: UInt32) {
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(UInt8(ascii: "u"))
        for shift in stride(from: 12, through: 0, by: -4) {
            let digit = UInt8((code >> UInt32(shift)) & 0xF)
            let upper = style.hexCase == .upper || (style.hexCase == .mixed && random.chance(0.5))
            bytes.append(digit < 10 ? UInt8(ascii: "0") + digit : (upper ? UInt8(ascii: "A") : UInt8(ascii: "a")) + digit - 10)
        }
    }
}
