import Baton

/// What the schema says a field's named type is, as far as storing its values goes.
package enum OracleFieldKind: Hashable, Sendable {
    case int, float, string, boolean, id, enumeration, custom
    /// An object, interface or union: values are records.
    case composite

    /// The kind of `reference`'s named type in `schema` (`nil` for an unknown or input type).
    package static func of(_ reference: GraphQLTypeReference, in schema: Schema) -> OracleFieldKind? {
        guard let type = schema.type(named: reference.namedType) else { return nil }
        switch type.kind {
        case .object, .interface, .union: return .composite
        case .enumeration: return .enumeration
        case .inputObject: return nil
        case .scalar:
            switch type.name {
            case "Int": return .int
            case "Float": return .float
            case "String": return .string
            case "Boolean": return .boolean
            case "ID": return .id
            default: return .custom
            }
        }
    }
}

/// Leaf values: JSON as the response says it, stored by the field's type.
///
/// Int takes integers; Float any number (stored as a double); String and enums strings; ID a
/// string or an integer (stored as its decimal text); Boolean booleans; a custom scalar anything
/// (an object stored as canonical JSON text, an array as a list, a number a double cannot hold as
/// its canonical decimal text, ``OracleDecimal``). `null` anywhere is null; a list
/// type takes an array at each of its list levels.
package enum OracleLeaf {
    package static func value(_ json: OracleJSON, kind: OracleFieldKind, depth: Int) throws(OracleResponseError) -> OracleValue {
        if case .null = json { return .null }
        if depth > 0 {
            guard case .array(let items) = json else { throw OracleResponseError("expected a list") }
            var values: [OracleValue] = []
            for item in items { values.append(try value(item, kind: kind, depth: depth - 1)) }
            return .list(values)
        }
        if kind == .float || kind == .custom, json.holdsNumberOutOfRange { throw OracleResponseError("a number out of range") }
        if kind == .custom, json.holdsNumberPastExactRange { throw OracleResponseError("a number too far to keep exactly") }
        switch (kind, json) {
        case (.int, .int(let i)) where Int32(exactly: i) != nil: return .int(i)
        case (.float, .int(let i)): return .double(Double(i))
        case (.float, .negativeZero): return .double(-0.0)
        case (.int, .negativeZero): return .int(0)
        case (.id, .negativeZero): return .string(OracleText("0"))
        case (.float, .double(let d)), (.float, .decimal(let d, _)), (.float, .longInteger(let d, _)), (.float, .exact(let d, _)):
            return .double(d)
        case (.id, .longInteger(_, let digits)): return .string(digits)
        case (.int, .decimal(_, let whole)) where Int32(exactly: whole) != nil: return .int(whole)
        case (.string, .string(let s)), (.enumeration, .string(let s)), (.id, .string(let s)): return .string(s)
        case (.id, .int(let i)): return .string(OracleText(String(i)))
        case (.boolean, .bool(let b)): return .bool(b)
        case (.custom, _):
            if let name = json.repeatedName(deep: true) { throw OracleResponseError("member \(name) given twice in a custom scalar's value") }
            return custom(json)
        default: throw OracleResponseError("a value that is not a \(kind)")
        }
    }

    /// Any JSON as a custom scalar's value.
    static func custom(_ json: OracleJSON) -> OracleValue {
        switch json {
        case .null: .null
        case .bool(let b): .bool(b)
        case .int(let i): .int(i)
        case .negativeZero: .int(0)
        case .double(let d): .double(d)
        // A whole number that fits an `Int` and that no double holds is that integer, however it
        // is written (rule 4 of ``OracleDecimal``).
        case .decimal(let d, let whole): json.exactNumber == nil ? .double(d) : .int(whole)
        case .longInteger(let d, _), .exact(let d, _): json.exactNumber.map(OracleValue.number) ?? .double(d)
        case .string(let s): .string(s)
        case .array(let items): .list(items.map(custom))
        case .object: .object(OracleText(OracleCanonical.render(json)))
        }
    }
}
