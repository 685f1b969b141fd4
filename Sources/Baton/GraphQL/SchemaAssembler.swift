/// Turns parsed SDL definitions into a ``Schema``: merges extensions, checks references, picks
/// the root types and works out which object types each interface and union can be.
///
/// Checks run in document order, so the error reported for a broken schema is always the same.
struct SchemaAssembler {
    private let document: TypeSystemDocument
    private var types: [String: TypeDefinitionSyntax] = [:]
    /// Defined type names in document order (built-ins excluded).
    private var order: [String] = []
    /// Each type's kind, for the checks (cheaper to look up than whole definitions).
    private var kinds: [String: Schema.TypeKind] = [:]

    init(_ document: TypeSystemDocument) {
        self.document = document
    }

    consuming func assemble() throws -> Schema {
        for name in Schema.builtInScalars {
            types[name] = TypeDefinitionSyntax(kind: .scalar, name: name, description: nil, location: nil, isExtension: false)
        }
        try collectDefinitions()
        try applyExtensions()
        kinds = types.mapValues(\.kind)
        for name in order {
            guard let type = types[name] else { continue }
            try check(type)
        }
        let roots = try rootTypes()
        let directives = try directiveDefinitions()
        let possibleTypes = possibleTypesByAbstractType()
        var named: [String: Schema.NamedType] = [:]
        named.reserveCapacity(types.count)
        for (name, type) in types {
            named[name] = Schema.NamedType(
                name: name, kind: type.kind, description: type.description, fields: type.fields,
                interfaces: Self.unique(type.interfaces), unionMembers: Self.unique(type.unionMembers),
                enumValues: type.enumValues, inputFields: type.inputFields, location: type.location)
        }
        return Schema(
            queryTypeName: roots[.query], mutationTypeName: roots[.mutation],
            subscriptionTypeName: roots[.subscription], types: named, possibleTypes: possibleTypes,
            directives: directives)
    }

    /// The built-in directives and the SDL's, checked: defined once, arguments of input types,
    /// known locations. An SDL definition of a built-in directive is set aside: Baton implements
    /// those itself.
    private func directiveDefinitions() throws -> [String: Schema.DirectiveDefinition] {
        var directives = Schema.builtInDirectives
        var defined: [String: GraphQLLocation] = [:]
        for definition in document.directives {
            if let first = defined[definition.name] {
                throw GraphQLError(
                    "directive \"@\(definition.name)\" is defined more than once (first at \(first))", at: definition.location)
            }
            defined[definition.name] = definition.location
            try checkInputValues(definition.arguments) { "argument \"\($0)\" of @\(definition.name)" }
            var locations: Set<DirectiveLocation> = []
            for place in definition.locations {
                guard let location = DirectiveLocation(rawValue: place.name) else {
                    throw GraphQLError("unknown directive location \"\(place.name)\"", at: place.location)
                }
                locations.insert(location)
            }
            if Schema.builtInDirectives[definition.name] != nil { continue }
            directives[definition.name] = Schema.DirectiveDefinition(
                name: definition.name, arguments: definition.arguments, locations: locations,
                isRepeatable: definition.isRepeatable, location: definition.location)
        }
        return directives
    }

    // MARK: Definitions and extensions

    private mutating func collectDefinitions() throws {
        var redefinedBuiltIns: Set<String> = []
        for definition in document.types where !definition.isExtension {
            if let existing = types[definition.name] {
                // SDL dumps sometimes declare the built-in scalars; accept that once.
                if existing.location == nil, definition.kind == .scalar,
                   redefinedBuiltIns.insert(definition.name).inserted {
                    continue
                }
                let first = existing.location.map { " (first at \($0))" } ?? " (it is built in)"
                throw GraphQLError("type \"\(definition.name)\" is defined more than once\(first)", at: definition.location ?? .start)
            }
            types[definition.name] = definition
            order.append(definition.name)
        }
    }

    private mutating func applyExtensions() throws {
        for extensionSyntax in document.types where extensionSyntax.isExtension {
            let location = extensionSyntax.location ?? .start
            guard var base = types[extensionSyntax.name] else {
                throw GraphQLError("cannot extend type \"\(extensionSyntax.name)\": it is not defined", at: location)
            }
            guard base.kind == extensionSyntax.kind else {
                throw GraphQLError(
                    "cannot extend \(Self.describe(base.kind)) \"\(base.name)\" as \(Self.describe(extensionSyntax.kind))",
                    at: location)
            }
            base.fields += extensionSyntax.fields
            base.interfaces += extensionSyntax.interfaces
            base.unionMembers += extensionSyntax.unionMembers
            base.enumValues += extensionSyntax.enumValues
            base.inputFields += extensionSyntax.inputFields
            types[extensionSyntax.name] = base
        }
    }

    // MARK: Checks

