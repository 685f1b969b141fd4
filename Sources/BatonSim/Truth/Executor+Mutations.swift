import Baton

/// Mutations, interpreted generically (see ``MutationEdit``): the id argument names an entity, the
/// edit is applied, and the payload is executed against the new state.
extension Executor {
    mutating func mutation(
        _ definition: Schema.Field, group: FieldGroup, on root: ServerObject, arguments: [String: JSONValue],
        path: [ProvenanceError.PathComponent]
    ) throws -> Resolved {
        let location = group.nodes[0].location
        guard let edit = world.analysis.mutations[operation.name]?[group.responseKey] else {
            missedTarget = true
            throw fail("the server cannot interpret \(root.type).\(definition.name)", at: location, path: path)
        }
        if edit.answersOnly {
            // Nothing the client keys: the server changes nothing, and each execution answers new
            // values (a review just written, a count just taken).
            let identity = ServerHash.of(root.identity, ServerHash.of(definition.name), UInt64(state.executions))
            let hash = ServerHash.of(salt, identity, Self.argumentsHash(arguments))
            return generate(definition.type, hash: hash, field: definition.name, identity: identity, parent: root)
        }
        if edit.many { return bulkMutation(edit, definition, on: root, arguments: arguments) }
        if edit.picksTarget {
            // A subscription's deletion names nothing: the server deletes one of its entities.
            let living = edit.targetTypes.flatMap { type -> [(EntityRef, String)] in
                guard let number = typeIndex[type] else { return [] }
                let table = state.tables[number]
                return table.alive.indices.compactMap { serial in
                    guard table.alive[serial], let id = table.ids[serial] else { return nil }
                    return (EntityRef(type: number, serial: serial), id)
                }
            }
            guard !living.isEmpty else {
                missedTarget = true
                throw fail("no \(edit.targetType) is left to delete", at: location, path: path)
            }
            let (entity, id) = living[random.int(0...(living.count - 1))]
            apply(edit, to: entity, arguments: arguments, definition: definition)
            return payload(definition, on: root, target: MutationTarget(edited: [(entity, id)], edit: edit, namedIDs: Self.namedIDs(arguments)))
        }
        if edit.creates {
            guard let (entity, id) = create(edit.targetType) else {
                missedTarget = true
                throw fail("no more \(edit.targetType) can be made (its ids are an enum's values, all taken)", at: location, path: path)
            }
            apply(edit, to: entity, arguments: arguments, definition: definition)
            if definition.type.namedType == edit.targetType { return .object(entityObject(entity)) }
            return payload(definition, on: root, target: MutationTarget(edited: [(entity, id)], edit: edit, namedIDs: Self.namedIDs(arguments)))
        }
        guard let id = Self.idText(effective(path: edit.idArgument, arguments, in: definition)),
            let entity = lookup(id, in: edit.targetTypes)
        else {
            missedTarget = true
            let given: String =
                switch effective(path: edit.idArgument, arguments, in: definition) {
                case .string(let id)?: "the id \(Legible.quoted(id))"
                case nil, .null?: "no id"
                case let other?: "the id \(other)"
                }
            throw fail("no \(edit.targetType) has \(given)", at: location, path: path)
        }
        apply(edit, to: entity, arguments: arguments, definition: definition)
        let payloadType = definition.type.namedType
        if payloadType == edit.targetType {
            return state.tables[entity.type].alive[entity.serial] ? .object(entityObject(entity)) : .null
        }
        return payload(definition, on: root, target: MutationTarget(edited: [(entity, id)], edit: edit, namedIDs: Self.namedIDs(arguments)))
    }

    /// A bulk edit (`ids: [ID!]!`): every living entity the ids name gets the edit, once, in the
    /// order given; ids that name none are passed over (a bulk delete of what is already gone
    /// deletes nothing). The payload lists the entities, or its `@deleteRecord` field their ids.
    private mutating func bulkMutation(
        _ edit: MutationEdit, _ definition: Schema.Field, on root: ServerObject, arguments: [String: JSONValue]
    ) -> Resolved {
        var given: [JSONValue] = []
        switch effective(path: edit.idArgument, arguments, in: definition) {
        case .array(let items)?: given = items
        case let single?: given = [single]
        case nil: break
        }
        var edited: [(entity: EntityRef, id: String)] = []
        for value in given {
            guard let id = Self.idText(value), let entity = lookup(id, in: edit.targetTypes),
                !edited.contains(where: { $0.entity == entity })
            else { continue }
            edited.append((entity, id))
        }
        for (entity, _) in edited { apply(edit, to: entity, arguments: arguments, definition: definition) }
        if definition.type.namedType == edit.targetType {
            let entities: [Resolved] = edited.map { entity, _ in
                state.tables[entity.type].alive[entity.serial] ? .object(entityObject(entity)) : .null
            }
            return definition.type.listDepth == 0 ? entities.first ?? .null : .list(entities)
        }
        return payload(definition, on: root, target: MutationTarget(edited: edited, edit: edit, namedIDs: Self.namedIDs(arguments)))
    }

