import Baton

/// A response the app's real server once sent (saved by the app, a proxy or a test), which a
/// world's seeds deliver now and then among the server's own answers: real shapes and real
/// strings, which the store and the model read each on its own, with no provenance, as they read
/// a garbled response or a replay file's.
///
/// A world folder lists them in `world.json`:
/// `"recorded": [{"operation": "ItemsQuery", "variables": {"first": 20}, "response": "recorded/items.json"}]`,
/// the file's path taken from the folder.
package struct RecordedResponse: Sendable, Hashable {
    /// The operation the response answers.
    package var operation: String
    /// The variables it was sent with.
    package var variables: [String: JSONValue]
    /// Where the text came from (the file as `world.json` names it), for the trace.
    package var source: String
    /// The response as it was received.
    package var text: String
    /// Where the settings list it (`world.json` and the entry's place), for error messages.
    package var listed: (source: String, location: GraphQLLocation)? {
        listedIn.map { ($0, listedAt) }
    }
    private var listedIn: String?
    private var listedAt = GraphQLLocation(line: 1, column: 1)

    package init(operation: String, variables: [String: JSONValue] = [:], source: String, text: String) {
        self.operation = operation
        self.variables = variables
        self.source = source
        self.text = text
    }
}

extension RecordedResponse {
    /// Reads one entry of `world.json`'s `recorded` array; `read` gives a file's text from its
    /// path as written (nil when it cannot be read as UTF-8).
    static func parse(
        _ json: SettingsJSON, settingsSource: String, operationNames: [String], read: (String) -> String?,
        fail: (String, GraphQLLocation?) -> WorldError
    ) throws -> RecordedResponse {
        guard case .object(let members) = json.value else {
            throw fail("expected an object of operation, variables and response, found \(json.kindName)", json.location)
        }
        var operation: String?
        var variables: [String: JSONValue] = [:]
        var file: String?
        for member in members {
            switch member.key {
            case "operation":
                guard case .string(let name) = member.value.value else {
                    throw fail("\"operation\": expected an operation name, found \(member.value.kindName)", member.value.location)
                }
                guard operationNames.contains(name) else { throw fail("the world has no operation \"\(name)\"", member.value.location) }
                operation = name
            case "variables":
                guard case .object = member.value.value, case .object(let object) = jsonValue(member.value) else {
                    throw fail("\"variables\": expected an object, found \(member.value.kindName)", member.value.location)
                }
                variables = object.dictionary
            case "response":
                guard case .string(let path) = member.value.value else {
                    throw fail("\"response\": expected the path of a file, found \(member.value.kindName)", member.value.location)
                }
                file = path
            default:
                throw fail("unknown key \"\(member.key)\" of a recorded response; its keys are operation, variables, response", member.keyLocation)
            }
        }
        guard let operation else { throw fail("a recorded response needs \"operation\"", json.location) }
        guard let file else { throw fail("a recorded response needs \"response\", the path of its file", json.location) }
        guard let text = read(file) else { throw fail("cannot read \(file) (from the world's folder) as UTF-8 text", json.location) }
        var recorded = RecordedResponse(operation: operation, variables: variables, source: file, text: text)
        recorded.listedIn = settingsSource
        recorded.listedAt = json.location
        return recorded
    }

    /// A settings value as JSON (a whole number as an integer).
    private static func jsonValue(_ json: SettingsJSON) -> JSONValue {
        switch json.value {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .number(_, let integer?): .int(integer)
        case .number(let number, nil): .double(number)
        case .string(let text): .string(text)
        case .array(let items): .array(items.map(jsonValue))
        // Of a name given twice (by bytes) the first wins; names that differ only in their
        // Unicode normalization are two members.
        case .object(let members): .object(JSONObject(uniquingNames: members.reversed().map { ($0.key, jsonValue($0.value)) }))
        }
    }

    /// Why the operation's declarations do not take these variables, or nil when they do: a
    /// variable it does not declare, a required one left out or null, or a value that its type
    /// does not take (checked as the specification's input coercion reads it: an `Int` takes a
    /// whole number, a list takes one item as a list of one, an input object its fields).
    func variablesProblem(declared: [Document.VariableDeclaration], schema: Schema) -> String? {
        for name in variables.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        where !declared.contains(where: { $0.name == name }) {
            return "\(operation) declares no variable $\(name)"
        }
        for declaration in declared {
            let value = variables[declaration.name]
            if value == nil || value == .null {
                if case .nonNull = declaration.type, declaration.defaultValue == nil || value == .null {
                    return "$\(declaration.name) of \(operation) is required (\(declaration.type)) and is \(value == nil ? "left out" : "null")"
                }
                continue
            }
            if let problem = Self.problem(value!, declaration.type, schema: schema) {
                return "$\(declaration.name) of \(operation): \(problem)"
            }
        }
        return nil
    }

    private static func problem(_ value: JSONValue, _ type: GraphQLTypeReference, schema: Schema) -> String? {
        switch type {
        case .nonNull(let inner):
            return value == .null ? "null where \(type) is required" : problem(value, inner, schema: schema)
        case .list(let item):
            guard value != .null else { return nil }
            if case .array(let items) = value { return items.lazy.compactMap { problem($0, item, schema: schema) }.first }
            return problem(value, item, schema: schema)
        case .named(let name):
            return named(value, name, schema: schema)
        }
    }

    private static func named(_ value: JSONValue, _ name: String, schema: Schema) -> String? {
        if value == .null { return nil }
        let wrong = "\(CanonicalJSON.render(value)) is no \(name)"
        switch (name, value) {
        case ("Int", .int(let number)): return Int32(exactly: number) == nil ? wrong : nil
        case ("Int", .double(let number)): return Int32(exactly: number) == nil ? wrong : nil
        case ("Float", .int), ("Float", .double), ("String", .string), ("Boolean", .bool), ("ID", .string), ("ID", .int): return nil
        case ("Int", _), ("Float", _), ("String", _), ("Boolean", _), ("ID", _): return wrong
        default: break
        }
        guard let type = schema.type(named: name) else { return "the schema has no type \(name)" }
        switch (type.kind, value) {
        case (.enumeration, .string(let text)):
            return type.enumValues.contains { $0.name == text } ? nil : wrong
        case (.inputObject, .object(let fields)):
            // Names come in their byte order.
            for field in fields.keys where !type.inputFields.contains(where: { $0.name == field }) {
                return "\(name) has no field \(field)"
            }
            for field in type.inputFields {
                let given = fields[field.name]
                if given == nil || given == .null {
                    if case .nonNull = field.type, field.defaultValue == nil || given == .null { return "\(name).\(field.name) is required" }
                    continue
                }
                if let problem = problem(given!, field.type, schema: schema) { return "\(name).\(field.name): \(problem)" }
            }
            return nil
        case (.scalar, _):
            return nil
        default:
            return wrong
        }
    }
}
