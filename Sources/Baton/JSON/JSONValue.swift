/// A small JSON tree for variables, argument values and errors (never for responses: ingest
/// normalizes responses straight from their bytes).
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}
