import Baton
import Foundation

/// The options every command that names an operation shares:
/// `--schema SDL --document GRAPHQL [--operation NAME] [--variables JSON]`.
struct OperationInput {
    let plan: Plan
    let variables: Variables

    init(_ arguments: inout Arguments) throws {
        let schemaPath = try arguments.required("schema")
        let documentPath = try arguments.required("document")
        let operationName = arguments.option("operation")
        let schema: Schema
        do {
            schema = try Schema.parse(try readSource(schemaPath))
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError.failed("\(schemaPath):\(error)")
        }
        do {
            plan = try Plan.build(document: try readSource(documentPath), schema: schema, operationName: operationName)
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError.failed("\(documentPath):\(error)")
        }
        let provided = try arguments.option("variables").map(Self.variables) ?? [:]
        do {
            self.variables = try plan.variables(provided)
        } catch {
            throw CLIError.failed("\(error)")
        }
    }

    /// The object `--variables` gives: inline JSON, or the path of a file holding it.
    ///
    /// Text that starts with `{` or `[` is JSON; otherwise an existing file is read, and anything
    /// else is tried as JSON, so that `--variables 1` says what is wrong with it.
    static func variables(_ option: String) throws -> [String: JSONValue] {
        let trimmed = option.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        var source = "--variables"
        var text = option
        if !(trimmed.hasPrefix("{") || trimmed.hasPrefix("[")), FileManager.default.fileExists(atPath: option) {
            source = "--variables file \(option)"
            text = try readSource(option)
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(text)
        } catch {
            if source == "--variables", !(trimmed.hasPrefix("{") || trimmed.hasPrefix("[")) {
                throw CLIError.failed("--variables: \(option) is neither a file nor JSON")
            }
            throw CLIError.failed("\(source): \(error)")
        }
        guard case .object(let object) = value else {
            throw CLIError.failed("\(source) must be a JSON object of variables, not \(Self.describe(value))")
        }
        return object
    }

    /// A JSON value's kind in words.
    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }

    /// Ingests the response file at `path` into a change set.
    func changeSet(responsePath path: String) throws -> ChangeSet {
        let bytes = try readFile(path)
        do {
            return try Ingest.normalize(plan: plan, variables: variables, response: bytes)
        } catch {
            throw CLIError.failed("\(path): \(error)")
        }
    }
}

/// Renders JSON for people: keys sorted, two-space indentation.
func prettyJSON(_ value: JSONValue, indent: String = "") -> String {
    let inner = indent + "  "
    switch value {
    case .array(let items) where !items.isEmpty:
        return "[\n" + items.map { inner + prettyJSON($0, indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
    case .object(let members) where !members.isEmpty:
        let keys = members.keys.sorted(by: CanonicalJSON.utf8Less)
        return "{\n" + keys.map { key in
            var name = ""
            CanonicalJSON.writeString(key, into: &name)
            return inner + name + ": " + prettyJSON(members[key]!, indent: inner)
        }.joined(separator: ",\n") + "\n" + indent + "}"
    default:
        return CanonicalJSON.render(value)
    }
}

/// Reads a text file that must be UTF-8 (a schema, a document, variables), with an error that
/// names it and the first byte that is not.
func readSource(_ path: String) throws -> String {
    let bytes = try readFile(path)
    guard let text = String(validating: bytes, as: UTF8.self) else {
        var valid = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): valid += UTF8.width(scalar)
            case .emptyInput, .error: break decoding
            }
        }
        throw CLIError.failed("\(path): not UTF-8 text (byte \(valid))")
    }
    return text
}
