import Baton

/// Field resolution: what value a field of a server object has in the current state.
extension Executor {
    /// The slot of (object, field): the key of its version and of a value a mutation set.
    static func slot(_ identity: UInt64, _ field: String) -> UInt64 {
        ServerHash.of(identity, ServerHash.of(field))
    }

    mutating func resolve(
        _ definition: Schema.Field, group: FieldGroup, on object: ServerObject, arguments: [String: JSONValue],
        path: [ProvenanceError.PathComponent]
    ) throws -> Resolved {
        let name = definition.name
        let location = group.nodes[0].location
        if case .answer = mode, name != "id" {
            let rate = definition.type.isNonNull ? configuration.nonNullErrorRate : configuration.errorRate
            if rate > 0, random.chance(rate) {
                throw fail("\(object.type).\(name) is unavailable (simulated failure)", at: location, path: path)
            }
        }
        switch object.role {
        case .mutationRoot:
            return try mutation(definition, group: group, on: object, arguments: arguments, path: path)
        case .connection(let page):
            if let value = connectionField(name, definition: definition, page: page) { return value }
        case .edge(let page, let index):
            if name == "cursor" { return .scalar(.string(page.cursors[index])) }
            if name == "node" { return .object(nodeObject(page.nodes[index])) }
        case .pageInfo(let page):
            switch name {
            case "startCursor": return page.cursors.first.map { .scalar(.string($0)) } ?? .null
            case "endCursor": return page.cursors.last.map { .scalar(.string($0)) } ?? .null
            case "hasNextPage": return .scalar(.bool(page.hasNextPage))
            case "hasPreviousPage": return .scalar(.bool(page.hasPreviousPage))
            default: break
            }
        case .payload(let target):
            if let value = payloadField(definition, group: group, on: object, target: target) { return value }
        case .plain:
            break
        }
        if name == "id", object.entity != nil {
            return object.id.map { .scalar(Self.idValue($0, as: definition.type)) } ?? .null
        }

        let argumentsHash = Self.argumentsHash(arguments)
        let slot = Self.slot(object.identity, name)
        let version = state.versions[slot] ?? 0
        let valueHash = ServerHash.of(salt, object.identity, ServerHash.of(name), argumentsHash, UInt64(version))
        guard let facts = world.analysis.types[definition.type.namedType] else { return .null }
        let named = facts.type
        let entityTypes = facts.entityTypes
        let lookupID: String? = if named.isComposite, !entityTypes.isEmpty, let id = Self.idText(arguments["id"]) { id } else { nil }

        if !definition.type.isNonNull, lookupID == nil,
            ServerHash.chance(ServerHash.mix(valueHash ^ 0x6E75_6C6C), configuration.nullRate)
        {
            return .null
        }
        if named.isLeaf {
            if let set = state.setValues[slot] { return Self.resolved(set) }
            if named.name == "String", definition.type.listDepth == 0,
               let twin = ServerValues.twin(ServerHash.of(salt, object.identity, ServerHash.of(name), argumentsHash), field: name, version: version) {
                return .scalar(.string(twin))
            }
            if named.name == "Float", definition.type.listDepth == 0,
               let zero = ServerValues.signedZero(ServerHash.of(salt, object.identity, ServerHash.of(name), argumentsHash), version: version) {
                return .scalar(.double(zero))
            }
            return generate(definition.type, hash: valueHash, field: name, identity: ServerHash.of(object.identity, slot, argumentsHash), parent: object)
        }
        if definition.type.listDepth == 0, let shape = facts.connection {
            return try connection(definition, group: group, on: object, arguments: arguments, shape: shape, path: path)
        }
        let identity = ServerHash.of(object.identity, slot, argumentsHash)
        if let lookupID, definition.type.listDepth == 0 {
            guard let entity = lookup(lookupID, in: entityTypes) else { return .null }
            return .object(entityObject(entity))
        }
        if definition.type.listDepth == 1, facts.onlyEntities {
            return entityList(identity, named: named.name, nullableItems: !Self.itemType(of: definition.type).isNonNull,
                label: { executor in "\(executor.label(of: object)).\(name)" })
        }
        return generate(definition.type, hash: valueHash, field: name, identity: identity, parent: object)
    }

