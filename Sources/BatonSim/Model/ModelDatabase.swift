import Baton

/// The reference model's records: key → record, with the store's rules written out plainly.
///
/// Server data merges slot by slot; `@deleteRecord` leaves a deleted record with no cells; a
/// record named again after its deletion holds only the new payload's values; a connection owns
/// copies of its edges, appending after its end cursor, prepending before its start cursor,
/// replacing without a cursor, ignoring a page whose cursor does not match, and dropping null
/// edges and repeated nodes (the first kept).
package struct ModelDatabase: Hashable, Sendable {
    package var records: [RecordKey: ModelRecord] = [:]

    package init(records: [RecordKey: ModelRecord] = [:]) {
        self.records = records
    }

    /// Applies a change set; returns the keys whose records changed.
    ///
    /// A page with a cursor joins a connection only when the store's memory holds the connection
    /// (`heldConnections`, `nil`: every connection counts as held): the store matches cursors
    /// against memory, since only the check reads the image.
    @discardableResult
    package mutating func apply(_ changeSet: ChangeSet, heldConnections: Set<RecordKey>? = nil) -> Set<RecordKey> {
        let before = records
        for change in changeSet.records {
            var record = records[change.key] ?? ModelRecord(typename: change.typename)
            if record.deleted {
                record = ModelRecord(typename: change.typename)
            }
            record.typename = change.typename
            for (slot, cell) in change.cells {
                record.cells[slot.name] = cell
            }
            records[change.key] = record
        }
        for key in changeSet.deletions {
            let typename = records[key]?.typename ?? Self.typename(ofEntityKey: key)
            records[key] = ModelRecord(typename: typename, deleted: true)
        }
        for page in changeSet.connectionPages {
            if page.mode != .replace, let held = heldConnections, !held.contains(page.connectionRecord) { continue }
            applyPage(page)
        }
        var changed = Set<RecordKey>()
        for (key, record) in records where before[key] != record {
            changed.insert(key)
        }
        return changed
    }

    static func typename(ofEntityKey key: RecordKey) -> String {
        let raw = key.rawValue
        guard !raw.hasPrefix("client:"), let colon = raw.firstIndex(of: ":") else { return "" }
        return String(raw[..<colon])
    }

    private func live(_ key: RecordKey?) -> ModelRecord? {
        guard let key, let record = records[key], !record.deleted else { return nil }
        return record
    }

    private static func link(_ cell: Cell?) -> RecordKey? {
        if case .link(let key)? = cell?.value { return key }
        return nil
    }

    private mutating func applyPage(_ page: ConnectionPage) {
        guard var parent = live(page.parent) else { return }
        let slotName = page.connectionSlot.name
        guard let server = live(page.serverRecord) else {
            parent.cells[slotName] = Cell(.null)
            records[page.parent] = parent
            return
        }
        let connectionKey = page.connectionRecord
        let pageInfoKey = RecordKey(connectionKey.rawValue + ":pageInfo")
        let connection = live(connectionKey)
        let storedPageInfo = live(Self.link(connection?.cells["pageInfo"]))
        switch page.mode {
        case .replace:
            break
        case .append(let after):
            if storedPageInfo?.cells["endCursor"]?.value != .string(after) { return }
        case .prepend(let before):
            if storedPageInfo?.cells["startCursor"]?.value != .string(before) { return }
        }

        var storedEdges: [RecordKey] = []
        if case .links(let keys)? = connection?.cells["edges"]?.value {
            storedEdges = keys.compactMap { $0 }
        }
        var next = 0
        let prefix = connectionKey.rawValue + ":edges:"
        for key in storedEdges where page.mode != .replace && key.rawValue.hasPrefix(prefix) {
            if let index = Int(key.rawValue.dropFirst(prefix.count)) { next = max(next, index + 1) }
        }
        var copies: [RecordKey] = []
        if case .links(let serverEdges)? = server.cells["edges"]?.value {
            for edgeKey in serverEdges {
                guard let edge = live(edgeKey) else { continue }
                let copy = RecordKey(prefix + String(next))
                next += 1
                records[copy] = ModelRecord(typename: edge.typename, cells: edge.cells)
                copies.append(copy)
            }
        }
        let candidates: [RecordKey]
        switch page.mode {
        case .replace: candidates = copies
        case .append: candidates = storedEdges + copies
        case .prepend: candidates = copies + storedEdges
        }
        var nodes = Set<RecordKey>()
        var edges: [RecordKey?] = []
        for key in candidates {
            guard let edge = live(key) else { continue }
            if let node = Self.link(edge.cells["node"]), !nodes.insert(node).inserted { continue }
            edges.append(key)
        }

        var updated = connection ?? ModelRecord(typename: page.typename)
        updated.typename = page.typename
        for (name, cell) in server.cells where name != "edges" && name != "pageInfo" {
            updated.cells[name] = cell
        }
        updated.cells["edges"] = Cell(.links(edges))
        if let serverPageInfo = live(Self.link(server.cells["pageInfo"])) {
            var pageInfo = storedPageInfo ?? ModelRecord(typename: serverPageInfo.typename)
            let names: [String]
            switch page.mode {
            case .replace: names = Array(serverPageInfo.cells.keys)
            case .append: names = ["endCursor", "hasNextPage"]
            case .prepend: names = ["startCursor", "hasPreviousPage"]
            }
            for name in names {
                guard let cell = serverPageInfo.cells[name] else { continue }
                if page.mode != .replace, name.hasSuffix("Cursor") {
                    guard case .string = cell.value else { continue }
                }
                pageInfo.cells[name] = cell
            }
            records[pageInfoKey] = pageInfo
            updated.cells["pageInfo"] = Cell(.link(pageInfoKey))
        }
        records[connectionKey] = updated
        parent.cells[slotName] = Cell(.link(connectionKey))
        records[page.parent] = parent
    }
}
