/// The schema the read-back property generates operations over, as the generator's own model.
///
/// The model is the oracle's view of the schema: the property renders it to SDL for Baton's
/// parser, and generates operations and responses from the model alone, so a misreading of the
/// SDL on Baton's side shows up as a mismatch instead of being copied into the expectations.
///
/// One rule keeps aliases simple: a field name means the same type wherever it appears (the
/// only exception, `id`, is `ID!` on `Node` types and `ID` on `Comment`, which never shares an
/// abstract type with them).
final class GenSchema: Sendable {
    /// The one schema of the property.
    static let shared = GenSchema(GenSchema.builtInScalars.map(GenType.scalar) + GenSchema.definitions)

    /// The scalars every schema has (not written in the SDL).
    static let builtInScalars = ["Int", "Float", "String", "Boolean", "ID"]

    let types: [GenType]
    private let index: [String: Int]
    /// Interface or union → the object types it can be, in definition order.
    private let possible: [String: [String]]

    init(_ types: [GenType]) {
        self.types = types
        var index: [String: Int] = [:]
        for (position, type) in types.enumerated() {
            precondition(index[type.name] == nil, "type \(type.name) defined twice")
            index[type.name] = position
        }
        self.index = index
        var possible: [String: [String]] = [:]
        for type in types {
            switch type.kind {
            case .object:
                possible[type.name] = [type.name]
                for interface in type.interfaces { possible[interface, default: []].append(type.name) }
            case .union:
                possible[type.name] = type.members
            default:
                break
            }
        }
        self.possible = possible
    }

    func type(_ name: String) -> GenType {
        guard let position = index[name] else { preconditionFailure("unknown type \(name)") }
        return types[position]
    }

    func hasType(_ name: String) -> Bool { index[name] != nil }

    /// The field `name` of the object or interface `typeName` (never `__typename`).
    func field(_ name: String, on typeName: String) -> GenField? {
        type(typeName).fields.first { $0.name == name }
    }

    /// The object types a value of `name` can be: itself for an object, the implementations of an
    /// interface, the members of a union.
    func possibleTypes(of name: String) -> [String] {
        possible[name] ?? []
    }

    /// True when an object of type `object` is a value of `name`.
    func isPossible(_ object: String, of name: String) -> Bool {
        possibleTypes(of: name).contains(object)
    }

    /// The composite types (objects, interfaces, unions), in definition order.
    var compositeTypes: [GenType] {
        types.filter { $0.kind == .object || $0.kind == .interface || $0.kind == .union }
    }

    /// The SDL text of the schema.
    var sdl: String {
        var out = ""
        for type in types {
            switch type.kind {
            case .scalar:
                if GenSchema.builtInScalars.contains(type.name) { continue }
                out += "\"\"\"Any JSON object.\"\"\"\nscalar \(type.name)\n"
            case .enumeration:
                out += "enum \(type.name) { \(type.values.joined(separator: " ")) }\n"
            case .union:
                out += "union \(type.name) = \(type.members.joined(separator: " | "))\n"
            case .input:
                out += "input \(type.name) {\n"
                for field in type.inputFields { out += "  \(field.name): \(field.type)\n" }
                out += "}\n"
            case .object, .interface:
                out += type.kind == .object ? "type " : "interface "
                out += type.name
                if !type.interfaces.isEmpty { out += " implements " + type.interfaces.joined(separator: " & ") }
                out += " {\n"
                for field in type.fields {
                    out += "  " + field.name
                    if !field.arguments.isEmpty {
                        out += "(" + field.arguments.map { argument in
                            "\(argument.name): \(argument.type)" + (argument.defaultText.map { " = " + $0 } ?? "")
                        }.joined(separator: ", ") + ")"
                    }
                    out += ": \(field.type)\n"
                }
                out += "}\n"
            }
        }
        return out
    }

    // MARK: The definitions

