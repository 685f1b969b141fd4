/// Checks JSON values against input types, as the spec's input coercion says, for the variables
/// of a plan (``Plan/variables(_:)``).
///
/// It checks and does not rewrite: a value that fits is kept as given.
struct InputCoercion {
    /// `nil` for a plan made by hand: only the built-in scalars are known then.
    let schema: Schema?

    /// Throws unless `value` (`nil`: not given) fits `type`.
    func check(_ value: JSONValue?, as type: GraphQLTypeReference) throws(InputProblem) {
        if case .nonNull(let inner) = type {
            guard let value else { throw InputProblem("expected \(type), got nothing") }
            if value == .null { throw InputProblem("expected \(type), got null") }
            try checkGiven(value, as: inner, shown: type)
            return
        }
        guard let value, value != .null else { return }
        try checkGiven(value, as: type, shown: type)
    }

    /// `value` (not null) against a list or named type; `shown` is the type as errors print it.
    private func checkGiven(_ value: JSONValue, as type: GraphQLTypeReference, shown: GraphQLTypeReference) throws(InputProblem) {
        switch type {
        case .nonNull(let inner):
            try checkGiven(value, as: inner, shown: shown)
        case .list(let item):
            guard case .array(let items) = value else {
                // A single value where a list is expected stands for a list of one.
                try check(value, as: item)
                return
            }
            for (index, element) in items.enumerated() {
                do throws(InputProblem) {
                    try check(element, as: item)
                } catch {
                    throw error.inside(.index(index))
                }
            }
        case .named(let name):
            try checkNamed(value, name: name, shown: shown)
        }
    }

    private func checkNamed(_ value: JSONValue, name: String, shown: GraphQLTypeReference) throws(InputProblem) {
        let got = InputCoercion.describe(value)
        if let scalar = BuiltInScalar(rawValue: name) {
            if let problem = scalar.problem(with: value) {
                throw InputProblem("expected \(shown), got \(got)\(problem)")
            }
            return
        }
        guard let type = schema?.type(named: name) else { return }
        switch type.kind {
        case .enumeration:
            guard case .string(let text) = value else { throw InputProblem("expected \(shown), got \(got)") }
            if !type.enumValues.contains(where: { $0.name == text }) {
                throw InputProblem("expected \(shown), got \(got), which is not one of \(InputCoercion.values(of: type))")
            }
        case .inputObject:
            guard case .object(let members) = value else { throw InputProblem("expected \(shown), got \(got)") }
            // Names come in their byte order.
            for key in members.keys where !type.inputFields.contains(where: { $0.name == key }) {
                throw InputProblem("\(name) has no field \"\(key)\"").inside(.key(key))
            }
            for field in type.inputFields {
                let member = members[field.name]
                // A field left out takes its default (the schema's business to get right).
                if member == nil && field.defaultValue != nil { continue }
                do throws(InputProblem) {
                    try check(member, as: field.type)
                } catch {
                    throw error.inside(.key(field.name))
                }
            }
        default:
            // A custom scalar takes any value.
            break
        }
    }

    /// A value for a message: its JSON, cut to 40 characters.
    static func describe(_ value: JSONValue) -> String {
        let text = CanonicalJSON.render(value)
        guard text.unicodeScalars.count > 40 else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix(40))) + "…"
    }

    /// An enum's values for a message: `ALIVE, DEAD, UNKNOWN` (the first ten).
    static func values(of type: Schema.NamedType) -> String {
        let names = type.enumValues.map(\.name)
        return names.prefix(10).joined(separator: ", ") + (names.count > 10 ? ", …" : "")
    }
}

/// The spec's built-in scalars and the values each takes as input.
enum BuiltInScalar: String {
    case int = "Int", float = "Float", string = "String", boolean = "Boolean", id = "ID"

    /// `nil` when `value` fits; otherwise what to add after "expected T, got V" (empty when the
    /// kind of value is simply wrong).
    ///
    /// JSON numbers carry no type, so a whole number written `1.0` is an integer.
    func problem(with value: JSONValue) -> String? {
        switch (self, value) {
        case (.int, .int(let number)):
            return Int32(exactly: number) == nil ? ", outside Int's 32 bits" : nil
        case (.int, .double(let number)):
            guard number.rounded() == number else { return "" }
            return Int32(exactly: number) == nil ? ", outside Int's 32 bits" : nil
        case (.int, .decimal(let text)):
            // Canonical text spells a whole number without a point or an exponent, and one that
            // needs this case is past 64 bits.
            return text.utf8.allSatisfy({ $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: "e") }) ? ", outside Int's 32 bits" : ""
        case (.float, .int), (.float, .double), (.float, .decimal), (.string, .string), (.boolean, .bool), (.id, .string), (.id, .int):
            return nil
        case (.id, .double(let number)):
            return number.rounded() == number && Int(exactly: number) != nil ? nil : ""
        default:
            return ""
        }
    }
}
