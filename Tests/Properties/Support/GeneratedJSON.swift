import Baton

/// JSON as the generator builds it: objects keep their members in order, so the response text
/// is written in the order GraphQL gives (or a shuffled one, on purpose).
indirect enum GenJSON: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([GenJSON])
    case object([(String, GenJSON)])

    /// The same value as Baton's tree.
    var jsonValue: JSONValue {
        switch self {
        case .null: .null
        case .bool(let b): .bool(b)
        case .int(let i): .int(i)
        case .double(let d): .double(d)
        case .string(let s): .string(s)
        case .array(let items): .array(items.map(\.jsonValue))
        case .object(let members):
            .object(Dictionary(members.map { ($0.0, $0.1.jsonValue) }, uniquingKeysWith: { _, last in last }))
        }
    }

    /// Plain JSON text: members in order, no spaces, only the escapes JSON requires.
    var plainText: String {
        var writer = GenJSONWriter(style: nil)
        writer.write(self)
        return writer.out
    }
}

/// Writes JSON text, plainly or (with a random stream) with varied but equivalent spellings:
/// whitespace, `\u` escapes (surrogate pairs for astral scalars), `\/`, exponent forms of numbers.
struct GenJSONWriter {
    var style: GenRandom?
    var out = ""

    init(style: GenRandom?) {
        self.style = style
    }

    private mutating func chance(_ percent: Int) -> Bool {
        guard var rng = style else { return false }
        let result = rng.chance(percent)
        style = rng
        return result
    }

    /// The members, now and then in another order (JSON objects are unordered).
    private mutating func maybeShuffled<T>(_ items: [T]) -> [T] {
        guard var rng = style else { return items }
        let result = rng.chance(15) ? rng.shuffled(items) : items
        style = rng
        return result
    }

    private mutating func space() {
        guard style != nil else { return }
        if chance(15) { out += chance(50) ? " " : (chance(50) ? "\n  " : "\t") }
    }

    mutating func write(_ value: GenJSON) {
        space()
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += spell(d)
        case .string(let s): writeString(s)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { space(); out += "," }
                write(item)
            }
            space()
            out += "]"
        case .object(let members):
            out += "{"
            for (i, member) in maybeShuffled(members).enumerated() {
                if i > 0 { space(); out += "," }
                space()
                writeString(member.0)
                space()
                out += ":"
                write(member.1)
            }
            space()
            out += "}"
        }
        space()
    }

    /// A double's text: Swift's shortest form, or (styled) the same decimal number spelled with
    /// an exponent.
    private mutating func spell(_ d: Double) -> String {
        let plain = d.description
        guard style != nil, !plain.contains("e"), chance(30) else { return plain }
        let negative = plain.hasPrefix("-")
        let body = negative ? String(plain.dropFirst()) : plain
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        let whole = String(parts[0])
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        var digits = String((whole + fraction).drop { $0 == "0" })
        if digits.isEmpty { digits = "0" }
        let sign = negative ? "-" : ""
        switch (chance(50), chance(50)) {
        case (true, true): return sign + digits + "e-" + String(fraction.count)
        case (true, false): return sign + digits + "E-" + String(fraction.count)
        case (false, true): return plain + "e0"
        case (false, false): return plain + "E+00"
        }
    }

    mutating func writeString(_ s: String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += chance(30) ? "\\u000A" : "\\n"
            case "\r": out += "\\r"
            case "\t": out += chance(30) ? "\\u0009" : "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "/": out += chance(40) ? "\\/" : "/"
            default:
                if scalar.value < 0x20 {
                    out += "\\u" + hex4(scalar.value, upper: chance(50))
                } else if scalar.value > 0xFFFF, chance(50) {
                    let v = scalar.value - 0x10000
                    let upper = chance(50)
                    out += "\\u" + hex4(0xD800 + (v >> 10), upper: upper) + "\\u" + hex4(0xDC00 + (v & 0x3FF), upper: upper)
                } else if scalar.value <= 0xFFFF, chance(scalar.value < 0x80 ? 3 : 40) {
                    out += "\\u" + hex4(scalar.value, upper: chance(50))
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}

/// Four hex digits.
func hex4(_ value: UInt32, upper: Bool) -> String {
    let hex = String(value, radix: 16, uppercase: upper)
    return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
}

/// The oracle's canonical JSON, written from the documentation of storage keys: object keys
/// sorted by UTF-8 bytes, no spaces, numbers as Swift prints them, strings with the escapes JSON
/// requires (the short forms where JSON has them, `\u00xx` for other control characters).
enum GenCanonical {
    static func render(_ value: JSONValue) -> String {
        var out = ""
        write(value, into: &out)
        return out
    }

    static func write(_ value: JSONValue, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += d.description
        case .decimal(let text): out += text
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            out += "["
            out += items.map { render($0) }.joined(separator: ",")
            out += "]"
        case .object(let members):
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            out += "{"
            out += keys.map { key in
                var member = ""
                writeString(key, into: &member)
                return member + ":" + render(members[key]!)
            }.joined(separator: ",")
            out += "}"
        }
    }

    static func writeString(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0..<0x20: out += "\\u" + hex4(scalar.value, upper: false)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

/// Comparing JSON trees: an int and a double are equal when they are the same number.
enum GenJSONCompare {
    /// Nil when `actual` equals `expected`, else where and how they first differ.
    static func difference(_ actual: JSONValue, _ expected: JSONValue, path: String = "data") -> String? {
        switch (actual, expected) {
        case (.int(let a), .double(let e)):
            return Double(a) == e ? nil : "\(path): \(a) ≠ expected \(e)"
        case (.double(let a), .int(let e)):
            return a == Double(e) ? nil : "\(path): \(a) ≠ expected \(e)"
        case (.array(let a), .array(let e)):
            if a.count != e.count { return "\(path): \(a.count) elements ≠ expected \(e.count)" }
            for i in 0..<a.count {
                if let d = difference(a[i], e[i], path: "\(path)[\(i)]") { return d }
            }
            return nil
        case (.object(let a), .object(let e)):
            let aKeys = a.keys.sorted()
            let eKeys = e.keys.sorted()
            if aKeys != eKeys {
                let missing = eKeys.filter { a[$0] == nil }
                let extra = aKeys.filter { e[$0] == nil }
                return "\(path): members differ; missing \(missing), unexpected \(extra)"
            }
            for key in eKeys {
                if let d = difference(a[key]!, e[key]!, path: "\(path).\(key)") { return d }
            }
            return nil
        default:
            return actual == expected ? nil : "\(path): \(GenCanonical.render(actual)) ≠ expected \(GenCanonical.render(expected))"
        }
    }
}
