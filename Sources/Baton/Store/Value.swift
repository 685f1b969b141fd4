/// The value of one slot of a record: a closed set.
///
/// A slot that was never received has no value at all (the record simply lacks the slot);
/// `.null` is a value the server sent.
public enum Value: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    /// A custom scalar's number that no `Int` or `Double` holds exactly (more digits than a double
    /// keeps, or past its smallest values), as its canonical text, every digit kept
    /// (``JSONValue/decimal(_:)``).
    case decimal(String)
    case string(String)
    /// A link to one record.
    case link(RecordKey)
    /// A list of links to records, with nulls kept at their index.
    case links([RecordKey?])
    /// A list of scalars (possibly nested lists, possibly holding nulls).
    case list([Value])
    /// A custom scalar whose value is a JSON object, kept as canonical JSON text (keys sorted).
    case object(String)
}

extension Value {
    /// Whether the value links to some record (nested lists included).
    var holdsLink: Bool {
        var found = false
        forEachLink { _ in found = true }
        return found
    }

    /// Calls `body` with every record this value links to, nested lists included.
    public func forEachLink(_ body: (RecordKey) -> Void) {
        switch self {
        case .link(let key): body(key)
        case .links(let keys): for case let key? in keys { body(key) }
        case .list(let items): for item in items { item.forEachLink(body) }
        default: break
        }
    }
}

/// A field error from a response's `errors`, landed on the field its `path` names, or on the
/// field holding a `null` its path steps through.
public struct FieldError: Hashable, Sendable {
    /// The error's message.
    public var message: String
    /// The response path, dotted (`character.location.name`, list indices as numbers).
    public var path: String
    /// The error's `extensions` as canonical JSON text, when present.
    public var extensions: String?
    /// The error's other members, as the response gave them (`locations`, and what a server adds
    /// beside the spec's members, such as GitHub's `type`), as the canonical JSON text of one
    /// object; `nil` when it has none.
    public var otherMembers: String?
    /// Where, among the elements of the value of the field holding the error, the element it is
    /// about stands: one index per list level (`[1]` for `episodes.1`, and for `episodes.1.id`
    /// when a failed `id` nulled element 1). Empty when the error is about the field's own value.
    /// A read gives the error at that element when the element is `null`, else at the field.
    public var elementIndices: [Int]

    /// An error at `path`; `elementIndices` default to the numbers that end the path (an error
    /// naming a list's element is about that element).
    public init(
        message: String, path: String, extensions: String? = nil, otherMembers: String? = nil, elementIndices: [Int]? = nil
    ) {
        self.message = message
        self.path = path
        self.extensions = extensions
        self.otherMembers = otherMembers
        self.elementIndices = elementIndices ?? Self.trailingIndices(of: path)
    }

    /// The list indices that end a dotted path (`nodes.1.0` gives `[1, 0]`). A response key never
    /// starts with a digit, so a component of digits alone is an index.
    package static func trailingIndices(of dotted: String) -> [Int] {
        var indices: [Int] = []
        for component in dotted.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).reversed() {
            guard !component.isEmpty, component.count <= 18, component.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { break }
            indices.append(component.reduce(0) { $0 * 10 + Int($1 - 48) })
        }
        return indices.reversed()
    }
}

/// One slot of a record: a value and, beside it, the field errors the server reported for it.
public struct Cell: Hashable, Sendable {
    /// The value the response wrote, `null` when it wrote only errors.
    public var value: Value
    /// The errors of the response that wrote the cell whose paths name its field, in the order of
    /// that response's `errors`: several when the field was met at several places (two aliases
    /// of it, or a record met twice) or when its list's elements failed one by one.
    public var errors: [FieldError]

    /// A cell holding `value`, with `errors` beside it (none by default).
    public init(_ value: Value, errors: [FieldError] = []) {
        self.value = value
        self.errors = errors
    }
}

// Values compare text by its bytes: a string that changes only in how a character is composed
// (`"é"` to `"e\u{301}"`) is a change the store keeps and notifies, not an equal write. Doubles
// compare by their bits for the same reason: `-0.0` and `0.0` are equal to `==` but print apart
// (`-0` and `0`), so a Float that turns from one to the other is a change (the store kept the
// old sign until 2026-12-08).
extension Value {
    public static func == (lhs: Value, rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a.bitPattern == b.bitPattern
        case (.decimal(let a), .decimal(let b)): ExactText.bytesEqual(a, b)
        case (.string(let a), .string(let b)): ExactText.bytesEqual(a, b)
        case (.link(let a), .link(let b)): a == b
        case (.links(let a), .links(let b)): a == b
        case (.list(let a), .list(let b)): a == b
        case (.object(let a), .object(let b)): ExactText.bytesEqual(a, b)
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(1); hasher.combine(b)
        case .int(let i): hasher.combine(2); hasher.combine(i)
        case .double(let d): hasher.combine(3); hasher.combine(d)
        case .string(let s): hasher.combine(4); ExactText.hashBytes(s, into: &hasher)
        case .link(let key): hasher.combine(5); hasher.combine(key)
        case .links(let keys): hasher.combine(6); hasher.combine(keys)
        case .list(let items): hasher.combine(7); hasher.combine(items)
        case .object(let text): hasher.combine(8); ExactText.hashBytes(text, into: &hasher)
        case .decimal(let text): hasher.combine(9); ExactText.hashBytes(text, into: &hasher)
        }
    }
}

extension FieldError {
    public static func == (lhs: FieldError, rhs: FieldError) -> Bool {
        ExactText.bytesEqual(lhs.message, rhs.message) && ExactText.bytesEqual(lhs.path, rhs.path)
            && lhs.extensions.map(ExactText.init) == rhs.extensions.map(ExactText.init)
            && lhs.otherMembers.map(ExactText.init) == rhs.otherMembers.map(ExactText.init)
    }

    public func hash(into hasher: inout Hasher) {
        ExactText.hashBytes(message, into: &hasher)
        ExactText.hashBytes(path, into: &hasher)
        hasher.combine(extensions.map(ExactText.init))
        hasher.combine(otherMembers.map(ExactText.init))
    }
}
