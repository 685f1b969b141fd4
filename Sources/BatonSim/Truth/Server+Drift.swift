import Baton

/// A kind of edit the server's data undergoes between the client's requests.
package enum DriftKind: String, CaseIterable, Sendable {
    /// A field of an entity or an answered path object moves to its next version.
    case renewValue
    /// A living entity is deleted: lookups miss it, lists and connections drop it.
    case deleteEntity
    /// A deleted entity comes back with its id (an undo): a client that deleted it meets it again.
    case restoreEntity
    /// A new entity of some type appears.
    case newEntity
    /// A new node before the first node of a connection the server has answered.
    case growFront
    /// A new node after the last node of a connection the server has answered.
    case growBack
    /// A kept list of entities gains a member, loses an item, or has two items swap.
    case changeMembership

    /// How often ``Server/drift()`` picks it.
    package var weight: Int {
        switch self {
        case .renewValue: 10
        case .deleteEntity, .newEntity: 2
        case .restoreEntity: 3
        case .growFront, .growBack, .changeMembership: 3
        }
    }
}

/// The server's data changing over time, between the client's requests.
extension Server {
    /// Edits the state as time passes: field values move to another version, entities are deleted,
    /// new ones appear, connections grow at both ends, lists change members. Every choice comes from
    /// the seed. Returns one line per edit, for the trace.
    package mutating func drift() -> [String] {
        var lines: [String] = []
        for _ in 0..<driftRandom.int(1...2) {
            let kind = DriftKind.allCases[driftRandom.weighted(DriftKind.allCases.map(\.weight))]
            if let line = drift(kind) ?? drift(.renewValue) { lines.append(line) }
        }
        return lines
    }

    /// One edit of `kind`, its choices drawn from the seed; `nil` when the state offers nothing to
    /// edit that way (no connection answered yet, no entity alive).
    package mutating func drift(_ kind: DriftKind) -> String? {
        switch kind {
        case .renewValue: renewValue()
        case .deleteEntity: deleteEntity()
        case .restoreEntity: restoreEntity()
        case .newEntity: newEntity()
        case .growFront: grow(atFront: true)
        case .growBack: grow(atFront: false)
        case .changeMembership: changeMembership()
        }
    }

    /// The `index`-th living entity, counting through the types in order, among the types that
    /// `include` lets in.
    private func livingEntity(_ index: Int, include: (EntityTable) -> Bool = { _ in true }) -> EntityRef {
        var remaining = index
        for (type, table) in state.tables.enumerated() where include(table) {
            if remaining < table.livingCount { return EntityRef(type: type, serial: table.livingSerial(remaining)) }
            remaining -= table.livingCount
        }
        preconditionFailure("no living entity \(index)")
    }

    /// How many entities are alive among the types that `include` lets in.
    private func livingCount(include: (EntityTable) -> Bool = { _ in true }) -> Int {
        state.tables.reduce(0) { $0 + (include($1) ? $1.livingCount : 0) }
    }

    /// A field of a living entity or an answered path object moves to its next version.
    private mutating func renewValue() -> String? {
        let entities = livingCount()
        let total = entities + state.pathOrder.count
        guard total > 0 else { return nil }
        let choice = driftRandom.int(0...(total - 1))
        let identity: UInt64
        let type: String
        let label: String
        if choice < entities {
            let entity = livingEntity(choice)
            identity = Executor.entityIdentity(entity)
            type = state.tables[entity.type].name
            label = self.label(of: entity)
        } else {
            identity = state.pathOrder[choice - entities]
            let record = state.pathObjects[identity]!
            type = record.type
            label = record.label
        }
        let fields = world.schema.type(named: type)?.fields.filter { versionMatters($0) } ?? []
        guard !fields.isEmpty else { return nil }
        let field = fields[driftRandom.int(0...(fields.count - 1))].name
        let slot = Executor.slot(identity, field)
        let old = state.versions[slot] ?? 0
        let new = (old + 1) % max(1, configuration.valueVersions)
        state.versions[slot] = new
        state.setValues[slot] = nil
        return "renew \(label).\(field): version \(old) → \(new)"
    }

    /// Fields whose value depends on their version: not `id`, not connections and kept lists
    /// (those change by growth and membership edits).
    private func versionMatters(_ field: Schema.Field) -> Bool {
        guard field.name != "id" else { return false }
        let named = field.type.namedType
        if field.type.listDepth == 0, world.analysis.connections[named] != nil { return false }
        let possible = world.schema.possibleTypes(of: named)
        let entities = WorldTypes.entityTypes(of: named, in: world.schema)
        return !(field.type.listDepth == 1 && !entities.isEmpty && entities.count == possible.count)
    }

