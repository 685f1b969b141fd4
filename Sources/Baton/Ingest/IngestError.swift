/// One step of a response path: a member name or a list index.
public enum ResponsePathComponent: Hashable, Sendable, CustomStringConvertible {
    case key(String)
    case index(Int)

    public var description: String {
        switch self {
        case .key(let key): key
        case .index(let index): String(index)
        }
    }

    /// A path dotted as GraphQL clients print it: `characters.results.3.name`.
    public static func dotted(_ path: [ResponsePathComponent]) -> String {
        path.map(\.description).joined(separator: ".")
    }
}

/// Why a response could not be normalized, with where: the response path and the byte offset.
public struct IngestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public enum Kind: Hashable, Sendable {
        /// The bytes are not strict JSON.
        case malformedJSON(JSONError)
        /// The response is not a JSON object.
        case notAnObject
        /// The response has neither `data` nor any `errors`.
        case noData
        /// A value of the wrong JSON type for its field (`expected` says what the field takes).
        case wrongType(expected: String, found: String)
        /// An object whose selection asks for `id` lacks the member.
        case missingID
        /// An object of an interface or union type lacks `__typename`.
        case missingTypename(abstractType: String)
        /// `__typename` names another type than the schema's object type for the field.
        case typenameMismatch(expected: String, found: String)
        /// A `__typename` that is no GraphQL name (letters, digits and `_`, ASCII only), so no
        /// server's type: `\u212Aind`, whose Kelvin sign Swift's `==` takes for a `K`, is not `Kind`.
        case typenameNotAName(String)
        /// A member name given twice in one object of the response (a GraphQL response is a map).
        case duplicateMember(String)
        /// Null where the schema's type (`type`, such as `String!`) allows none, and no error in
        /// `errors` names the place or a place under it.
        case nullInNonNullPosition(type: String)
        /// The variables do not fit the operation's declarations.
        case invalidVariables(VariableError)
    }

    public let kind: Kind
    /// The response path inside `data` (as GraphQL paths go), empty at the top of the response.
    public internal(set) var path: [ResponsePathComponent]
    /// The byte offset in the response where the problem was met.
    public let offset: Int

    init(_ kind: Kind, path: [ResponsePathComponent] = [], offset: Int) {
        self.kind = kind
        self.path = path
        self.offset = offset
    }

    /// The path dotted: `characters.results.3.name`.
    public var dottedPath: String { ResponsePathComponent.dotted(path) }

    /// What went wrong, in words, without the location.
    public var message: String {
        switch kind {
        case .malformedJSON(let error): "malformed JSON: \(error)"
        case .notAnObject: "the response is not a JSON object"
        case .noData: "the response has neither data nor errors"
        case .wrongType(let expected, let found): "expected \(expected), found \(found)"
        case .missingID: "missing required id"
        case .missingTypename(let type): "missing __typename for abstract type \(type)"
        case .typenameMismatch(let expected, let found):
            "__typename \(JSONError.quote(found, asciiOnly: true)) contradicts the schema's type \(expected)"
        case .typenameNotAName(let found): "__typename \(JSONError.quote(found, asciiOnly: true)) is not a GraphQL name"
        case .duplicateMember(let name): "member \(JSONError.quote(name)) is given more than once in one object"
        case .nullInNonNullPosition(let type):
            "null where the type \(type) allows none, and no error in errors names this place"
        case .invalidVariables(let error): "the variables do not fit the operation: \(error)"
        }
    }

    public var description: String {
        let place = path.isEmpty ? "the top of the response" : "path \(dottedPath)"
        if case .malformedJSON = kind { return "\(message), at \(place)" }
        return "\(message) at \(place) (byte \(offset))"
    }
}
