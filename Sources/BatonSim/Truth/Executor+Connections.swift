import Baton

/// Connections: an ordered server list per (parent, field, arguments that are not paging ones),
/// paged with `first`/`after` and `last`/`before` over real cursors.
///
/// A cursor that names no node of the list (a deleted node, a made-up string, an offset cursor
/// that does not parse) answers an empty page whose cursors are `null` and whose `hasNextPage`
/// and `hasPreviousPage` are false: one documented behaviour, kept for every connection.
extension Executor {
    mutating func connection(
        _ definition: Schema.Field, group: FieldGroup, on parent: ServerObject, arguments: [String: JSONValue],
        shape: ConnectionShape, path: [ProvenanceError.PathComponent]
    ) throws -> Resolved {
        let location = group.nodes[0].location
        let listing = arguments.filter { !ConnectionShape.pagingArguments.contains($0.key) }
        let nameHash = ServerHash.of(definition.name)
        let listKey = ServerHash.of(parent.identity, nameHash, Self.argumentsHash(listing))
        let list = self.list(listKey, itemType: shape.nodeType, isConnection: true, nullableItems: false) { executor in
            "\(executor.label(of: parent)).\(definition.name)"
        }
        let nodes = livingNodes(of: list)
        let cursors = nodes.enumerated().map { cursor(for: $0.element, at: $0.offset) }

        let first = intArgument("first", arguments, in: definition)
        let last = intArgument("last", arguments, in: definition)
        for (name, count) in [("first", first), ("last", last)] {
            if let count, count < 0 {
                throw fail("Argument \"\(name)\" of \(parent.type).\(definition.name) must not be negative.", at: location, path: path)
            }
        }
        var low = 0
        var high = nodes.count
        var known = true
        if let after = stringArgument("after", arguments, in: definition) {
            if let position = position(of: after, in: cursors) { low = min(position + 1, nodes.count) } else { known = false }
        }
        if let before = stringArgument("before", arguments, in: definition) {
            if let position = position(of: before, in: cursors) { high = min(position, nodes.count) } else { known = false }
        }
        if known {
            high = max(low, high)
            if let first { high = min(high, low + first) }
            if let last { low = max(low, high - last) }
        } else {
            low = 0
            high = 0
        }
        let page = AnsweredPage(
            shape: shape, listKey: listKey,
            identity: ServerHash.of(parent.identity, nameHash, Self.argumentsHash(arguments)),
            nodes: Array(nodes[low..<high]), cursors: Array(cursors[low..<high]), total: nodes.count,
            hasNextPage: known && high < nodes.count, hasPreviousPage: known && low > 0)
        switch mode {
        case .answer:
            // An empty page leaves the join points where they were, as a client's store keeps its
            // cursors when a page brings none.
            if !page.cursors.isEmpty {
                state.lastPages[listKey] = PageCursors(start: page.cursors.first, end: page.cursors.last)
            }
        case .probe:
            let last = state.lastPages[listKey]
            reached.append(ReachedConnection(
                listKey: listKey, afterVariable: Self.variableName("after", of: group.nodes[0]),
                beforeVariable: Self.variableName("before", of: group.nodes[0]), cursors: cursors,
                lastPage: last.map { PageCursorsValue(start: $0.start, end: $0.end) }, staleCursors: staleCursors(of: list)))
        case .optimistic:
            break
        }
        return .object(ServerObject(type: shape.typeName, identity: page.identity, role: .connection(page)))
    }

    /// The fields of a connection object the page answers: `edges`, `nodes`, `pageInfo` and an
    /// `Int` `totalCount`; `nil` for any other field (generated like any object's).
    func connectionField(_ name: String, definition: Schema.Field, page: AnsweredPage) -> Resolved? {
        switch name {
        case "edges":
            guard let edgeType = page.shape.edgeType else { return nil }
            return .list(page.nodes.indices.map { index in
                .object(ServerObject(
                    type: edgeType, identity: ServerHash.of(page.identity, 0xED6E, UInt64(index)),
                    role: .edge(page, index)))
            })
        case "nodes" where Self.itemType(of: definition.type).namedType == page.shape.nodeType:
            return .list(page.nodes.map { .object(nodeObject($0)) })
        case "pageInfo":
            return .object(ServerObject(
                type: page.shape.pageInfoType, identity: ServerHash.of(page.identity, 0x9A6E), role: .pageInfo(page)))
        case "totalCount" where definition.type.namedType == "Int" && definition.type.listDepth == 0:
            return .scalar(.int(page.total))
        default:
            return nil
        }
    }

    /// The list's items that are alive now, in order.
    func livingNodes(of list: ServerList) -> [NodeRef] {
        list.items.compactMap { item in
            guard let item else { return nil }
            if case .entity(let entity) = item, !state.tables[entity.type].alive[entity.serial] { return nil }
            return item
        }
    }

    /// The cursor of `node` at `position`, in this seed's style.
    func cursor(for node: NodeRef, at position: Int) -> String {
        let core: String
        switch configuration.cursorStyle {
        case .offset:
            core = "offset:\(position)"
        case .node:
            switch node {
            case .entity(let entity): core = "c\(entity.type).\(entity.serial)"
            case .path(_, let identity): core = "p\(identity % 1_000_000_007)"
            }
        }
        return configuration.decoratedCursors ? Self.decorate(core) : core
    }

    /// A cursor wrapped in characters a store must keep byte for byte.
    static func decorate(_ core: String) -> String {
        "«" + core + "»🦄\""
    }

    /// The position `cursor` names in the list whose cursors are `cursors`; `nil` when it names none.
    func position(of cursor: String, in cursors: [String]) -> Int? {
        switch configuration.cursorStyle {
        case .node:
            return cursors.firstIndex { $0.utf8.elementsEqual(cursor.utf8) }
        case .offset:
            var core = Substring(cursor)
            if configuration.decoratedCursors {
                guard core.hasPrefix("«"), core.hasSuffix("»🦄\"") else { return nil }
                core = core.dropFirst().dropLast(3)
            }
            guard core.hasPrefix("offset:"), let offset = Int(core.dropFirst(7)), offset >= 0 else { return nil }
            return offset
        }
    }

    /// Cursors a client may still hold that name nothing now: deleted nodes of the list, and for
    /// offsets a position past its end.
    func staleCursors(of list: ServerList) -> [String] {
        var stale: [String] = []
        switch configuration.cursorStyle {
        case .node:
            for case .entity(let entity)? in list.items where !state.tables[entity.type].alive[entity.serial] {
                stale.append(cursor(for: .entity(entity), at: 0))
            }
            let core = "c-gone.\(list.items.count)"
            stale.append(configuration.decoratedCursors ? Self.decorate(core) : core)
        case .offset:
            let core = "offset:x\(list.items.count)"
            stale.append(configuration.decoratedCursors ? Self.decorate(core) : core)
        }
        return stale
    }
}