    /// Deletes a living entity, never the last of its type (a world whose types empty out stops
    /// telling stories).
    private mutating func deleteEntity() -> String? {
        let deletable = { (table: EntityTable) in table.livingCount > 1 }
        let count = livingCount(include: deletable)
        guard count > 0 else { return nil }
        let entity = livingEntity(driftRandom.int(0...(count - 1)), include: deletable)
        state.tables[entity.type].delete(entity.serial)
        return "delete \(label(of: entity))"
    }

    private mutating func restoreEntity() -> String? {
        let deleted = state.tables.indices.map { state.tables[$0].count - state.tables[$0].livingCount }
        let total = deleted.reduce(0, +)
        guard total > 0 else { return nil }
        var pick = driftRandom.int(0...(total - 1))
        for (type, count) in deleted.enumerated() {
            if pick < count {
                let serial = state.tables[type].deletedSerial(pick)
                state.tables[type].restore(serial)
                return "restore \(label(of: EntityRef(type: type, serial: serial)))"
            }
            pick -= count
        }
        return nil
    }

    private mutating func newEntity() -> String? {
        guard !state.tables.isEmpty,
            let entity = addEntity(typeIndex: driftRandom.int(0...(state.tables.count - 1)))
        else { return nil }
        return "new \(label(of: entity))"
    }

    /// A new node before the first or after the last node of a connection the server has answered.
    private mutating func grow(atFront: Bool) -> String? {
        let connections = state.listOrder.filter { state.lists[$0]!.isConnection }
        guard !connections.isEmpty else { return nil }
        let key = connections[driftRandom.int(0...(connections.count - 1))]
        guard let node = newNode(for: key) else { return nil }
        if atFront { state.lists[key]!.items.insert(node, at: 0) } else { state.lists[key]!.items.append(node) }
        return "grow \(state.lists[key]!.label) at the \(atFront ? "front" : "back"): \(describe(node))"
    }

    /// A new node before the first node of the connection `listKey` names: a feed the user is
    /// scrolling gains an item at its top, which moves every position cursor by one, so the next
    /// page (after an offset cursor) repeats an edge the client already holds.
    package mutating func growFront(of listKey: UInt64) -> String? {
        guard state.lists[listKey]?.isConnection == true, let node = newNode(for: listKey) else { return nil }
        state.lists[listKey]!.items.insert(node, at: 0)
        return "grow \(state.lists[listKey]!.label) at the front: \(describe(node))"
    }

    /// A new entity of a type the list's items can be, or a new path object when none is an entity.
    private mutating func newNode(for key: UInt64) -> NodeRef? {
        let itemType = state.lists[key]!.itemType
        let possible = world.schema.possibleTypes(of: itemType)
        let entityTypes = possible.compactMap { name in state.tables.firstIndex { $0.name == name } }
        if !entityTypes.isEmpty {
            return addEntity(typeIndex: entityTypes[driftRandom.int(0...(entityTypes.count - 1))]).map(NodeRef.entity)
        }
        guard let type = possible.first else { return nil }
        let made = state.lists[key]!.madeObjects
        state.lists[key]!.madeObjects += 1
        return .path(type: type, identity: ServerHash.of(key, 0x9A7, UInt64(made)))
    }

    /// A list of entities gains a living entity, loses an item, or has two items swap.
    private mutating func changeMembership() -> String? {
        let lists = state.listOrder.filter { !state.lists[$0]!.isConnection }
        guard !lists.isEmpty else { return nil }
        let key = lists[driftRandom.int(0...(lists.count - 1))]
        let list = state.lists[key]!
        switch driftRandom.int(0...2) {
        case 0:
            let possible = Set(world.schema.possibleTypes(of: list.itemType))
            let members = Set(list.items.compactMap { $0 })
            let candidates = { (table: EntityTable) in possible.contains(table.name) }
            let count = livingCount(include: candidates)
            guard count > 0 else { return nil }
            let entity = livingEntity(driftRandom.int(0...(count - 1)), include: candidates)
            guard !members.contains(.entity(entity)) else { return nil }
            let position = driftRandom.int(0...list.items.count)
            state.lists[key]!.items.insert(.entity(entity), at: position)
            return "list \(list.label) gains \(label(of: entity)) at \(position)"
        case 1:
            guard !list.items.isEmpty else { return nil }
            let position = driftRandom.int(0...(list.items.count - 1))
            let removed = state.lists[key]!.items.remove(at: position)
            return "list \(list.label) loses \(removed.map(describe) ?? "null") at \(position)"
        default:
            guard list.items.count > 1 else { return nil }
            let a = driftRandom.int(0...(list.items.count - 1))
            let b = driftRandom.int(0...(list.items.count - 1))
            state.lists[key]!.items.swapAt(a, b)
            return "list \(list.label) swaps \(a) and \(b)"
        }
    }

    private func describe(_ node: NodeRef) -> String {
        switch node {
        case .entity(let entity): label(of: entity)
        case .path(let type, let identity): "\(type) object \(identity % 1_000_000_007)"
        }
    }
}
