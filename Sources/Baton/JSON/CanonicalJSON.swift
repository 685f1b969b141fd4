/// Canonical JSON text: object keys sorted by their UTF-8 bytes, no spaces, numbers as Swift prints
/// them (a number no double holds exactly in its own canonical text, ``JSONValue/decimal(_:)``).
///
/// Storage keys, operation identities and error extensions use it, so that the same value always
/// renders as the same text in any process.
public enum CanonicalJSON {
    /// Renders `value` canonically.
    public static func render(_ value: JSONValue) -> String {
        var out = ""
        write(value, into: &out)
        return out
    }

    /// Appends the canonical text of `value` to `out`.
    public static func write(_ value: JSONValue, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += renderDouble(d)
        case .decimal(let text): out += text
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                write(item, into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            // Members are kept in the byte order of their names already.
            for (i, member) in members.enumerated() {
                if i > 0 { out += "," }
                writeString(member.key, into: &out)
                out += ":"
                write(member.value, into: &out)
            }
            out += "}"
        }
    }

    /// A double as JSON: integral values keep a `.0`-free form only when they came in as ints, so
    /// doubles always print with Swift's shortest round-tripping form.
    public static func renderDouble(_ d: Double) -> String {
        if d.isNaN || d.isInfinite { return "null" }
        return d.description
    }

    /// Appends `s` as a JSON string literal, escaping what JSON requires.
    public static func writeString(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// Orders strings by their UTF-8 bytes, the same in every process and locale.
    public static func utf8Less(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