    static let definitions: [GenType] = [
        .scalar("JSON"),
        .enumeration("Color", ["RED", "GREEN", "BLUE"]),
        .enumeration("Mood", ["HAPPY", "SAD", "SO_SO"]),
        .interface("Node", [field("id", "ID!")]),
        .interface("Named", [field("name", "String")]),
        .interface("Entity", implements: ["Node", "Named"], [field("id", "ID!"), field("name", "String")]),
        .input("Range", [("min", "Int"), ("max", "Int"), ("step", "Float")]),
        .input("Filter", [
            ("text", "String"), ("color", "Color"), ("tags", "[String!]"), ("range", "Range"),
            ("any", "[Filter!]"), ("exact", "Boolean"), ("ids", "[ID]"),
        ]),
        .object("User", implements: ["Node", "Named", "Entity"], [
            field("id", "ID!"),
            field("name", "String"),
            field("age", "Int"),
            field("score", "Float"),
            field("active", "Boolean"),
            field("mood", "Mood"),
            field("meta", "JSON"),
            field("tags", "[String]"),
            field("matrix", "[[Int]]"),
            field("friends", "[User]", ("first", "Int"), ("filter", "Filter")),
            field("best", "Post"),
            field("posts", "[Post!]", ("first", "Int = 10"), ("color", "Color")),
            field("address", "Address"),
            field("avatar", "Photo", ("size", "Int"), ("format", "String")),
            field("feed", "[SearchResult]", ("kinds", "[Color!]"), ("limit", "Int")),
            field("history", "[[Comment]]"),
        ]),
        .object("Post", implements: ["Node"], [
            field("id", "ID!"),
            field("title", "String"),
            field("body", "String", ("format", "String"), ("maxLength", "Int")),
            field("likes", "Int!"),
            field("ratio", "Float"),
            field("tags", "[String]"),
            field("author", "User"),
            field("comments", "[Comment]", ("first", "Int"), ("after", "String")),
            field("related", "[Node]"),
            field("attachments", "[[Photo]]"),
            field("meta", "JSON"),
            field("flags", "[Boolean!]!"),
            field("gallery", "[[Media]!]!"),
        ]),
        .object("Photo", implements: ["Entity", "Named", "Node"], [
            field("id", "ID!"),
            field("name", "String"),
            field("url", "String", ("width", "Int"), ("height", "Int"), ("crop", "Boolean")),
            field("width", "Int"),
            field("ratio", "Float"),
            field("owner", "Node"),
            field("palette", "[Color]"),
            field("exif", "JSON"),
            field("layers", "[JSON]"),
        ]),
        .object("Comment", [
            field("id", "ID"),
            field("text", "String"),
            field("author", "User"),
            field("replies", "[Comment]"),
            field("scores", "[Float]"),
            field("ref", "ID"),
        ]),
        .object("Address", [
            field("street", "String"),
            field("city", "String!"),
            field("geo", "Geo"),
            field("lines", "[String!]!"),
        ]),
        .object("Geo", [
            field("lat", "Float"),
            field("lng", "Float"),
            field("grid", "[[String]]"),
        ]),
        .object("Stats", [
            field("count", "Int"),
            field("ratio", "Float"),
            field("values", "[Float]"),
            field("histogram", "[[Int!]]"),
            field("top", "User"),
            field("extra", "JSON"),
            field("mood", "Mood"),
            field("board", "[[Node]]"),
        ]),
        .union("SearchResult", ["User", "Post", "Photo", "Stats"]),
        .union("Media", ["Photo", "Post"]),
        .object("UpdateUserPayload", [
            field("user", "User"),
            field("ok", "Boolean!"),
            field("changed", "[String]"),
            field("stats", "Stats"),
        ]),
        .object("Query", [
            field("node", "Node", ("id", "ID!")),
            field("user", "User", ("id", "ID!")),
            field("users", "[User]", ("filter", "Filter"), ("first", "Int"), ("ids", "[ID!]")),
            field("search", "[SearchResult]", ("text", "String!"), ("limit", "Int"), ("colors", "[Color]"), ("range", "Range")),
            field("media", "[Media]", ("ids", "[ID]"), ("weights", "[[Float]]")),
            field("stats", "Stats", ("window", "Float"), ("options", "JSON")),
            field("config", "JSON", ("key", "String"), ("options", "JSON")),
            field("numbers", "[[Int]]", ("seed", "Int"), ("grid", "[[Int]]")),
            field("viewer", "User!"),
            field("everything", "Stats",
                  ("i", "Int"), ("f", "Float"), ("s", "String"), ("b", "Boolean"), ("e", "Color"),
                  ("id", "ID"), ("list", "[Int]"), ("obj", "Filter"), ("json", "JSON")),
            field("greeting", "String", ("name", "String = \"world\"")),
        ]),
        .object("Mutation", [
            field("updateUser", "UpdateUserPayload", ("id", "ID!"), ("input", "Filter"), ("clientMutationId", "String")),
            field("like", "Post", ("postId", "ID!"), ("times", "Int = 1")),
            field("touch", "[Node]", ("ids", "[ID!]!")),
        ]),
    ]

