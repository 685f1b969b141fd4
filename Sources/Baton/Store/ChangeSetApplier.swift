/// Applies a change set to a ``SourceView``: records, then deletions, then connection pages.
///
/// The same code applies a server commit to the base and an optimistic layer over the base, so a
/// layer re-applied after a server commit behaves exactly as it did the first time.
enum ChangeSetApplier {
    static let edgesSlot = SlotID.named("edges")
    static let pageInfoSlot = SlotID.named("pageInfo")
    static let nodeSlot = SlotID.named("node")
    static let nodesSlot = SlotID.named("nodes")
    static let endCursorSlot = SlotID.named("endCursor")
    static let startCursorSlot = SlotID.named("startCursor")
    static let hasNextPageSlot = SlotID.named("hasNextPage")
    static let hasPreviousPageSlot = SlotID.named("hasPreviousPage")

    /// Applies `changeSet` to `view`; answers the connection pages that joined nothing (an
    /// `after` or `before` that is not the cursor the connection holds, or no connection held).
    @discardableResult
    static func apply(_ changeSet: ChangeSet, to view: inout SourceView, mutant: Mutant? = nil) -> [ConnectionPage] {
        for change in changeSet.records {
            guard var data = view[change.key], !data.deleted else {
                // A new record takes the change's cells as they are; a record named again after its
                // deletion comes back with this payload's values only.
                view.write(change.key, RecordData(typename: change.typename, cells: change.cells), holdsEarlierCells: false)
                continue
            }
            if data.typename != change.typename { data.typename = change.typename }
            // Only cells that differ are written, so a payload that changes nothing leaves the
            // record's storage shared with the source (and equal at a glance).
            for (slot, cell) in change.cells where data.cells[slot] != cell {
                data.cells[slot] = cell
            }
            view.write(change.key, data, holdsEarlierCells: data.cells.count > change.cells.count)
        }
        for key in changeSet.deletions {
            let typename = view[key]?.typename ?? typenameFromKey(key)
            view.write(key, RecordData(typename: typename, deleted: true), holdsEarlierCells: false)
        }
        var notJoined: [ConnectionPage] = []
        for page in changeSet.connectionPages {
            let joined = applyPage(page, to: &view, mutant: mutant)
            if !joined { notJoined.append(page) }
        }
        return notJoined
    }

    /// The type of an entity key (`Type:id`), or `""` for keys that do not say.
    static func typenameFromKey(_ key: RecordKey) -> String {
        let raw = key.rawValue
        guard !raw.hasPrefix("client:"), let colon = raw.firstIndex(of: ":") else { return "" }
        return String(raw[..<colon])
    }

    // MARK: - Connections

    /// Applies one page; false when a joining page found no connection holding its cursor.
    private static func applyPage(_ page: ConnectionPage, to view: inout SourceView, mutant: Mutant?) -> Bool {
        guard var parent = view[page.parent], !parent.deleted else { return true }
        guard let serverKey = page.serverRecord, let server = view[serverKey], !server.deleted else {
            parent.cells[page.connectionSlot] = Cell(.null, errors: page.errors)
            view[page.parent] = parent
            return true
        }
        let existing = view[page.connectionRecord].flatMap { $0.deleted ? nil : $0 }
        let pageInfoKey = RecordKey(page.connectionRecord.rawValue + ":pageInfo")
        let existingPageInfo = existing.flatMap { linkTarget($0.cells[pageInfoSlot]) }.flatMap { view[$0] }

        switch page.mode {
        case .replace:
            break
        case .append(let after):
            guard existingPageInfo?.cells[endCursorSlot]?.value == .string(after) else { return false }
        case .prepend(let before):
            guard existingPageInfo?.cells[startCursorSlot]?.value == .string(before) else { return false }
        }

        // Copy the page's edges into records the connection owns.
        var nextIndex = 0
        let existingEdges: [RecordKey?]
        if case .links(let links)? = existing?.cells[edgesSlot]?.value, page.mode != .replace {
            existingEdges = links
        } else {
            existingEdges = []
        }
        // A replacing page numbers its copies from 0 (the old copies all leave the list); a page
        // that joins the list numbers them after the highest copy the connection holds.
        if page.mode != .replace, case .links(let links)? = existing?.cells[edgesSlot]?.value {
            for key in links.compactMap({ $0 }) {
                if let index = edgeIndex(key, connection: page.connectionRecord) {
                    nextIndex = mutant.isOn(.edgeCopiesNumberedFromLast) ? index + 1 : max(nextIndex, index + 1)
                }
            }
        }
        var copies: [RecordKey] = []
        if case .links(let serverEdges)? = server.cells[edgesSlot]?.value {
            for case let edgeKey? in serverEdges {
                guard let edge = view[edgeKey], !edge.deleted else { continue }
                let copyKey = RecordKey(page.connectionRecord.rawValue + ":edges:" + String(nextIndex))
                nextIndex += 1
                view[copyKey] = RecordData(typename: edge.typename, cells: edge.cells)
                copies.append(copyKey)
            }
        }
        let ordered: [RecordKey?]
        switch page.mode {
        case .replace: ordered = copies
        case .append: ordered = existingEdges + copies
        case .prepend: ordered = copies + existingEdges
        }
        let edges = deduplicatedByNode(ordered, in: view)

        var connection = existing ?? RecordData(typename: page.typename)
        connection.typename = page.typename
        for (slot, cell) in server.cells where slot != edgesSlot && slot != pageInfoSlot {
            if slot == nodesSlot, let pageNodes = Self.nodes(of: cell, mutant: mutant) {
                connection.cells[slot] = Cell(
                    .links(joinedNodes(pageNodes, held: existing?.cells[slot], mode: page.mode, mutant: mutant)),
                    errors: joinedErrors(held: existing?.cells[slot], page: cell, mode: page.mode, mutant: mutant))
            } else {
                connection.cells[slot] = cell
            }
        }
        connection.cells[edgesSlot] = Cell(
            .links(edges), errors: joinedErrors(held: existing?.cells[edgesSlot], page: server.cells[edgesSlot], mode: page.mode, mutant: mutant))

        if let serverPageInfoKey = linkTarget(server.cells[pageInfoSlot]), let serverPageInfo = view[serverPageInfoKey] {
            var pageInfo = existingPageInfo ?? RecordData(typename: serverPageInfo.typename)
            let updated: [SlotID]
            switch page.mode {
            case .replace: updated = Array(serverPageInfo.cells.keys)
            case .append: updated = [endCursorSlot, hasNextPageSlot]
            case .prepend: updated = [startCursorSlot, hasPreviousPageSlot]
            }
            for slot in updated {
                guard let cell = serverPageInfo.cells[slot] else { continue }
                // A page that joins the connection moves its cursor only when it brings one: an
                // empty last page says `null`, and the stored cursor must still match the next
                // page (Relay keeps it too). A refresh takes the page's info as it is.
                if case .replace = page.mode {} else if isCursor(slot), !isString(cell.value), !mutant.isOn(.nullCursorOverwrites) {
                    continue
                }
                pageInfo.cells[slot] = cell
            }
            view[pageInfoKey] = pageInfo
            connection.cells[pageInfoSlot] = Cell(.link(pageInfoKey))
        }
        view[page.connectionRecord] = connection
        parent.cells[page.connectionSlot] = Cell(.link(page.connectionRecord), errors: page.errors)
        view[page.parent] = parent
        return true
    }

