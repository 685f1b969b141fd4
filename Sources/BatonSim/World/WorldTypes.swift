import Baton

/// Facts about a schema's types that the server needs and the parser does not say: which object
/// types are entities, which are connections, and small helpers over type references.
package enum WorldTypes {
    /// Whether an entity's id may be `null`.
    package enum IDKind: Sendable, Hashable {
        /// `id: ID!`: every instance has an id.
        case required
        /// `id: ID`: some instances have none, and the store keys those by path.
        case optional
    }

    /// The id kind of `typeName`, when it is an object type whose `id` field is an `ID`, a `String`,
    /// a custom scalar or an enum (not a list); `nil` for any other type.
    package static func idKind(of typeName: String, in schema: Schema) -> IDKind? {
        guard let type = schema.type(named: typeName), type.kind == .object, let id = type.field(named: "id") else { return nil }
        guard isEntityID(id.type, in: schema) || enumIDs(of: typeName, in: schema) != nil else { return nil }
        return id.type.isNonNull ? .required : .optional
    }

    /// The only ids `typeName`'s objects can have when its `id` is an enum (`id: IconId!`, as apps
    /// key a fixed set of icons or categories), in the enum's order; `nil` for any other id.
    package static func enumIDs(of typeName: String, in schema: Schema) -> [String]? {
        guard let type = schema.type(named: typeName), type.kind == .object, let id = type.field(named: "id"),
            id.type.listDepth == 0, let idType = schema.type(named: id.type.namedType), idType.kind == .enumeration
        else { return nil }
        return idType.enumValues.map(\.name)
    }

    /// Why the server cannot key `typeName`'s objects, when it has an `id` field of another type.
    static func unservableID(of typeName: String, in schema: Schema) -> String? {
        guard let type = schema.type(named: typeName), type.kind == .object, let id = type.field(named: "id") else { return nil }
        if idKind(of: typeName, in: schema) != nil { return nil }
        return "\"\(typeName).id\" is \"\(id.type)\": the server keys objects by an id of type ID, String, Int, a custom scalar or an enum"
    }

    /// What an entity's `id`, or an argument that looks an entity up, may be: ``isIDLike(_:in:)``,
    /// or an `Int` (`id: Int!`, as Postgres-backed APIs such as Hasura key rows), written as a
    /// JSON number.
    /// The entity type a name of an id names: `userId`, `pullRequestID` or `userIds` name `User`
    /// and `PullRequest` when those are entity types; with a verb first (`deletedTodoId`,
    /// `removedTodoIds`, `destroyedTodoId`, as deletion payloads name their ids) the type after it.
    package static func entityNamed(byIDName name: String, in schema: Schema) -> String? {
        var stem = Substring(name)
        guard let suffix = ["Ids", "IDs", "Id", "ID"].first(where: { stem.hasSuffix($0) }) else { return nil }
        stem = stem.dropLast(suffix.count)
        if let verb = ["deleted", "removed", "destroyed"].first(where: { stem.hasPrefix($0) && stem.count > $0.count }) {
            stem = stem.dropFirst(verb.count)
        }
        guard let first = stem.first else { return nil }
        let type = first.uppercased() + stem.dropFirst()
        return idKind(of: type, in: schema) != nil ? type : nil
    }

    package static func isEntityID(_ reference: GraphQLTypeReference, in schema: Schema) -> Bool {
        isIDLike(reference, in: schema) || isIntID(reference)
    }

    /// An `Int`, nullable or not, never a list.
    package static func isIntID(_ reference: GraphQLTypeReference) -> Bool {
        reference.listDepth == 0 && reference.namedType == "Int"
    }

    /// `ID`, `String` or a custom scalar (ids such as `ItemId!` are custom scalars served as
    /// strings), nullable or not, never a list.
    static func isIDLike(_ reference: GraphQLTypeReference, in schema: Schema) -> Bool {
        guard reference.listDepth == 0 else { return false }
        let name = reference.namedType
        if name == "ID" || name == "String" { return true }
        return schema.type(named: name)?.kind == .scalar && !Schema.builtInScalars.contains(name)
    }

    /// The reference without its outermost `!`.
    static func nullable(_ reference: GraphQLTypeReference) -> GraphQLTypeReference {
        if case .nonNull(let inner) = reference { return inner }
        return reference
    }

    /// The object types among `typeName`'s possible types that are entities, sorted.
    package static func entityTypes(of typeName: String, in schema: Schema) -> [String] {
        schema.possibleTypes(of: typeName).filter { idKind(of: $0, in: schema) != nil }
    }
}

