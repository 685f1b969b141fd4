extension GraphQLValue {
    /// The value as JSON when it mentions no variable: enum values become strings, ints stay
    /// ints and floats become doubles, a number as written reads as JSON reads it (exactly,
    /// ``JSONValue/decimal(_:)``, when no double holds it). `nil` when a variable occurs at any
    /// depth.
    public var constantJSON: JSONValue? {
        switch self {
        case .variable: return nil
        case .int(let value): return .int(value)
        case .float(let value): return .double(value)
        case .decimal(let text): return (try? JSONValue.parse(text)) ?? .string(text)
        case .string(let value): return .string(value)
        case .boolean(let value): return .bool(value)
        case .null: return .null
        case .enumeration(let name): return .string(name)
        case .list(let items):
            var values: [JSONValue] = []
            values.reserveCapacity(items.count)
            for item in items {
                guard let value = item.constantJSON else { return nil }
                values.append(value)
            }
            return .array(values)
        case .object(let fields):
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(fields.count)
            for field in fields {
                guard let value = field.value.constantJSON else { return nil }
                members[field.name] = value
            }
            return .object(members)
        }
    }
}
