import Baton

/// Arguments as the provenance reports them, and as the server reads them.
extension Executor {
    /// The arguments written on a field, after variables: an argument not written, or written as a
    /// variable that is absent and has no default, is left out; an explicit `null` stays `.null`.
    /// The schema's defaults are not added (the server reads them with ``effective(_:_:in:)``).
    func arguments(_ written: [GraphQLArgument]) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for argument in written {
            if let value = argumentJSON(argument.value) { result[argument.name] = value }
        }
        return result
    }

    /// A value as written, with variables substituted; `nil` for an absent variable without default.
    func argumentJSON(_ value: GraphQLValue) -> JSONValue? {
        switch value {
        case .variable(let name, _):
            if let given = variables[name] { return given }
            guard let declared = operation.syntax.variables.first(where: { $0.name == name })?.defaultValue else { return nil }
            return argumentJSON(declared)
        case .int(let number): return .int(number)
        case .float(let number): return .double(number)
        case .decimal(let text): return (try? OracleJSONParser.parse(text))?.jsonValue ?? .string(text)
        case .string(let text): return .string(text)
        case .boolean(let flag): return .bool(flag)
        case .null: return .null
        case .enumeration(let name): return .string(name)
        case .list(let items): return .array(items.map { argumentJSON($0) ?? .null })
        case .object(let fields):
            var members: [String: JSONValue] = [:]
            for field in fields {
                if let member = argumentJSON(field.value) { members[field.name] = member }
            }
            return .object(members)
        }
    }

    /// The value the server acts on for the argument `name` of `definition`: as given, else the
    /// schema's default; `nil` when neither.
    func effective(_ name: String, _ arguments: [String: JSONValue], in definition: Schema.Field) -> JSONValue? {
        if let given = arguments[name] { return given }
        return definition.argument(named: name)?.defaultValue.flatMap(argumentJSON)
    }

    /// The value at `path` (an argument, then an input field), with the schema's defaults.
    func effective(path: [String], _ arguments: [String: JSONValue], in definition: Schema.Field) -> JSONValue? {
        guard let top = effective(path[0], arguments, in: definition) else { return nil }
        guard path.count > 1 else { return top }
        guard case .object(let members) = top else { return nil }
        if let member = members[path[1]] { return member }
        guard let input = definition.argument(named: path[0]).flatMap({ schema.type(named: $0.type.namedType) }),
            let field = input.inputFields.first(where: { $0.name == path[1] })
        else { return nil }
        return field.defaultValue.flatMap(argumentJSON)
    }

    /// A whole number argument; `nil` when absent or null.
    func intArgument(_ name: String, _ arguments: [String: JSONValue], in definition: Schema.Field) -> Int? {
        if case .int(let number)? = effective(name, arguments, in: definition) { return number }
        return nil
    }

    /// A string argument; `nil` when absent or null.
    func stringArgument(_ name: String, _ arguments: [String: JSONValue], in definition: Schema.Field) -> String? {
        if case .string(let text)? = effective(name, arguments, in: definition) { return text }
        return nil
    }

    /// The hash of a set of arguments, independent of the order they were written in. An
    /// explicit `null` counts, at every depth: the spec's input coercion keeps it apart from an
    /// argument left out, so a resolver may answer the two differently, and this server does.
    static func argumentsHash(_ arguments: [String: JSONValue]) -> UInt64 {
        if arguments.isEmpty { return 0 }
        var hash = ServerHash(0xA7)
        addAll(JSONObject(arguments), to: &hash)
        return hash.value
    }

    private static func addAll(_ members: JSONObject, to hash: inout ServerHash) {
        // Members come in the byte order of their names.
        for member in members {
            hash.add(member.key)
            addAll(member.value, to: &hash)
        }
        hash.add(UInt64(0x0B))
    }

    private static func addAll(_ value: JSONValue, to hash: inout ServerHash) {
        switch value {
        case .object(let members):
            hash.add(UInt64(8))
            addAll(members, to: &hash)
        case .array(let items):
            hash.add(UInt64(7))
            hash.add(items.count)
            for item in items { addAll(item, to: &hash) }
        default:
            hash.add(value)
        }
    }

    /// The variable written as the argument `name` of `node`, if it is one.
    static func variableName(_ name: String, of node: Document.FieldNode) -> String? {
        if case .variable(let variable, _)? = node.arguments.first(where: { $0.name == name })?.value { return variable }
        return nil
    }
}
