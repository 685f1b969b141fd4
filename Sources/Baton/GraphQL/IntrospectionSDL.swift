/// Turns an introspection result (a server's answer to the introspection query, as Apollo's and
/// Relay's tools save it in `schema.json`) into SDL, so a schema may be given either way.
///
/// Reads `{"data": {"__schema": …}}` or `{"__schema": …}`: the root types, every type but the
/// introspection types (`__Type`, …) and the built-in scalars, with their fields, arguments and
/// defaults, interfaces, union members, enum values and input fields, and the directives.
/// Descriptions and deprecations are left out: nothing Baton does reads them. Every name is
/// checked to be a GraphQL name, so the text cannot say more than the result does.
enum IntrospectionSDL {
    /// Whether `text` is JSON rather than SDL: SDL never starts with `{` (a definition starts with
    /// a keyword, a description or a comment).
    static func isJSON(_ text: String) -> Bool {
        text.utf8.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "{")
    }

    /// The SDL of the introspection result `text`.
    ///
    /// - Throws: ``GraphQLError`` at 1:1 saying what the result lacks or holds wrongly.
    static func sdl(from text: String) throws -> String {
        let json: JSONValue
        do {
            json = try JSONValue.parse(text)
        } catch {
            throw failure("the file starts with { but is no JSON: \(error)")
        }
        guard case .object(let top) = json else { throw failure("expected an object") }
        var root = top
        if case .object(let data)? = top["data"] { root = data }
        guard case .object(let schema)? = root["__schema"] else {
            throw failure("expected __schema (or data.__schema), the answer to the introspection query")
        }
        var lines: [String] = []
        var roots: [String] = []
        for (member, keyword) in [("queryType", "query"), ("mutationType", "mutation"), ("subscriptionType", "subscription")] {
            guard case .object(let type)? = schema[member] else { continue }
            roots.append("  \(keyword): \(try name(type["name"], "\(member).name"))")
        }
        if !roots.isEmpty { lines.append("schema {\n" + roots.joined(separator: "\n") + "\n}") }
        guard case .array(let types)? = schema["types"] else { throw failure("expected __schema.types, an array") }
        for entry in types {
            guard case .object(let type) = entry else { throw failure("expected each of __schema.types to be an object") }
            let typeName = try name(type["name"], "a type's name")
            if typeName.hasPrefix("__") || ["Int", "Float", "String", "Boolean", "ID"].contains(typeName) { continue }
            lines.append(try definition(type, typeName))
        }
        if case .array(let directives)? = schema["directives"] {
            for entry in directives {
                guard case .object(let directive) = entry else { throw failure("expected each directive to be an object") }
                let directiveName = try name(directive["name"], "a directive's name")
                guard case .array(let locations)? = directive["locations"] else {
                    throw failure("directive @\(directiveName) has no locations")
                }
                let spelled = try locations.map { try name($0, "a location of @\(directiveName)") }
                let repeatable = directive["isRepeatable"] == .bool(true) ? " repeatable" : ""
                lines.append("directive @\(directiveName)\(try arguments(directive["args"], of: "@" + directiveName))\(repeatable) on "
                    + spelled.joined(separator: " | "))
            }
        }
        return lines.joined(separator: "\n\n") + "\n"
    }

    /// One type's definition, by its kind.
    private static func definition(_ type: JSONObject, _ typeName: String) throws -> String {
        guard case .string(let kind)? = type["kind"] else { throw failure("type \(typeName) has no kind") }
        switch kind {
        case "SCALAR":
            return "scalar \(typeName)"
        case "OBJECT", "INTERFACE":
            let keyword = kind == "OBJECT" ? "type" : "interface"
            let interfaces = try names(type["interfaces"], of: typeName)
            let implements = interfaces.isEmpty ? "" : " implements " + interfaces.joined(separator: " & ")
            guard case .array(let fields)? = type["fields"], !fields.isEmpty else {
                throw failure("\(keyword) \(typeName) has no fields")
            }
            let lines = try fields.map { entry -> String in
                guard case .object(let field) = entry else { throw failure("expected the fields of \(typeName) to be objects") }
                let fieldName = try name(field["name"], "a field of \(typeName)")
                return "  \(fieldName)\(try arguments(field["args"], of: "\(typeName).\(fieldName)")): \(try reference(field["type"], "\(typeName).\(fieldName)"))"
            }
            return "\(keyword) \(typeName)\(implements) {\n" + lines.joined(separator: "\n") + "\n}"
        case "UNION":
            let members = try names(type["possibleTypes"], of: typeName)
            guard !members.isEmpty else { throw failure("union \(typeName) has no possible types") }
            return "union \(typeName) = " + members.joined(separator: " | ")
        case "ENUM":
            guard case .array(let values)? = type["enumValues"], !values.isEmpty else { throw failure("enum \(typeName) has no values") }
            let spelled = try values.map { entry -> String in
                guard case .object(let value) = entry else { throw failure("expected the values of \(typeName) to be objects") }
                return try name(value["name"], "a value of \(typeName)")
            }
            return "enum \(typeName) {\n" + spelled.map { "  " + $0 }.joined(separator: "\n") + "\n}"
        case "INPUT_OBJECT":
            guard case .array(let fields)? = type["inputFields"], !fields.isEmpty else {
                throw failure("input \(typeName) has no fields")
            }
            let lines = try fields.map { "  " + (try inputValue($0, of: typeName)) }
            return "input \(typeName) {\n" + lines.joined(separator: "\n") + "\n}"
        default:
            throw failure("type \(typeName) is of an unknown kind \(kind)")
        }
    }

    /// `(a: Int = 1, b: String)`, or nothing when there are no arguments.
    private static func arguments(_ json: JSONValue?, of owner: String) throws -> String {
        guard case .array(let arguments)? = json, !arguments.isEmpty else { return "" }
        return "(" + (try arguments.map { try inputValue($0, of: owner) }).joined(separator: ", ") + ")"
    }

    /// `name: Type` with ` = default` when the result gives one (a GraphQL literal as text).
    private static func inputValue(_ json: JSONValue, of owner: String) throws -> String {
        guard case .object(let value) = json else { throw failure("expected the arguments and input fields of \(owner) to be objects") }
        let valueName = try name(value["name"], "an argument or input field of \(owner)")
        var spelled = "\(valueName): \(try reference(value["type"], "\(owner).\(valueName)"))"
        if case .string(let literal)? = value["defaultValue"] { spelled += " = " + literal }
        return spelled
    }

    /// A type reference: `{"kind": "NON_NULL", "ofType": …}` as `T!`, `LIST` as `[T]`, else the name.
    private static func reference(_ json: JSONValue?, _ owner: String, depth: Int = 0) throws -> String {
        guard depth < 32, case .object(let type)? = json, case .string(let kind)? = type["kind"] else {
            throw failure("\(owner) has no type")
        }
        switch kind {
        case "NON_NULL": return try reference(type["ofType"], owner, depth: depth + 1) + "!"
        case "LIST": return "[" + (try reference(type["ofType"], owner, depth: depth + 1)) + "]"
        default: return try name(type["name"], "the type of \(owner)")
        }
    }

    /// The names of a list of type references (interfaces, possible types).
    private static func names(_ json: JSONValue?, of owner: String) throws -> [String] {
        guard case .array(let items)? = json else { return [] }
        return try items.map { item in
            guard case .object(let type) = item else { throw failure("expected the types \(owner) names to be objects") }
            return try name(type["name"], "a type \(owner) names")
        }
    }

    /// A GraphQL name, or an error naming what it was meant to be.
    private static func name(_ json: JSONValue?, _ what: String) throws -> String {
        guard case .string(let text)? = json, Lexer.isName(text) else {
            throw failure("\(what) is no GraphQL name")
        }
        return text
    }

    private static func failure(_ message: String) -> GraphQLError {
        GraphQLError("introspection result: " + message, at: .start)
    }
}
