import Baton

/// How the server answers one root field of a mutation, interpreted from the schema and the
/// document alone: which argument names the object, which fields it sets, which it renews, and
/// whether it deletes the object.
///
/// The rules: the field's `id` argument (or the `id` of an input-object argument) names an entity,
/// or its `ids` argument, a list of ids, names several (a bulk edit: each gets the same edit), or
/// an argument or input field named after the edited type's id (`issueId` for an `Issue`); a
/// field with none creates an entity of the one type its payload returns (`addNote(text:)`);
/// its type is the `typename:` of a payload field carrying `@deleteRecord`, else the field's own
/// type when that is an entity, else the one entity type the payload selects, at the nearest depth
/// that selects any, through objects without ids (`addComment { commentEdge { node { id } } }`:
/// the edge is a carrier, answered as part of the payload, its `node` the entity); of several
/// there, the one an argument is named after (`noteId`), else the one the field's name holds
/// (`createCommitOnBranch { commit ref }` edits the `Commit`). Fields the payload
/// selects on that entity get a new version; an argument (or a field of the id's input object)
/// named like a scalar field of the entity, and of its type, sets it; `@deleteRecord` deletes the
/// entity. A field whose payload selects no entity at all, no `@deleteRecord` and no deletion by
/// name edits nothing (``answersOnly``): the server answers new values of its own.
package struct MutationEdit: Sendable, Hashable {
    /// An argument that sets a field of the edited entity.
    package struct Setter: Sendable, Hashable {
        /// The argument's name, then the input field's name when it sits in an input object.
        package let argumentPath: [String]
        /// The entity's field it sets.
        package let field: String

        package init(argumentPath: [String], field: String) {
            self.argumentPath = argumentPath
            self.field = field
        }
    }

    /// The schema name of the mutation field.
    package let field: String
    /// Where the id is: `["id"]`, `["ids"]` for a list of them, or `["input", "id"]` for an input
    /// object's field; empty when the mutation creates the entity.
    package let idArgument: [String]
    /// True when the mutation names no entity but creates one (no `id` or `ids` argument, nor an
    /// input object with an `id`): the server makes a new entity of ``targetType``, sets what the
    /// arguments (and the fields of input-object arguments) name, and answers it.
    package var creates: Bool { idArgument.isEmpty && !picksTarget && !answersOnly }
    /// True for a subscription's event that deletes without naming an object
    /// (`issueRemoved { removedId @deleteRecord }`): the server deletes one of its living entities
    /// of ``targetType``, drawn from the seed, and the payload says which.
    package let picksTarget: Bool
    /// True when the id argument is a list of ids (`ids: [ID!]!`): every entity it names gets the
    /// edit, and a `@deleteRecord` payload field lists the ids of those it deleted.
    package let many: Bool
    /// The entity type the id names: an object type, or an interface or union the payload
    /// returns (`addStar { starrable }`), whose keyed object types are ``targetTypes``.
    package let targetType: String
    /// The object types with ids an edited entity can be: ``targetType`` itself when it is an
    /// object type.
    package let targetTypes: [String]
    /// Arguments that set fields, sorted by field name.
    package let setters: [Setter]
    /// The fields of the entity the payload selects (`id` and `__typename` aside), sorted: each gets
    /// a new version.
    package let renewedFields: [String]
    /// True when a payload field carries `@deleteRecord`: the entity is deleted.
    package let deletes: Bool
    /// The object types without ids the payload passes through to reach the entity (an edge
    /// type, sorted by name): the server answers a field of one of them as part of the payload.
    package let carriers: [String]
    /// True when the payload selects nothing the client keys (no entity at any depth, no
    /// `@deleteRecord`, and the field's name names no deletion): the server edits nothing and
    /// answers new values of its own at each execution (``targetType`` is empty then).
    package var answersOnly = false

    /// The edits of every root field `operation` selects, by response key. A subscription's event
    /// is read as a mutation's answer: the server makes the change the event reports (edits the
    /// object its id argument names, creates one, or deletes it), then pushes the payload.
    ///
    /// - Throws: ``WorldError`` at the mutation or subscription field the server cannot interpret.
    static func interpret(_ operation: WorldOperation, schema: Schema) throws -> [String: MutationEdit] {
        guard operation.kind == .mutation || operation.kind == .subscription, let root = schema.rootTypeName(for: operation.kind)
        else { return [:] }
        var edits: [String: MutationEdit] = [:]
        for (node, parent) in SelectionWalk.fields(operation.syntax.selections, on: root, fragments: operation.fragments)
        where node.name != "__typename" {
            guard let definition = schema.field(node.name, on: parent), edits[node.responseKey] == nil else { continue }
            edits[node.responseKey] = try interpret(
                node, definition: definition, root: parent, fragments: operation.fragments, schema: schema,
                source: operation.source, kind: operation.kind.rawValue)
        }
        return edits
    }

    private static func interpret(
        _ node: Document.FieldNode, definition: Schema.Field, root: String, fragments: [String: Document.Fragment],
        schema: Schema, source: String, kind: String
    ) throws -> MutationEdit {
        let label = "\(root).\(node.name)"
        func fail(_ message: String, at location: GraphQLLocation? = nil) -> WorldError {
            WorldError("\(kind) field \"\(label)\" \(message)", source: source, at: location ?? node.location)
        }
        var (idArgument, many) = idArgument(of: definition, schema: schema) ?? ([], false)
        let payload = node.selections ?? []
        let payloadType = definition.type.namedType
        let payloadFields = SelectionWalk.fields(payload, on: payloadType, fragments: fragments)

        var deleteTypes: [String] = []
        var deletes = false
        forEachField(payload, on: payloadType, fragments: fragments) { field in
            guard let directive = field.directives.first(where: { $0.name == "deleteRecord" }) else { return }
            deletes = true
            if case .string(let typename)? = directive.argument("typename")?.value {
                if !deleteTypes.contains(typename) { deleteTypes.append(typename) }
            } else if let named = WorldTypes.entityNamed(byIDName: field.name, in: schema), !deleteTypes.contains(named) {
                // Relay's `deletedTodoId @deleteRecord`: the field's name says what it deletes (the
                // store reads the value as a record key, and the server answers one).
                deleteTypes.append(named)
            }
        }
        if many {
            // A bulk edit's deletions are a list of the ids it deleted, in the payload itself.
            for (field, parent) in payloadFields where field.directives.contains(where: { $0.name == "deleteRecord" }) {
                guard schema.field(field.name, on: parent)?.type.listDepth == 1 else {
                    throw fail("takes a list of ids, so its @deleteRecord field must be a list (of the ids it deleted)", at: field.location)
                }
            }
        }
        let target: String
        var nearest: [NearEntity] = []
        if deleteTypes.count > 1 {
            throw fail("deletes objects of several types (\(deleteTypes.joined(separator: ", "))); the server edits one object per field")
        } else if let typename = deleteTypes.first {
            target = typename
        } else if WorldTypes.idKind(of: payloadType, in: schema) != nil {
            target = payloadType
        } else {
            // Object types first, at any depth; an interface or union with ids only when the
            // payload names no object type (`addComment { commentEdge { node } subject }` edits
            // the comment, `addStar { starrable }` the starrable).
            nearest = nearestEntities(payload, on: payloadType, fragments: fragments, schema: schema, abstract: false)
            if nearest.isEmpty {
                nearest = nearestEntities(payload, on: payloadType, fragments: fragments, schema: schema, abstract: true)
            }
            var candidates: [String] = []
            for found in nearest where !candidates.contains(found.type) { candidates.append(found.type) }
            if candidates.isEmpty, let named = deletion(named: node.name, schema: schema),
                !idArgument.isEmpty || typedIDArgument(of: definition, target: named, schema: schema) != nil
            {
                // `removeNote(id:) { removedNoteId }`: the client is told nothing it would key, but
                // the name says what the server deletes.
                candidates = [named]
                deletes = true
            }
            if candidates.count > 1 {
                candidates = named(among: candidates, field: node.name, definition: definition, schema: schema)
            }
            if candidates.isEmpty, !deletes, keyedTypes(of: payloadType, in: schema).isEmpty,
                !selectsEntity(payload, on: payloadType, fragments: fragments, schema: schema)
            {
                // `createReview { stars commentary }` of a `Review` without an id, `logout: Boolean`:
                // nothing in the answer is an object the client keys, so the server edits nothing
                // and answers new values of its own.
                return MutationEdit(
                    field: node.name, idArgument: [], picksTarget: false, many: false, targetType: "", targetTypes: [], setters: [],
                    renewedFields: [], deletes: false, carriers: [], answersOnly: true)
            }
            guard candidates.count == 1 else {
                let creates = kind == OperationKind.subscription.rawValue ? "which type its event creates" : "which type it creates"
                let unknown = deletes ? "which type it deletes" : idArgument.isEmpty ? creates : "which type its id names"
                let optOut = "; leave the operation out, or keep it out of the schedule: --unanswered NAME beside --schema, \"unansweredOperations\" in a folder's world.json"
                if candidates.isEmpty, deletes {
                    throw fail("selects no entity in its payload and its @deleteRecord names no typename:, and its name is not delete/remove/destroy and an entity type's, so the server cannot tell \(unknown)\(optOut)")
                }
                if candidates.isEmpty {
                    throw fail("selects entities in its payload only inside a list or below four objects without ids (the server looks for the entity it edits in the payload's fields and in single objects without an id on the way, such as an edge), so the server cannot tell \(unknown)\(optOut)")
                }
                throw fail("selects entities of several types in its payload (\(candidates.joined(separator: ", "))), so the server cannot tell \(unknown)\(optOut)")
            }
            target = candidates[0]
        }
        let targetTypes = Self.keyedTypes(of: target, in: schema)
        guard !targetTypes.isEmpty else {
            throw fail("edits \"\(target)\", which is not an object type with an id")
        }
        if idArgument.isEmpty, let typed = typedIDArgument(of: definition, target: target, schema: schema) {
            // `closeIssue(input: {issueId:})`: the id is named after the type it names.
            idArgument = typed
        }
        if idArgument.isEmpty, schema.type(named: target)?.kind != .object {
            throw fail("names no object to edit and returns \"\(target)\", an interface or union, so the server cannot tell which of its types to create")
        }
        let picksTarget = idArgument.isEmpty && deletes && kind == OperationKind.subscription.rawValue
        if idArgument.isEmpty && deletes && !picksTarget {
            throw fail("has no \"id\" argument (nor \"ids\", a list of ids, nor an input object with an \"id\"), so the server cannot tell which object it deletes")
        }

        let setters = self.setters(of: definition, idArgument: idArgument, target: target, schema: schema)
        var renewed: [String] = []
        func renew(_ selections: [Document.SelectionNode]) {
            for (field, _) in SelectionWalk.fields(selections, on: target, fragments: fragments)
            where field.name != "id" && field.name != "__typename" && !renewed.contains(field.name) {
                renewed.append(field.name)
            }
        }
        var carriers: [String] = []
        if target == payloadType {
            renew(payload)
        } else if nearest.isEmpty {
            for (field, parent) in payloadFields where schema.field(field.name, on: parent)?.type.namedType == target {
                renew(field.selections ?? [])
            }
        } else {
            for found in nearest where found.type == target {
                renew(found.field.selections ?? [])
                for carrier in found.carriers where !carriers.contains(carrier) { carriers.append(carrier) }
            }
        }
        return MutationEdit(
            field: node.name, idArgument: idArgument, picksTarget: picksTarget, many: many, targetType: target, targetTypes: targetTypes, setters: setters,
            renewedFields: renewed.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }, deletes: deletes,
            carriers: carriers.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    /// A payload field of an entity type, with the objects without ids it sits in.
    private struct NearEntity {
        let field: Document.FieldNode
        let type: String
        let carriers: [String]
    }

    /// The payload's fields of entity types at the nearest depth that has any: the payload's own
    /// fields first, then the fields of its fields that are single objects without ids (an edge),
    /// and so on, four levels at most.
    private static func nearestEntities(
        _ payload: [Document.SelectionNode], on payloadType: String, fragments: [String: Document.Fragment], schema: Schema,
        abstract: Bool
    ) -> [NearEntity] {
        var level: [(selections: [Document.SelectionNode], parent: String, carriers: [String])] = [(payload, payloadType, [])]
        for _ in 0..<4 where !level.isEmpty {
            var found: [NearEntity] = []
            var deeper: [(selections: [Document.SelectionNode], parent: String, carriers: [String])] = []
            for (selections, parent, carriers) in level {
                for (field, fieldParent) in SelectionWalk.fields(selections, on: parent, fragments: fragments) {
                    guard let type = schema.field(field.name, on: fieldParent)?.type else { continue }
                    let named = type.namedType
                    if abstract ? schema.type(named: named)?.kind != .object && !keyedTypes(of: named, in: schema).isEmpty
                        : WorldTypes.idKind(of: named, in: schema) != nil
                    {
                        found.append(NearEntity(field: field, type: named, carriers: carriers))
                    } else if type.listDepth == 0, let inner = field.selections, schema.type(named: named)?.kind == .object {
                        deeper.append((inner, named, carriers + [named]))
                    }
                }
            }
            if !found.isEmpty { return found }
            level = deeper
        }
        return []
    }

    /// True when any field of `payload`, at any depth and through lists and fragments, is of an
    /// entity type, or of an interface or union one of whose object types is.
    private static func selectsEntity(
        _ payload: [Document.SelectionNode], on payloadType: String, fragments: [String: Document.Fragment], schema: Schema
    ) -> Bool {
        var stack: [(selections: [Document.SelectionNode], parent: String)] = [(payload, payloadType)]
        var steps = 0
        // Fragments may nest without end only through a cycle, which validation refuses; the
        // bound keeps a walk finite all the same.
        while let (selections, parent) = stack.popLast(), steps < 10_000 {
            steps += 1
            for (field, fieldParent) in SelectionWalk.fields(selections, on: parent, fragments: fragments) {
                guard let named = schema.field(field.name, on: fieldParent)?.type.namedType else { continue }
                if !keyedTypes(of: named, in: schema).isEmpty { return true }
                if let inner = field.selections { stack.append((inner, named)) }
            }
        }
        return false
    }

    /// Of several entity types a payload selects at its nearest depth, the one the field names:
    /// the one an argument is named after (`pullRequestId` for a `PullRequest`), else the one
    /// whose name the field's holds, the longest when several do (`createCommitOnBranch` makes a
    /// `Commit`, `addIssueComment` an `IssueComment` rather than an `Issue`). All of them when
    /// neither rule picks one.
    private static func named(among candidates: [String], field: String, definition: Schema.Field, schema: Schema) -> [String] {
        let typed = candidates.filter { typedIDArgument(of: definition, target: $0, schema: schema) != nil }
        if typed.count == 1 { return typed }
        let inName = candidates.filter { field.contains($0) }
        guard let longest = inName.map(\.utf8.count).max() else { return candidates }
        let chosen = inName.filter { $0.utf8.count == longest }
        return chosen.count == 1 ? chosen : candidates
    }

    /// The object types with ids a value of `type` can be (itself, for an object type).
    static func keyedTypes(of type: String, in schema: Schema) -> [String] {
        schema.possibleTypes(of: type).filter { WorldTypes.idKind(of: $0, in: schema) != nil }
    }

    /// The entity type a mutation's name deletes: `deleteNote`, `removeNote` or `destroyNote`
    /// (the verb, then the type's name exactly) for an entity type `Note`.
    private static func deletion(named name: String, schema: Schema) -> String? {
        for verb in ["delete", "remove", "destroy"] where name.hasPrefix(verb) {
            let typename = String(name.dropFirst(verb.count))
            if WorldTypes.idKind(of: typename, in: schema) != nil { return typename }
        }
        return nil
    }

    /// `["id"]` when the field has an `id` argument of type ID or String; `["ids"]` (many) when it
    /// has an `ids` argument, a list of those; else `[argument, "id"]` for the first argument whose
    /// input object has such a field.
    private static func idArgument(of definition: Schema.Field, schema: Schema) -> (path: [String], many: Bool)? {
        if let id = definition.argument(named: "id"), WorldTypes.isEntityID(id.type, in: schema) { return (["id"], false) }
        if let ids = definition.argument(named: "ids"), ids.type.listDepth == 1 {
            var item = ids.type
            if case .nonNull(let inner) = item { item = inner }
            if case .list(let inner) = item, WorldTypes.isEntityID(inner, in: schema) { return (["ids"], true) }
        }
        for argument in definition.arguments where argument.type.listDepth == 0 {
            guard let input = schema.type(named: argument.type.namedType), input.kind == .inputObject,
                let id = input.inputFields.first(where: { $0.name == "id" }), WorldTypes.isEntityID(id.type, in: schema)
            else { continue }
            return ([argument.name, "id"], false)
        }
        return nil
    }

    /// An argument named after `target`'s id (`issueId` for `Issue`, `pullRequestId` for
    /// `PullRequest`), or such a field of an input-object argument, as GitHub's mutations name
    /// the object they edit; `nil` when the field has none.
    private static func typedIDArgument(of definition: Schema.Field, target: String, schema: Schema) -> [String]? {
        guard let first = target.first else { return nil }
        let name = first.lowercased() + target.dropFirst() + "Id"
        if let argument = definition.argument(named: name), argument.type.listDepth == 0,
            WorldTypes.isEntityID(argument.type, in: schema)
        {
            return [name]
        }
        for argument in definition.arguments where argument.type.listDepth == 0 {
            guard let input = schema.type(named: argument.type.namedType), input.kind == .inputObject,
                let id = input.inputFields.first(where: { $0.name == name }), id.type.listDepth == 0,
                WorldTypes.isEntityID(id.type, in: schema)
            else { continue }
            return [argument.name, name]
        }
        return nil
    }

    /// Arguments (and fields of the id's input object) named like a scalar field of `target`, of
    /// the field's type.
    private static func setters(
        of definition: Schema.Field, idArgument: [String], target: String, schema: Schema
    ) -> [Setter] {
        var candidates: [(path: [String], value: Schema.InputValue)] = []
        for argument in definition.arguments where argument.name != idArgument.first || idArgument.count > 1 {
            if argument.name == idArgument.first {
                let input = schema.type(named: argument.type.namedType)!
                for field in input.inputFields where field.name != idArgument[1] {
                    candidates.append(([argument.name, field.name], field))
                }
            } else if idArgument.isEmpty, argument.type.listDepth == 0, let input = schema.type(named: argument.type.namedType),
                input.kind == .inputObject {
                // A creation's input object (`addNote(input: {text:})`): its fields set the new entity's.
                for field in input.inputFields { candidates.append(([argument.name, field.name], field)) }
            } else {
                candidates.append(([argument.name], argument))
            }
        }
        var setters: [Setter] = []
        for (path, value) in candidates {
            guard let field = schema.field(value.name, on: target), field.name != "id", field.name != "__typename",
                schema.type(named: field.type.namedType)?.isLeaf == true
            else { continue }
            // An argument of another type (an input object where the field is a JSON scalar, an
            // ID where it is a String) is not the field's value: it sets nothing, as a real server
            // would map it some way the schema does not say.
            guard field.type.namedType == value.type.namedType, field.type.listDepth == value.type.listDepth else { continue }
            setters.append(Setter(argumentPath: path, field: field.name))
        }
        return setters.sorted { $0.field.utf8.lexicographicallyPrecedes($1.field.utf8) }
    }

    /// Calls `body` for every field at any depth of `selections`, through fragments.
    private static func forEachField(
        _ selections: [Document.SelectionNode], on parent: String, fragments: [String: Document.Fragment],
        _ body: (Document.FieldNode) -> Void
    ) {
        var stack = [selections]
        var visited: Set<String> = []
        while let next = stack.popLast() {
            for selection in next {
                switch selection {
                case .field(let field):
                    body(field)
                    if let inner = field.selections { stack.append(inner) }
                case .inlineFragment(let inline):
                    stack.append(inline.selections)
                case .fragmentSpread(let spread):
                    if visited.insert(spread.name).inserted, let fragment = fragments[spread.name] {
                        stack.append(fragment.selections)
                    }
                }
            }
        }
    }
}
