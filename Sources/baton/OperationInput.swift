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
            throw CLIError.input("\(schemaPath):\(error)")
        }
        do {
            plan = try Plan.build(document: try readSource(documentPath), schema: schema, operationName: operationName)
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError.input("\(documentPath):\(error)")
        }
        var provided: [String: JSONValue] = [:]
        if let variables = arguments.option("variables") {
            provided = try Self.variables(variables)
        }
        do {
            self.variables = try plan.variables(provided)
        } catch {
            throw CLIError.input("\(error)")
        }
    }

    /// `--variables`: a JSON object written inline, or the path of a file holding one.
    static func variables(_ argument: String) throws -> [String: JSONValue] {
        let fromFile = FileManager.default.fileExists(atPath: argument)
        let source = fromFile ? argument : "--variables"
        let text: String
        if fromFile {
            text = try readSource(argument)
        } else if let first = argument.first(where: { !$0.isWhitespace }), "{[\"-0123456789tfn".contains(first) {
            text = argument
        } else {
            throw CLIError.usage("--variables takes a JSON object, inline or in a file: there is no file \(argument), and it is not JSON")
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(text)
        } catch {
            let message = "\(source) is not JSON (\(error))"
            throw fromFile ? CLIError.input(message) : CLIError.usage(message)
        }
        guard case .object(let object) = value else {
            let message = "\(source) must hold a JSON object such as {\"id\": \"1\"}, not \(Self.kind(of: value))"
            throw fromFile ? CLIError.input(message) : CLIError.usage(message)
        }
        return object.dictionary
    }

    private static func kind(of value: JSONValue) -> String {
        switch value {
        case .array: "an array"
        case .string: "a string"
        case .int, .double, .decimal: "a number"
        case .bool: "a boolean"
        case .null: "null"
        case .object: "an object"
        }
    }

    /// Ingests the response file at `path` into a change set.
    func changeSet(responsePath path: String) throws -> ChangeSet {
        let bytes = try readFile(path)
        do {
            return try Ingest.normalize(plan: plan, variables: variables, response: bytes)
        } catch {
            throw CLIError.input("\(path): \(error)")
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
        // Members come in the byte order of their names.
        return "{\n" + members.map { member in
            var name = ""
            CanonicalJSON.writeString(member.key, into: &name)
            return inner + name + ": " + prettyJSON(member.value, indent: inner)
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
        throw CLIError.input("\(path): not UTF-8 text (byte \(valid))")
    }
    return text
}