    private func check(_ type: TypeDefinitionSyntax) throws {
        var fieldNames: Set<String> = []
        for field in type.fields {
            let location = field.location ?? .start
            if !fieldNames.insert(field.name).inserted {
                throw GraphQLError("field \"\(type.name).\(field.name)\" is defined more than once", at: location)
            }
            let kind = try resolve(field.type, at: location, for: "field \"\(type.name).\(field.name)\"")
            if kind == .inputObject {
                throw GraphQLError(
                    "field \"\(type.name).\(field.name)\" cannot have the input type \"\(field.type.namedType)\"", at: location)
            }
            try checkInputValues(field.arguments) { "argument \"\($0)\" of \"\(type.name).\(field.name)\"" }
        }
        for interface in type.interfaces {
            guard let kind = kinds[interface.name] else {
                throw GraphQLError("\"\(type.name)\" implements unknown interface \"\(interface.name)\"", at: interface.location)
            }
            guard kind == .interface, interface.name != type.name else {
                throw GraphQLError("\"\(type.name)\" cannot implement \"\(interface.name)\": it is not another interface", at: interface.location)
            }
        }
        for member in type.unionMembers {
            guard let kind = kinds[member.name] else {
                throw GraphQLError("union \"\(type.name)\" has unknown member \"\(member.name)\"", at: member.location)
            }
            guard kind == .object else {
                throw GraphQLError("union \"\(type.name)\" can only have object types as members, not \"\(member.name)\"", at: member.location)
            }
        }
        var valueNames: Set<String> = []
        for value in type.enumValues where !valueNames.insert(value.name).inserted {
            throw GraphQLError("enum value \"\(type.name).\(value.name)\" is defined more than once", at: value.location)
        }
        try checkInputValues(type.inputFields) { "input field \"\(type.name).\($0)\"" }
    }

    /// Arguments or input fields: unique names and input types.
    private func checkInputValues(_ values: [Schema.InputValue], named: (String) -> String) throws {
        var names: Set<String> = []
        for value in values {
            if !names.insert(value.name).inserted {
                throw GraphQLError("\(named(value.name)) is defined more than once", at: value.location)
            }
            let kind = try resolve(value.type, at: value.location, for: named(value.name))
            if !(kind == .scalar || kind == .enumeration || kind == .inputObject) {
                throw GraphQLError(
                    "\(named(value.name)) must have an input type, not \(Self.describe(kind)) \"\(value.type.namedType)\"",
                    at: value.location)
            }
        }
    }

    /// The kind of the type `reference` names; `owner` describes the reference in the error.
    private func resolve(
        _ reference: GraphQLTypeReference, at location: GraphQLLocation, for owner: @autoclosure () -> String
    ) throws -> Schema.TypeKind {
        guard let kind = kinds[reference.namedType] else {
            throw GraphQLError("unknown type \"\(reference.namedType)\" for \(owner())", at: location)
        }
        return kind
    }

    // MARK: Roots and possible types

    /// The root type names: from `schema { … }` and its extensions, else `Query`, `Mutation` and
    /// `Subscription` where those object types exist.
    private func rootTypes() throws -> [OperationKind: String] {
        var roots: [OperationKind: String] = [:]
        var explicit: Set<OperationKind> = []
        var definitions = 0
        for definition in document.schemaDefinitions where !definition.isExtension {
            definitions += 1
            if definitions > 1 { throw GraphQLError("the schema is defined more than once", at: definition.location) }
        }
        if definitions == 0 {
            for (kind, name) in [(OperationKind.query, "Query"), (.mutation, "Mutation"), (.subscription, "Subscription")]
            where types[name]?.kind == .object {
                roots[kind] = name
            }
        }
        let ordered = document.schemaDefinitions.filter { !$0.isExtension } + document.schemaDefinitions.filter(\.isExtension)
        for definition in ordered {
            for root in definition.roots {
                if !explicit.insert(root.kind).inserted {
                    throw GraphQLError("the schema names its \(root.kind.rawValue) type more than once", at: root.type.location)
                }
                guard let type = types[root.type.name] else {
                    throw GraphQLError("unknown \(root.kind.rawValue) type \"\(root.type.name)\"", at: root.type.location)
                }
                guard type.kind == .object else {
                    throw GraphQLError("the \(root.kind.rawValue) type \"\(root.type.name)\" must be an object type", at: root.type.location)
                }
                roots[root.kind] = root.type.name
            }
        }
        return roots
    }

    /// Interface → objects implementing it (directly or through other interfaces); union →
    /// its members; each list sorted by UTF-8 bytes.
    private func possibleTypesByAbstractType() -> [String: [String]] {
        var possible: [String: [String]] = [:]
        var interfacesOfInterface: [String: [String]] = [:]
        for name in order {
            if let type = types[name], type.kind == .interface {
                interfacesOfInterface[name] = type.interfaces.map(\.name)
            }
        }
        for name in order {
            guard let type = types[name] else { continue }
            switch type.kind {
            case .object:
                var visited: Set<String> = []
                var pending = type.interfaces.map(\.name)
                while let interface = pending.popLast() {
                    guard visited.insert(interface).inserted else { continue }
                    possible[interface, default: []].append(name)
                    pending += interfacesOfInterface[interface] ?? []
                }
            case .union:
                possible[name] = Self.unique(type.unionMembers)
            default:
                break
            }
        }
        for (name, list) in possible {
            possible[name] = list.sorted(by: CanonicalJSON.utf8Less)
        }
        return possible
    }

    // MARK: Helpers

    private static func unique(_ references: [NameReference]) -> [String] {
        var seen: Set<String> = []
        return references.compactMap { seen.insert($0.name).inserted ? $0.name : nil }
    }

    static func describe(_ kind: Schema.TypeKind) -> String {
        switch kind {
        case .scalar: "scalar"
        case .object: "object type"
        case .interface: "interface"
        case .union: "union"
        case .enumeration: "enum"
        case .inputObject: "input object"
        }
    }
}