    /// An entity's id as a field of `type` answers it: a JSON number for an `Int` id, else text.
    static func idValue(_ id: String, as type: GraphQLTypeReference) -> JSONValue {
        if WorldTypes.isIntID(type), let number = Int(id) { return .int(number) }
        return .string(id)
    }

    /// The text of an id an argument gives: a string as it is, an integer in decimal.
    static func idText(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let id)?: id
        case .int(let id)?: String(id)
        default: nil
        }
    }

    /// A value a mutation set, as a resolved value.
    static func resolved(_ value: JSONValue) -> Resolved {
        switch value {
        case .array(let items): .list(items.map(resolved))
        case .null: .null
        default: .scalar(value)
        }
    }

    /// The type of a list's items (`[A!]!` → `A!`).
    static func itemType(of type: GraphQLTypeReference) -> GraphQLTypeReference {
        switch type {
        case .nonNull(let inner): itemType(of: inner)
        case .list(let inner): inner
        case .named: type
        }
    }

    /// A value of `type` generated from `hash`: leaves from the hash, lists of a length drawn from
    /// it, objects picked among the living entities and path objects the type can be.
    mutating func generate(
        _ type: GraphQLTypeReference, hash: UInt64, field: String, identity: UInt64, parent: ServerObject
    ) -> Resolved {
        switch type {
        case .nonNull(let inner):
            return generate(inner, hash: hash, field: field, identity: identity, parent: parent)
        case .list(let inner):
            let count = ServerHash.int(ServerHash.mix(hash ^ 0x4C45_4E47), configuration.listLength)
            var items: [Resolved] = []
            items.reserveCapacity(count)
            for position in 0..<count {
                let itemHash = ServerHash.of(hash, UInt64(position))
                if !inner.isNonNull, ServerHash.chance(ServerHash.mix(itemHash ^ 0x6E75_6C6C), configuration.nullRate) {
                    items.append(.null)
                } else {
                    items.append(generate(inner, hash: itemHash, field: field, identity: ServerHash.of(identity, UInt64(position)), parent: parent))
                }
            }
            return .list(items)
        case .named(let name):
            guard let named = schema.type(named: name) else { return .null }
            if named.isLeaf {
                return .scalar(ServerValues.leaf(named, hash: hash, field: field, trickyRate: configuration.trickyStringRate))
            }
            return pick(name, hash: hash, identity: identity, label: { executor in "\(executor.label(of: parent)).\(field)" })
        }
    }

    /// One object of type `name` (an object type, interface or union), chosen by rendezvous hashing
    /// among the living entities and path objects it can be: the same hash picks the same object
    /// while it lives, and a deletion only moves the fields that pointed at it.
    mutating func pick(_ name: String, hash: UInt64, identity: UInt64, label: (Executor) -> String) -> Resolved {
        var best: (score: UInt64, node: NodeRef)?
        for type in schema.possibleTypes(of: name) {
            if let number = typeIndex[type] {
                let table = state.tables[number]
                for serial in 0..<table.count where table.alive[serial] {
                    let score = ServerHash.of(hash, UInt64(number), UInt64(serial))
                    if best == nil || score > best!.score { best = (score, .entity(EntityRef(type: number, serial: serial))) }
                }
            } else {
                let score = ServerHash.of(hash, ServerHash.of(type))
                if best == nil || score > best!.score { best = (score, .path(type: type, identity: identity)) }
            }
        }
        guard let best else { return .null }
        if case .path(let type, let identity) = best.node { remember(identity, type: type, label: label) }
        return .object(nodeObject(best.node))
    }

    /// Keeps an answered path object for drift, up to a limit.
    mutating func remember(_ identity: UInt64, type: String, label: (Executor) -> String) {
        guard case .answer = mode, remembersPaths, state.pathObjects[identity] == nil, state.pathOrder.count < ServerState.pathObjectLimit
        else { return }
        state.pathObjects[identity] = PathObjectRecord(type: type, label: label(self))
        state.pathOrder.append(identity)
    }

    /// The server object of a list item.
    func nodeObject(_ node: NodeRef) -> ServerObject {
        switch node {
        case .entity(let entity): entityObject(entity)
        case .path(let type, let identity): ServerObject(type: type, identity: identity)
        }
    }

    func entityObject(_ entity: EntityRef) -> ServerObject {
        let table = state.tables[entity.type]
        return ServerObject(
            type: table.name, identity: Self.entityIdentity(entity), entity: entity, id: table.ids[entity.serial])
    }

    static func entityIdentity(_ entity: EntityRef) -> UInt64 {
        ServerHash.of(0xE7, UInt64(entity.type), UInt64(entity.serial))
    }

    /// The living entity of one of `types` whose id is `id` byte for byte.
    func lookup(_ id: String, in types: [String]) -> EntityRef? {
        for type in types {
            guard let number = typeIndex[type], let serial = state.tables[number].serial(of: id),
                state.tables[number].alive[serial]
            else { continue }
            return EntityRef(type: number, serial: serial)
        }
        return nil
    }

    /// A name for `object` in trace lines.
    func label(of object: ServerObject) -> String {
        if let entity = object.entity { return state.tables[entity.type].label(entity.serial) }
        return state.pathObjects[object.identity]?.label ?? object.type
    }

    // MARK: - Lists the server keeps

    /// A field's list of entities: made once from the living entities (rendezvous order), then
    /// kept, so that drift can change its membership; deleted entities drop out when it is read.
    mutating func entityList(
        _ key: UInt64, named: String, nullableItems: Bool, label: (Executor) -> String
    ) -> Resolved {
        let list = self.list(key, itemType: named, isConnection: false, nullableItems: nullableItems, label: label)
        return .list(list.items.compactMap { item -> Resolved? in
            guard let item else { return .null }
            if case .entity(let entity) = item, !state.tables[entity.type].alive[entity.serial] { return nil }
            return .object(nodeObject(item))
        })
    }

    /// The list `key` as the server keeps it, or made now from the living entities. An answer keeps
    /// what it made; a probe or an optimistic guess leaves the state alone (the answer that comes
    /// later makes the same list, as nothing in between changed).
    mutating func list(
        _ key: UInt64, itemType: String, isConnection: Bool, nullableItems: Bool, label: (Executor) -> String
    ) -> ServerList {
        if let kept = state.lists[key] { return kept }
        let list = makeList(key, itemType: itemType, isConnection: isConnection, nullableItems: nullableItems, label: label)
        if case .answer = mode {
            state.lists[key] = list
            state.listOrder.append(key)
        }
        return list
    }

    /// A new list for `key`: its length and members drawn from the seed by rendezvous order.
    func makeList(
        _ key: UInt64, itemType: String, isConnection: Bool, nullableItems: Bool, label: (Executor) -> String
    ) -> ServerList {
        let listHash = ServerHash.of(salt, key)
        let length = ServerHash.int(listHash, isConnection ? configuration.connectionLength : configuration.listLength)
        var candidates: [(score: UInt64, node: NodeRef)] = []
        for type in schema.possibleTypes(of: itemType) {
            guard let number = typeIndex[type] else { continue }
            let table = state.tables[number]
            for serial in 0..<table.count where table.alive[serial] {
                candidates.append((ServerHash.of(listHash, UInt64(number), UInt64(serial)), .entity(EntityRef(type: number, serial: serial))))
            }
        }
        candidates.sort { $0.score > $1.score }
        var list = ServerList(label: label(self), isConnection: isConnection, itemType: itemType, items: [])
        var next = 0
        for position in 0..<length {
            if nullableItems, ServerHash.chance(ServerHash.of(listHash, UInt64(position), 0x6E75_6C6C), configuration.nullRate) {
                list.items.append(nil)
            } else if next < candidates.count {
                list.items.append(candidates[next].node)
                next += 1
            } else if candidates.isEmpty, let type = schema.possibleTypes(of: itemType).first, typeIndex[type] == nil {
                list.items.append(.path(type: type, identity: ServerHash.of(key, 0x9A7, UInt64(list.madeObjects))))
                list.madeObjects += 1
            }
        }
        return list
    }
}
