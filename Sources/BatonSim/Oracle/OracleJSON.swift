import Baton

/// A JSON tree as the oracle reads responses: object members keep their order and their exact
/// bytes (a `[String: …]` dictionary would merge keys Swift thinks equal).
package indirect enum OracleJSON: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    /// A number written with a fraction or an exponent that stands for a whole number (`3.0`,
    /// `1.5e1`), decided on its decimal text: a double everywhere but where an `Int` is read,
    /// which takes `whole` (docs/design.md, "Bad input").
    case decimal(Double, whole: Int)
    /// An integer written as one that does not fit an `Int`: a double everywhere but where an `ID`
    /// is read, which keeps its digits (docs/design.md, "Bad input").
    case longInteger(Double, digits: OracleText)
    /// A number written with a fraction or an exponent, not a whole number that fits an `Int`,
    /// whose nearest double does not hold it (``OracleDecimal``, rule 4): the double
    /// (what a Float takes) and the number's canonical decimal text (what a custom scalar and
    /// an error's `extensions` keep). `.longInteger` and `.decimal` may stand for such numbers
    /// too; ``exactNumber`` says for all three.
    case exact(Double, text: OracleText)
    /// `-0`: the integer zero everywhere but where a Float is read, which takes negative zero (a
    /// JSON reader that takes every number as a double reads it so; until 2026-12-08 the model
    /// read it as the integer 0 before it knew the type, and a Float lost the sign).
    case negativeZero
    case string(OracleText)
    case array([OracleJSON])
    case object([OracleJSONMember])

    /// The first member called `key` of an object (`nil` for other values).
    package func member(_ key: String) -> OracleJSON? {
        guard case .object(let members) = self else { return nil }
        let wanted = OracleText(key)
        return members.first { $0.key == wanted }?.value
    }

    /// A plain JSON value as a tree (object members in the UTF-8 order of their keys).
    package init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .int(i)
        case .double(let d): self = .double(d)
        case .decimal(let text): self = Self.exactNumber(text)
        case .string(let s): self = .string(OracleText(s))
        case .array(let items): self = .array(items.map(OracleJSON.init))
        case .object(let members):
            self = .object(members.map { OracleJSONMember(key: OracleText($0.key), value: OracleJSON($0.value)) }.sorted { $0.key < $1.key })
        }
    }

    /// A number that keeps its exact value, from its canonical decimal text (a provenance value),
    /// or `-0` as a response spelled it: as the parser would read a response spelling it so: a whole number that fits an `Int` is
    /// `.decimal` (the parser's reading of `9007199254740993.0`; rule 4 makes it that integer
    /// wherever a value is kept as it is), a longer one `.longInteger`, anything else `.exact`.
    package static func exactNumber(_ canonical: String) -> OracleJSON {
        if canonical == "-0" { return .negativeZero }
        let double = Double(canonical) ?? .nan
        if !canonical.contains(where: { $0 == "." || $0 == "e" }) {
            if let whole = Int(canonical) { return .decimal(double, whole: whole) }
            return .longInteger(double, digits: OracleText(canonical))
        }
        return .exact(double, text: OracleText(canonical))
    }

    /// The canonical decimal text of a number that keeps its exact value (rule 4 of
    /// ``OracleDecimal``); nil for any other value, numbers a double holds or an `Int`
    /// takes included, and numbers out of a double's range.
    package var exactNumber: OracleText? {
        switch self {
        case .exact(_, let text): text
        case .longInteger(let d, let digits): d.isFinite ? OracleDecimal.exactText(json: digits.string.utf8).map { OracleText($0) } : nil
        case .decimal(_, let whole): OracleDecimal.exactText(whole: whole).map { OracleText($0) }
        default: nil
        }
    }

    /// The tree as the plain `JSONValue` the rest of the simulator speaks (for read-back).
    package var jsonValue: JSONValue {
        switch self {
        case .null: .null
        case .bool(let b): .bool(b)
        case .int(let i): .int(i)
        case .negativeZero: .int(0)
        // A number that keeps its exact value is its canonical text, or the integer it is when
        // that fits an `Int` (rule 4 of ``OracleDecimal``).
        case .decimal(let d, let whole): exactNumber == nil ? .double(d) : .int(whole)
        case .double(let d), .longInteger(let d, _), .exact(let d, _): exactNumber.map { .decimal($0.string) } ?? .double(d)
        case .string(let s): .string(s.string)
        case .array(let items): .array(items.map(\.jsonValue))
        // Names by their bytes: two that differ only in their Unicode normalization are two
        // members of the read (until 2026-12-06 the model folded them, as the store's read did).
        case .object(let members):
            .object(JSONObject(uniquingNames: members.lazy.map { ($0.key.string, $0.value.jsonValue) }))
        }
    }
}