/// A type shaped as a Relay connection: `edges { node }` (with `cursor` when the edge type has
/// one) or a `nodes` list, or both, and `pageInfo` with `endCursor` or `startCursor` (a
/// forward-only or backward-only connection has one of them), `hasNextPage` and
/// `hasPreviousPage` where the type has them. The store joins pages at `pageInfo`'s cursors,
/// never the edges', so a connection whose edges carry no cursor, or that has no edges, still
/// pages.
package struct ConnectionShape: Sendable, Hashable {
    /// The connection type (`NoteConnection`).
    package let typeName: String
    /// The type of an item of `edges` (`NoteEdge`); `nil` for a connection with `nodes` only.
    package let edgeType: String?
    /// The named type of an edge's `node` (or of an item of `nodes`), which may be an interface
    /// or a union.
    package let nodeType: String
    /// The type of `pageInfo`.
    package let pageInfoType: String

    /// The arguments that page through a connection rather than choose its list.
    package static let pagingArguments: Set<String> = ["after", "before", "first", "last"]

    /// The shape of `typeName`, or `nil` when it is not a connection.
    package static func detect(_ typeName: String, in schema: Schema) -> ConnectionShape? {
        guard let type = schema.type(named: typeName), type.kind == .object,
            let pageInfo = type.field(named: "pageInfo"), pageInfo.type.listDepth == 0,
            let info = schema.type(named: pageInfo.type.namedType), info.kind == .object
        else { return nil }
        let cursors = ["startCursor", "endCursor"].compactMap { info.field(named: $0) }
        guard !cursors.isEmpty, cursors.allSatisfy({ WorldTypes.isIDLike($0.type, in: schema) }) else { return nil }
        for name in ["hasNextPage", "hasPreviousPage"] {
            guard let field = info.field(named: name) else { continue }
            guard field.type.listDepth == 0, field.type.namedType == "Boolean" else { return nil }
        }
        if let edgeShape = edges(of: type, in: schema) {
            return ConnectionShape(typeName: typeName, edgeType: edgeShape.edge, nodeType: edgeShape.node, pageInfoType: info.name)
        }
        guard let nodes = type.field(named: "nodes"), nodes.type.listDepth == 1,
            schema.type(named: nodes.type.namedType)?.isComposite == true
        else { return nil }
        return ConnectionShape(typeName: typeName, edgeType: nil, nodeType: nodes.type.namedType, pageInfoType: info.name)
    }

    /// The edge type and its node's type, when `type` has `edges` of objects with a composite
    /// `node` (and a cursor-like `cursor` if any).
    private static func edges(of type: Schema.NamedType, in schema: Schema) -> (edge: String, node: String)? {
        guard let edges = type.field(named: "edges"), edges.type.listDepth == 1,
            let edge = schema.type(named: edges.type.namedType), edge.kind == .object,
            edge.field(named: "cursor").map({ WorldTypes.isIDLike($0.type, in: schema) }) ?? true,
            let node = edge.field(named: "node"), node.type.listDepth == 0,
            schema.type(named: node.type.namedType)?.isComposite == true
        else { return nil }
        return (edge.name, node.type.namedType)
    }
}

/// Walks an operation's selections through fragments and inline fragments, ignoring
/// `@include`/`@skip`: every field that could be executed, with the type it is selected on.
enum SelectionWalk {
    /// The fields of `selections` on `parent`, in document order, through fragments (a fragment
    /// spread inside itself is skipped, so a cycle cannot loop).
    static func fields(
        _ selections: [Document.SelectionNode], on parent: String, fragments: [String: Document.Fragment]
    ) -> [(field: Document.FieldNode, parent: String)] {
        var result: [(field: Document.FieldNode, parent: String)] = []
        var entered: Set<String> = []
        collect(selections, on: parent, fragments: fragments, entered: &entered, into: &result)
        return result
    }

    private static func collect(
        _ selections: [Document.SelectionNode], on parent: String, fragments: [String: Document.Fragment],
        entered: inout Set<String>, into result: inout [(field: Document.FieldNode, parent: String)]
    ) {
        for selection in selections {
            switch selection {
            case .field(let field):
                result.append((field, parent))
            case .inlineFragment(let inline):
                collect(inline.selections, on: inline.typeCondition ?? parent, fragments: fragments, entered: &entered, into: &result)
            case .fragmentSpread(let spread):
                guard let fragment = fragments[spread.name], entered.insert(spread.name).inserted else { continue }
                collect(fragment.selections, on: fragment.typeCondition, fragments: fragments, entered: &entered, into: &result)
                entered.remove(spread.name)
            }
        }
    }
}
