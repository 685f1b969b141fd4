/// A small JSON tree for variables, argument values and errors (never for responses: ingest
/// normalizes responses straight from their bytes).
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    /// A number no `Int` or `Double` holds exactly (more digits than a double keeps, or past its
    /// smallest values), as its canonical text: `123456789012345678901234567890`,
    /// `12345678901234567.89`, `1.2345678901234567891e-30` (docs/design.md, "Bad input").
    case decimal(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}
