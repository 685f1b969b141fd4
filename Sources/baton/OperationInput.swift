import Baton

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
            schema = try Schema.parse(try readText(schemaPath))
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError.failed("\(schemaPath):\(error)")
        }
        do {
            plan = try Plan.build(document: try readText(documentPath), schema: schema, operationName: operationName)
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError.failed("\(documentPath):\(error)")
        }
        var provided: [String: JSONValue] = [:]
        if let variables = arguments.option("variables") {
            let text = variables.hasPrefix("{") ? variables : try readText(variables)
            guard case .object(let object) = try JSONValue.parse(text) else {
                throw CLIError.failed("--variables must be a JSON object (inline or a file)")
            }
            provided = object
        }
        self.variables = plan.variables(provided)
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
