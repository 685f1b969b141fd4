import Baton

/// Input coercion, written from the GraphQL specification's "Input Coercion" of each type: what
/// an argument or a variable *is* once coerced, whatever way it was written. The server executes
/// with these values and the model keys by them, so one value written two ways is one field.
///
/// - `Float` takes an integer as the same number, a double;
/// - `Int` takes a whole number written as a double (JSON numbers carry no type) as an integer,
///   and so does `ID` (which otherwise keeps an integer as given, as Relay keys it);
/// - a list type takes a single value as a list of one, at each list level;
/// - an input object's fields are coerced by their declared types;
/// - strings, booleans, enums and custom scalars are what they are.
///
/// The schema's defaults for left-out arguments and input fields are not added: the store keys
/// what the client wrote (docs/design.md).
package struct OracleCoercion: Sendable {
    let schema: Schema

    package init(schema: Schema) {
        self.schema = schema
    }

    /// `value` coerced to `type`; `null` stays `null` at any type.
    package func coerce(_ value: JSONValue, to type: GraphQLTypeReference) -> JSONValue {
        switch type {
        case .nonNull(let inner):
            return coerce(value, to: inner)
        case .list(let item):
            switch value {
            case .null: return .null
            case .array(let items): return .array(items.map { coerce($0, to: item) })
            default: return .array([coerce(value, to: item)])
            }
        case .named(let name):
            return coerceNamed(value, name: name)
        }
    }

    private func coerceNamed(_ value: JSONValue, name: String) -> JSONValue {
        switch name {
        case "Float":
            if case .int(let number) = value { return .double(Double(number)) }
            // A Float is a double, however many digits it was written with.
            if case .decimal(let text) = value, let number = Double(text) { return .double(number) }
        case "Int", "ID":
            if case .double(let number) = value, number == number.rounded(), let whole = Int(exactly: number) { return .int(whole) }
        default:
            guard case .object(let members) = value, let type = schema.type(named: name), type.kind == .inputObject else { break }
            var coerced: [String: JSONValue] = [:]
            for (member, memberValue) in members {
                if let field = type.inputFields.first(where: { $0.name == member }) {
                    coerced[member] = coerce(memberValue, to: field.type)
                } else {
                    coerced[member] = memberValue
                }
            }
            return .object(coerced)
        }
        return value
    }

    /// The arguments of `definition` as written (already resolved against the variables), each
    /// coerced to its declared type; arguments the field does not declare are kept as they are.
    package func coerce(arguments: [String: JSONValue], of definition: Schema.Field?) -> [String: JSONValue] {
        guard let definition, !arguments.isEmpty else { return arguments }
        var coerced = arguments
        for argument in definition.arguments {
            if let value = arguments[argument.name] { coerced[argument.name] = coerce(value, to: argument.type) }
        }
        return coerced
    }

    /// An operation's variables coerced to their declared types.
    package func coerce(variables: [String: JSONValue], declared: [Document.VariableDeclaration]) -> [String: JSONValue] {
        var coerced = variables
        for declaration in declared {
            if let value = variables[declaration.name] { coerced[declaration.name] = coerce(value, to: declaration.type) }
        }
        return coerced
    }
}