extension OracleJSON {
    /// The first member name an object gives twice (by bytes), in this object alone or, `deep`,
    /// in any object inside it too; nil when there is none. A response is a map: a member given
    /// twice is refused wherever a reader takes the object in (docs/design.md, "Bad input").
    func repeatedName(deep: Bool) -> OracleText? {
        switch self {
        case .object(let members):
            var seen = Set<OracleText>()
            for member in members {
                if !seen.insert(member.key).inserted { return member.key }
                if deep, let inner = member.value.repeatedName(deep: true) { return inner }
            }
            return nil
        case .array(let items):
            guard deep else { return nil }
            for item in items { if let inner = item.repeatedName(deep: true) { return inner } }
            return nil
        default:
            return nil
        }
    }
}

extension OracleJSON {
    /// True when a number in the value (at any depth) is past a double's range: a reader that
    /// takes the number in (a `Float`, a custom scalar's value, an error's `extensions`) refuses
    /// it, as it cannot be held; one that passes over it (an unselected member) does not.
    var holdsNumberOutOfRange: Bool {
        switch self {
        case .double(let value), .decimal(let value, _), .longInteger(let value, _), .exact(let value, _): !value.isFinite
        case .object(let members): members.contains { $0.value.holdsNumberOutOfRange }
        case .array(let items): items.contains { $0.holdsNumberOutOfRange }
        default: false
        }
    }
}

extension OracleJSON {
    /// True when a number kept exactly somewhere in the value stands past
    /// ``OracleDecimal/isPastExactRange``: a reader that keeps numbers exactly (a custom scalar's
    /// value, an error's members) refuses it as out of range; a `Float` takes its double.
    var holdsNumberPastExactRange: Bool {
        switch self {
        case .exact(_, let text): OracleDecimal(json: text.string)?.isPastExactRange ?? false
        case .object(let members): members.contains { $0.value.holdsNumberPastExactRange }
        case .array(let items): items.contains { $0.holdsNumberPastExactRange }
        default: false
        }
    }
}

/// One `"key": value` member of a JSON object.
package struct OracleJSONMember: Hashable, Sendable {
    package var key: OracleText
    package var value: OracleJSON

    package init(key: OracleText, value: OracleJSON) {
        self.key = key
        self.value = value
    }
}

/// Canonical JSON text, as storage keys, operation identities and custom-scalar objects use it.
///
/// Object members sorted by the UTF-8 bytes of their keys, no whitespace, integers in decimal,
/// doubles as Swift's shortest round-trip `description` (`null` for NaN and infinities, which
/// JSON cannot say), a number a double cannot hold as its canonical decimal text
/// (``OracleJSON/exactNumber``), strings escaping `"` `\` and the control characters and
/// nothing else.
package enum OracleCanonical {
    /// The canonical text of a plain JSON value.
    package static func render(_ value: JSONValue) -> String {
        render(OracleJSON(value))
    }

    /// The canonical text of a parsed tree; of members sharing a key, the last one counts.
    package static func render(_ value: OracleJSON) -> String {
        var out = ""
        write(value, into: &out)
        return out
    }

    static func write(_ value: OracleJSON, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .negativeZero: out += "0"
        case .double(let d): out += number(d)
        case .decimal(let d, _), .longInteger(let d, _), .exact(let d, _): out += value.exactNumber?.string ?? number(d)
        case .string(let s): quote(s.string, into: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                write(item, into: &out)
            }
            out += "]"
        case .object(let members):
            var last: [OracleText: OracleJSON] = [:]
            for member in members { last[member.key] = member.value }
            out += "{"
            for (index, key) in last.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                quote(key.string, into: &out)
                out += ":"
                write(last[key]!, into: &out)
            }
            out += "}"
        }
    }

    /// A double: Swift's shortest text that reads back as the same double.
    static func number(_ d: Double) -> String {
        d.isFinite ? d.description : "null"
    }

    /// A JSON string literal: `"` and `\` escaped, `\n \r \t \b \f` by name, other control
    /// characters as `\u00xx` (lower-case hex), every other scalar as it is.
    static func quote(_ s: String, into out: inout String) {
        out.append("\"")
        for scalar in s.unicodeScalars {
            if let escape = namedEscapes[scalar.value] {
                out += escape
            } else if scalar.value < 0x20 {
                out += "\\u00"
                out.append(hexDigits[Int(scalar.value >> 4)])
                out.append(hexDigits[Int(scalar.value & 0xF)])
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        out.append("\"")
    }

    private static let namedEscapes: [UInt32: String] = [
        0x22: "\\\"", 0x5C: "\\\\", 0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t", 0x08: "\\b", 0x0C: "\\f",
    ]
    private static let hexDigits = Array("0123456789abcdef")
}