    /// The nodes a page brings: its list of links, or none when its `nodes` failed (`null`, with
    /// the error that says so), so that the held ones stay as they do when `edges` fails; `nil`
    /// for any other value, copied like the connection's other fields.
    private static func nodes(of cell: Cell, mutant: Mutant?) -> [RecordKey?]? {
        switch cell.value {
        case .links(let links): links
        case .null where !mutant.isOn(.failedNodesWipeJoined): []
        default: nil
        }
    }

    /// The errors of a joined `edges` or `nodes` list: an edge or node that failed is left out of
    /// the list, as every null is, so its error is about the list, no element of it. A refreshing
    /// page's errors replace those held; a joining page's follow them (or, prepended, precede them).
    private static func joinedErrors(held: Cell?, page: Cell?, mode: ConnectionPage.Mode, mutant: Mutant?) -> [FieldError] {
        if mutant.isOn(.joinedListErrorsDropped) { return [] }
        let brought = (page?.errors ?? []).map { error in
            var error = error
            error.elementIndices = []
            return error
        }
        let kept = mode == .replace ? [] : held?.errors ?? []
        if case .prepend = mode { return brought + kept }
        return kept + brought
    }

    /// A page's `nodes` (a list of links) joined to the ones the connection holds, as its edges
    /// are: a refreshing page's alone, a later page's after them, an earlier page's before them;
    /// `null` items dropped and a node already held once dropped (the first kept). A deleted node
    /// stays, and reads as `null` at its place as in any list of links. A page without `nodes`
    /// leaves them as they are; any other value of `nodes` is copied like the connection's other
    /// fields.
    private static func joinedNodes(_ pageNodes: [RecordKey?], held: Cell?, mode: ConnectionPage.Mode, mutant: Mutant?) -> [RecordKey?] {
        var heldNodes: [RecordKey?] = []
        if case .links(let links)? = held?.value, !mutant.isOn(.connectionNodesReplaced) { heldNodes = links }
        let ordered: [RecordKey?]
        switch mode {
        case .replace: ordered = pageNodes
        case .append: ordered = heldNodes + pageNodes
        case .prepend: ordered = pageNodes + heldNodes
        }
        var seen = Set<RecordKey>()
        var joined: [RecordKey?] = []
        for case let key? in ordered where seen.insert(key).inserted {
            joined.append(key)
        }
        return joined
    }

    /// Null and deleted edges dropped; an edge whose node another edge already holds is dropped
    /// (first kept). An edge memory does not hold is kept as it is: nothing says it repeats a node.
    private static func deduplicatedByNode(_ edges: [RecordKey?], in view: SourceView) -> [RecordKey?] {
        var seen = Set<RecordKey>()
        var out: [RecordKey?] = []
        for case let key? in edges {
            guard let edge = view[key] else {
                out.append(key)
                continue
            }
            guard !edge.deleted else { continue }
            if let node = linkTarget(edge.cells[nodeSlot]) {
                guard seen.insert(node).inserted else { continue }
            }
            out.append(key)
        }
        return out
    }

    private static func isCursor(_ slot: SlotID) -> Bool {
        slot == endCursorSlot || slot == startCursorSlot
    }

    private static func isString(_ value: Value) -> Bool {
        if case .string = value { return true }
        return false
    }

    private static func linkTarget(_ cell: Cell?) -> RecordKey? {
        if case .link(let key)? = cell?.value { return key }
        return nil
    }

    /// The index of an edge copy `<connection>:edges:<n>`.
    private static func edgeIndex(_ key: RecordKey, connection: RecordKey) -> Int? {
        let prefix = connection.rawValue + ":edges:"
        guard key.rawValue.hasPrefix(prefix) else { return nil }
        return Int(key.rawValue.dropFirst(prefix.count))
    }
}
