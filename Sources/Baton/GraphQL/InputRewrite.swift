/// Rewrites input values that fit their types into the values the spec's input coercion makes of
/// them, so that one value written two ways is one storage key and one operation identity.
///
/// - a `Float` given a whole number is a double: `scale: 2` is `scale: 2.0`, as a client whose
///   JSON writes `2.0` as `2` (JavaScript, Foundation) sends it;
/// - an `Int` or an `ID` given a whole number written as a double (`1.0`) is an integer;
/// - a list given a single value is a list of one: `states: OPEN` is `states: [OPEN]`;
/// - an input object's fields are rewritten by their own types.
///
/// Everything else is kept as given: strings, enums, custom scalars (whose values have no type
/// to coerce by), an `ID` given as an integer (`4` stays `4`, as Relay keys it), and defaults
/// the schema gives an input field the value leaves out (as Relay keys them).
struct InputRewrite {
    /// `nil` for a plan made by hand: only the built-in scalars and lists are rewritten.
    let schema: Schema?
    /// The bug the rewrite puts back, if any (`idIntKeyedAsString`, `nestedInputNotCoerced`).
    var mutant: Mutant? = nil

    /// `value`, which fits `type`, as coerced.
    func json(_ value: JSONValue, as type: GraphQLTypeReference) -> JSONValue {
        if value == .null { return value }
        switch type {
        case .nonNull(let inner):
            return json(value, as: inner)
        case .list(let item):
            guard case .array(let items) = value else { return .array([json(value, as: item)]) }
            return .array(items.map { json($0, as: item) })
        case .named(let name):
            switch (BuiltInScalar(rawValue: name), value) {
            case (.float?, .int(let number)):
                return .double(Double(number))
            case (.float?, .decimal(let text)):
                return Double(text).map(JSONValue.double) ?? value
            case (.int?, .double(let number)), (.id?, .double(let number)):
                return Int(exactly: number).map(JSONValue.int) ?? value
            case (.id?, .int(let number)) where mutant.isOn(.idIntKeyedAsString):
                return .string(String(number))
            case (.some, _):
                return value
            case (nil, .object(let members)):
                guard let type = schema?.type(named: name), type.kind == .inputObject else { return value }
                var rewritten = members
                for field in type.inputFields {
                    guard let member = members[field.name], !mutant.isOn(.nestedInputNotCoerced) else { continue }
                    rewritten[field.name] = json(member, as: field.type)
                }
                return .object(rewritten)
            case (nil, _):
                return value
            }
        }
    }

    /// An argument's value as the plan keeps it, coerced where it is written: literals now,
    /// variables when ``Plan/variables(_:)`` checks them against their declared types.
    func argument(_ value: ArgumentValue, as type: GraphQLTypeReference) -> ArgumentValue {
        switch (value, type) {
        case (_, .nonNull(let inner)):
            return argument(value, as: inner)
        case (.literal(let literal), _):
            return .literal(json(literal, as: type))
        case (.variable, _):
            // A variable's own type was checked to fit here: its value is rewritten by it.
            return value
        case (.list(let items), .list(let item)):
            return .list(items.map { argument($0, as: item) })
        case (.object, .list(let item)):
            return .list([argument(value, as: item)])
        case (.object(let fields), .named(let name)):
            guard let type = schema?.type(named: name), type.kind == .inputObject else { return value }
            return .object(fields.map { field in
                guard let definition = type.inputFields.first(where: { $0.name == field.name }) else { return field }
                return ArgumentField(name: field.name, value: argument(field.value, as: definition.type))
            })
        case (.list, .named):
            // A list literal with a variable inside, given to a custom scalar: nothing to coerce by.
            return value
        }
    }
}