    /// A new living entity of `type`, with the next plain id its table would give (`7`, or
    /// `Note_7` with global ids), passing over ids taken already; `nil` when the type's ids are an
    /// enum's values and all are taken.
    private mutating func create(_ type: String) -> (EntityRef, String)? {
        guard let number = typeIndex[type], !state.tables[number].isFull else { return nil }
        let table = state.tables[number]
        var id: String
        if let fixed = table.fixedIDs {
            guard let free = fixed.first(where: { table.serial(of: $0) == nil }) else { return nil }
            id = free
        } else {
            var next = table.count + 1
            repeat {
                id = configuration.globalIDs && !table.integerIDs ? "\(table.name)_\(next)" : String(next)
                next += 1
            } while table.serial(of: id) != nil
        }
        let serial = state.tables[number].append(id: id)
        return (EntityRef(type: number, serial: serial), id)
    }

    /// The ids `arguments` give under names ending in `Id`, at the top or one input object down.
    static func namedIDs(_ arguments: [String: JSONValue]) -> [String: String] {
        // In name order, the first giving a name wins: never the dictionaries' order.
        var ids: [String: String] = [:]
        for name in arguments.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let value = arguments[name]!
            if name.hasSuffix("Id"), ids[name] == nil, let id = idText(value) { ids[name] = id }
            if case .object(let fields) = value {
                for field in fields.keys where field.hasSuffix("Id") && ids[field] == nil {
                    if let id = idText(fields[field]!) { ids[field] = id }
                }
            }
        }
        return ids
    }

    /// The payload object of a mutation field whose type is not the edited entity's.
    private func payload(_ definition: Schema.Field, on root: ServerObject, target: MutationTarget) -> Resolved {
        let payloadType = definition.type.namedType
        let concrete = schema.possibleTypes(of: payloadType).first ?? payloadType
        return .object(ServerObject(
            type: concrete, identity: ServerHash.of(root.identity, ServerHash.of(definition.name), UInt64(state.executions)),
            role: .payload(target)))
    }

    /// Sets the fields the arguments name, renews the fields the payload selects (guessed values
    /// in an optimistic execution), and deletes the entity when the payload says so.
    mutating func apply(_ edit: MutationEdit, to entity: EntityRef, arguments: [String: JSONValue], definition: Schema.Field) {
        let identity = Self.entityIdentity(entity)
        var set: [String] = []
        for setter in edit.setters {
            guard let value = effective(path: setter.argumentPath, arguments, in: definition),
                let field = schema.field(setter.field, on: edit.targetType), value != .null || !field.type.isNonNull
            else { continue }
            state.setValues[Self.slot(identity, setter.field)] = value
            set.append(setter.field)
        }
        for name in edit.renewedFields where !set.contains(name) {
            let slot = Self.slot(identity, name)
            if case .optimistic = mode {
                guard let field = schema.field(name, on: edit.targetType), let type = schema.type(named: field.type.namedType),
                    type.isLeaf
                else { continue }
                var guess = ServerValues.guess(type, field: name)
                for _ in 0..<field.type.listDepth { guess = .array([guess]) }
                state.setValues[slot] = guess
            } else {
                state.setValues[slot] = nil
                state.versions[slot] = ((state.versions[slot] ?? 0) + 1) % max(1, configuration.valueVersions)
            }
        }
        if edit.deletes {
            state.tables[entity.type].delete(entity.serial)
        }
    }

    /// A field of a mutation's payload: one carrying `@deleteRecord` names the edited entity (its id
    /// with `typename:`, its record key `Type:id` without), or for a bulk edit lists them; one whose
    /// type can be the edited type answers the entity (null once deleted), or for a bulk edit and
    /// a list type each of them; one of a carrier type (an edge on the way to the entity) answers
    /// an object of the payload too. `nil` for any other field.
    func payloadField(_ definition: Schema.Field, group: FieldGroup, on object: ServerObject, target: MutationTarget) -> Resolved? {
        if let directive = group.directives.first(where: { $0.name == "deleteRecord" }) {
            let named: [Resolved] = target.edited.map { entity, id in
                if case .string? = directive.argument("typename")?.value {
                    return .scalar(Self.idValue(id, as: definition.type))
                }
                return .scalar(.string(OracleKeys.entity(typename: state.tables[entity.type].name, id: id).string))
            }
            if target.edit.many { return .list(named) }
            var value = named[0]
            for _ in 0..<definition.type.listDepth { value = .list([value]) }
            return value
        }
        if definition.type.listDepth == 0, let id = target.namedIDs[definition.name + "Id"],
            !target.edit.targetTypes.contains(where: { schema.isPossibleType($0, of: definition.type.namedType) })
        {
            // `addComment(input: {subjectId:}) { subject }`: the object the argument names.
            let types = MutationEdit.keyedTypes(of: definition.type.namedType, in: schema)
            if !types.isEmpty {
                if let entity = lookup(id, in: types) { return .object(entityObject(entity)) }
                if !definition.type.isNonNull { return .null }
            }
        }
        if definition.type.listDepth == 0, target.edit.carriers.contains(definition.type.namedType) {
            return .object(ServerObject(
                type: definition.type.namedType, identity: ServerHash.of(object.identity, ServerHash.of(definition.name)),
                role: .payload(target)))
        }
        guard definition.type.listDepth == (target.edit.many ? 1 : 0),
            target.edit.targetTypes.contains(where: { schema.isPossibleType($0, of: definition.type.namedType) })
        else {
            return nil
        }
        let entities: [Resolved] = target.edited.map { entity, _ in
            state.tables[entity.type].alive[entity.serial] ? .object(entityObject(entity)) : .null
        }
        return target.edit.many ? .list(entities) : entities[0]
    }
}
