/// A GraphQL schema parsed from SDL: its types, their fields, its directives, and the root
/// operation types.
///
/// Immutable once built. It answers what plan building needs: a type's kind, a field's type
/// (named type, list depth, non-null), the object types an interface or union can be, and the
/// root type of each operation kind. The built-in scalars (`Int`, `Float`, `String`, `Boolean`,
/// `ID`) are always present, and every object, interface and union has the `__typename` field.
public final class Schema: Sendable {
    /// The root type of queries (`Query` unless a `schema { … }` block says otherwise).
    public let queryTypeName: String?
    public let mutationTypeName: String?
    public let subscriptionTypeName: String?
    /// Every type's name, built-ins included, sorted by UTF-8 bytes.
    public let typeNames: [String]
    private let types: [String: NamedType]
    private let possibleTypeLists: [String: [String]]
    private let possibleTypeSets: [String: Set<String>]
    private let directives: [String: DirectiveDefinition]

    init(
        queryTypeName: String?, mutationTypeName: String?, subscriptionTypeName: String?,
        types: [String: NamedType], possibleTypes: [String: [String]], directives: [String: DirectiveDefinition]
    ) {
        self.queryTypeName = queryTypeName
        self.mutationTypeName = mutationTypeName
        self.subscriptionTypeName = subscriptionTypeName
        self.types = types
        self.directives = directives
        self.typeNames = types.keys.sorted(by: CanonicalJSON.utf8Less)
        self.possibleTypeLists = possibleTypes
        self.possibleTypeSets = possibleTypes.mapValues { Set($0) }
    }

    /// Parses SDL: type, interface, union, enum, scalar, input, schema and directive definitions,
    /// descriptions and extensions; then checks that every referenced type exists and fits.
    /// Directives applied to type system definitions are read and ignored.
    ///
    /// - Throws: ``GraphQLError`` with the line and column of the first problem.
    public static func parse(_ sdl: String) throws -> Schema {
        // An introspection result (`schema.json`) is read as the SDL it describes.
        if IntrospectionSDL.isJSON(sdl) { return try parse(introspection: sdl) }
        var parser = try Parser(sdl)
        let definitions = try parser.parseTypeSystemDocument()
        return try SchemaAssembler(definitions).assemble()
    }

    /// `text` as SDL: itself, or the SDL an introspection result describes (for a reader that
    /// adds SDL of its own to a schema given either way).
    ///
    /// - Throws: ``GraphQLError`` at 1:1 when `text` is an introspection result that cannot be read.
    package static func sdlText(_ text: String) throws -> String {
        IntrospectionSDL.isJSON(text) ? try IntrospectionSDL.sdl(from: text) : text
    }

    /// Reads an introspection result through the SDL it describes; a problem in that SDL (a
    /// type it names and does not define, say) is reported as the result's.
    private static func parse(introspection text: String) throws -> Schema {
        let sdl = try IntrospectionSDL.sdl(from: text)
        do {
            return try parse(sdl)
        } catch let error as GraphQLError {
            throw GraphQLError("introspection result: the schema it describes does not hold together: \(error.message)", at: .start)
        }
    }

    /// The root type's name for operations of `kind`, if the schema has one.
    public func rootTypeName(for kind: OperationKind) -> String? {
        switch kind {
        case .query: queryTypeName
        case .mutation: mutationTypeName
        case .subscription: subscriptionTypeName
        }
    }

    /// The type called `name`.
    public func type(named name: String) -> NamedType? {
        types[name]
    }

    /// The directive called `name` (without its `@`): built in, or defined by the SDL.
    public func directive(named name: String) -> DirectiveDefinition? {
        directives[name]
    }

    /// The field `name` of the object or interface `typeName`; `__typename` on any composite type.
    public func field(_ name: String, on typeName: String) -> Field? {
        guard let type = types[typeName] else { return nil }
        if name == Field.typename.name { return type.isComposite ? Field.typename : nil }
        return type.field(named: name)
    }

    /// The object types a value of type `name` can have, sorted: an object type is itself, an
    /// interface its implementing objects, a union its members; empty for other types.
    public func possibleTypes(of name: String) -> [String] {
        guard let type = types[name] else { return [] }
        switch type.kind {
        case .object: return [name]
        case .interface, .union: return possibleTypeLists[name] ?? []
        default: return []
        }
    }

    /// ``possibleTypes(of:)`` as a set.
    public func possibleTypeSet(of name: String) -> Set<String> {
        guard let type = types[name] else { return [] }
        switch type.kind {
        case .object: return [name]
        case .interface, .union: return possibleTypeSets[name] ?? []
        default: return []
        }
    }

    /// True when an object of type `objectType` is a value of type `name`.
    public func isPossibleType(_ objectType: String, of name: String) -> Bool {
        guard let type = types[name] else { return false }
        switch type.kind {
        case .object: return objectType == name
        case .interface, .union: return possibleTypeSets[name]?.contains(objectType) ?? false
        default: return false
        }
    }

    /// The plan's facts about a type reference, or `nil` when its named type is unknown.
    public func fieldType(of reference: GraphQLTypeReference) -> FieldType? {
        let name = reference.namedType
        guard let type = types[name] else { return nil }
        let kind: FieldType.Kind
        switch type.kind {
        case .scalar:
            switch name {
            case "Int": kind = .int
            case "Float": kind = .float
            case "String": kind = .string
            case "Boolean": kind = .boolean
            case "ID": kind = .id
            default: kind = .customScalar
            }
        case .enumeration: kind = .enumeration
        case .object: kind = .object
        case .interface, .union: kind = .abstract
        case .inputObject: return nil
        }
        return FieldType(
            namedType: name, kind: kind, listDepth: reference.listDepth,
            nonNullLevels: Self.nonNullLevels(of: reference))
    }

    /// Bit `i` set when level `i` of `reference` is non-null (level 0 the outermost).
    static func nonNullLevels(of reference: GraphQLTypeReference) -> UInt64 {
        var levels: UInt64 = 0
        var level = 0
        var current = reference
        while true {
            switch current {
            case .nonNull(let inner):
                if level < 64 { levels |= 1 << UInt64(level) }
                current = inner
            case .list(let inner):
                level += 1
                current = inner
            case .named:
                return levels
            }
        }
    }

    /// The names of the built-in scalars.
    public static let builtInScalars = ["Boolean", "Float", "ID", "Int", "String"]
}
