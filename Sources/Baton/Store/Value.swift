/// The value of one slot of a record: a closed set.
///
/// A slot that was never received has no value at all (the record simply lacks the slot);
/// `.null` is a value the server sent.
public enum Value: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
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

/// A field error from a response's `errors`, landed on the field its `path` names.
public struct FieldError: Hashable, Sendable {
    /// The error's message.
    public var message: String
    /// The response path, dotted (`character.location.name`, list indices as numbers).
    public var path: String
    /// The error's `extensions` as canonical JSON text, when present.
    public var extensions: String?

    public init(message: String, path: String, extensions: String? = nil) {
        self.message = message
        self.path = path
        self.extensions = extensions
    }
}

/// One slot of a record: a value and, beside it, the field error the server reported for it.
public struct Cell: Hashable, Sendable {
    public var value: Value
    public var error: FieldError?

    public init(_ value: Value, error: FieldError? = nil) {
        self.value = value
        self.error = error
    }
}