    /// A field; an argument's type may carry its default: `("first", "Int = 10")`.
    private static func field(_ name: String, _ type: String, _ arguments: (String, String)...) -> GenField {
        GenField(name: name, type: GenTypeRef(type), arguments: arguments.map { argument in
            let parts = argument.1.split(separator: " = ", maxSplits: 1).map(String.init)
            return GenArgument(name: argument.0, type: GenTypeRef(parts[0]), defaultText: parts.count > 1 ? parts[1] : nil)
        })
    }
}

/// What a named type is.
enum GenKind: Sendable {
    case scalar, enumeration, object, interface, union, input
}

/// One named type of the model.
struct GenType: Sendable {
    let name: String
    let kind: GenKind
    var fields: [GenField] = []
    var interfaces: [String] = []
    var members: [String] = []
    var values: [String] = []
    var inputFields: [GenArgument] = []

    var isComposite: Bool { kind == .object || kind == .interface || kind == .union }
    var isAbstract: Bool { kind == .interface || kind == .union }

    static func scalar(_ name: String) -> GenType { GenType(name: name, kind: .scalar) }
    static func enumeration(_ name: String, _ values: [String]) -> GenType {
        GenType(name: name, kind: .enumeration, values: values)
    }
    static func interface(_ name: String, implements interfaces: [String] = [], _ fields: [GenField]) -> GenType {
        GenType(name: name, kind: .interface, fields: fields, interfaces: interfaces)
    }
    static func union(_ name: String, _ members: [String]) -> GenType {
        GenType(name: name, kind: .union, members: members)
    }
    static func input(_ name: String, _ fields: [(String, String)]) -> GenType {
        GenType(name: name, kind: .input, inputFields: fields.map { GenArgument(name: $0.0, type: GenTypeRef($0.1), defaultText: nil) })
    }
    static func object(_ name: String, implements interfaces: [String] = [], _ fields: [GenField]) -> GenType {
        GenType(name: name, kind: .object, fields: fields, interfaces: interfaces)
    }
}

/// A field of an object or interface.
struct GenField: Sendable {
    let name: String
    let type: GenTypeRef
    let arguments: [GenArgument]
}

/// An argument of a field, or a field of an input object.
struct GenArgument: Sendable {
    let name: String
    let type: GenTypeRef
    /// The schema's default, as SDL text (the generator never relies on it).
    let defaultText: String?
}

/// A type reference: `[[Int!]]!`.
indirect enum GenTypeRef: Hashable, Sendable, CustomStringConvertible {
    case named(String)
    case list(GenTypeRef)
    case nonNull(GenTypeRef)

    /// Parses `Name`, `[T]` and `T!`.
    init(_ text: String) {
        if text.hasSuffix("!") {
            self = .nonNull(GenTypeRef(String(text.dropLast())))
        } else if text.hasPrefix("[") {
            precondition(text.hasSuffix("]"), "bad type \(text)")
            self = .list(GenTypeRef(String(text.dropFirst().dropLast())))
        } else {
            self = .named(text)
        }
    }

    var description: String {
        switch self {
        case .named(let name): name
        case .list(let inner): "[\(inner)]"
        case .nonNull(let inner): "\(inner)!"
        }
    }

    var namedType: String {
        switch self {
        case .named(let name): name
        case .list(let inner), .nonNull(let inner): inner.namedType
        }
    }

    /// How many list wrappers surround the named type.
    var listDepth: Int {
        switch self {
        case .named: 0
        case .list(let inner): 1 + inner.listDepth
        case .nonNull(let inner): inner.listDepth
        }
    }

    var isNonNull: Bool {
        if case .nonNull = self { return true }
        return false
    }

    /// The type without its outer `!`.
    var nullable: GenTypeRef {
        if case .nonNull(let inner) = self { return inner }
        return self
    }
}
