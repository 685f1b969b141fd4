/// A small JSON tree for variables, argument values, errors and read answers (never for
/// responses: ingest normalizes responses straight from their bytes).
///
/// Text is compared by its UTF-8 bytes: two strings, or two member names, that differ only in
/// their Unicode normalization are different values here, as they are to the store and its image
/// (Swift's `==` on `String` would call them equal).
public indirect enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    /// A number no `Int` or `Double` holds exactly (more digits than a double keeps, or past its
    /// smallest values), as its canonical text: `123456789012345678901234567890`,
    /// `12345678901234567.89`, `1.2345678901234567891e-30` (docs/design.md, "Bad input").
    case decimal(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// An object of the members of `dictionary`.
    public static func object(_ dictionary: [String: JSONValue]) -> JSONValue {
        .object(JSONObject(dictionary))
    }
}

extension JSONValue: Hashable {
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.decimal(let a), .decimal(let b)): ExactText.bytesEqual(a, b)
        case (.string(let a), .string(let b)): ExactText.bytesEqual(a, b)
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(1); hasher.combine(value)
        case .int(let value): hasher.combine(2); hasher.combine(value)
        case .double(let value): hasher.combine(3); hasher.combine(value)
        case .decimal(let text): hasher.combine(4); ExactText.hashBytes(text, into: &hasher)
        case .string(let text): hasher.combine(5); ExactText.hashBytes(text, into: &hasher)
        case .array(let items): hasher.combine(6); hasher.combine(items)
        case .object(let members): hasher.combine(7); hasher.combine(members)
        }
    }
}
