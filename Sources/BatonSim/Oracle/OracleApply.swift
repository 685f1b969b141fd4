/// Reads through to some records and keeps its own writes apart: a response is applied to one,
/// for the base and for optimistic layers alike.
struct OracleView {
    let fallback: (OracleText) -> OracleRecord?
    private(set) var writes: [OracleText: OracleRecord] = [:]

    init(fallback: @escaping (OracleText) -> OracleRecord?) {
        self.fallback = fallback
    }

    subscript(key: OracleText) -> OracleRecord? {
        get { writes[key] ?? fallback(key) }
        set { writes[key] = newValue }
    }
}

/// What applying one response did, for the coverage counters (server commits only count).
struct OracleApplyReport {
    var deletions = 0
    var revivals = 0
    var firstPages = 0
    var appends = 0
    var prepends = 0
    var refreshes = 0
    var ignoredPages = 0
    /// The connection records of the pages that joined nothing, in the order they came.
    var notJoined: [OracleText] = []
    var deduplicatedEdges = 0
    /// The connection records the response's pages wrote.
    var connections: [OracleText] = []
}

/// The commit rules: a response's records, then its deletions, then its connection pages.
enum OracleApply {
    static let edges: OracleText = "edges"
    static let pageInfo: OracleText = "pageInfo"
    static let node: OracleText = "node"
    static let nodes: OracleText = "nodes"
    static let endCursor: OracleText = "endCursor"
    static let startCursor: OracleText = "startCursor"
    static let hasNextPage: OracleText = "hasNextPage"
    static let hasPreviousPage: OracleText = "hasPreviousPage"

    /// Applies `response` to `view`: slot by slot over what the view holds, except that a record
    /// named again after its deletion keeps only what this response wrote.
    static func apply(_ response: ModelResponse, to view: inout OracleView) -> OracleApplyReport {
        var report = OracleApplyReport()
        for key in response.order {
            guard let write = response.records[key] else { continue }
            var record: OracleRecord
            if let existing = view[key], !existing.deleted {
                record = existing
                record.typename = write.typename
            } else {
                if view[key]?.deleted == true { report.revivals += 1 }
                record = OracleRecord(typename: write.typename)
            }
            for (slot, cell) in write.cells { record.cells[slot] = cell }
            view[key] = record
        }
        for key in response.deletions {
            let typename = view[key]?.typename ?? typenameOfKey(key)
            view[key] = .deleted(typename)
            report.deletions += 1
        }
        for page in response.pages {
            apply(page, to: &view, report: &report)
        }
        return report
    }

    /// The type an entity key names (`Type` of `Type:id`); empty for client keys and keys
    /// without a colon.
    static func typenameOfKey(_ key: OracleText) -> String {
        guard !key.hasPrefix("client:"), let colon = key.string.utf8.firstIndex(of: UInt8(ascii: ":")) else { return "" }
        return String(decoding: key.string.utf8[..<colon], as: UTF8.self)
    }

    // MARK: Connections

    static func apply(_ page: OraclePage, to view: inout OracleView, report: inout OracleApplyReport) {
        guard var parent = view[page.parent], !parent.deleted else { return }
        guard let serverKey = page.server, let server = view[serverKey], !server.deleted else {
            parent.cells[page.slot] = OracleCell(.null, errors: page.errors)
            view[page.parent] = parent
            return
        }
        let existing = view[page.connection].flatMap { $0.deleted ? nil : $0 }
        let storedInfo = existing?.cells[pageInfo]?.value.linkTarget.flatMap { view[$0] }
        switch page.mode {
        case .replace:
            if existing == nil { report.firstPages += 1 } else { report.refreshes += 1 }
        case .append(let after):
            guard storedInfo?.cells[endCursor]?.value == .string(after) else {
                report.ignoredPages += 1
                report.notJoined.append(page.connection)
                return
            }
            report.appends += 1
        case .prepend(let before):
            guard storedInfo?.cells[startCursor]?.value == .string(before) else {
                report.ignoredPages += 1
                report.notJoined.append(page.connection)
                return
            }
            report.prepends += 1
        }

        // The edges the connection holds (kept unless the page replaces them), and where the
        // numbering of new copies starts: after the highest copy held, or at 0 for a refresh.
        var held: [OracleText?] = []
        var next = 0
        if page.mode != .replace, case .links(let links)? = existing?.cells[edges]?.value {
            held = links
            for case let key? in links {
                if let index = OracleKeys.edgeCopyIndex(key, of: page.connection) { next = max(next, index + 1) }
            }
        }
        var copies: [OracleText?] = []
        if case .links(let serverEdges)? = server.cells[edges]?.value {
            for case let edgeKey? in serverEdges {
                guard let edge = view[edgeKey], !edge.deleted else { continue }
                let copy = OracleKeys.edgeCopy(of: page.connection, index: next)
                next += 1
                view[copy] = OracleRecord(typename: edge.typename, cells: edge.cells)
                copies.append(copy)
            }
        }
        let ordered: [OracleText?]
        switch page.mode {
        case .replace: ordered = copies
        case .append: ordered = held + copies
        case .prepend: ordered = copies + held
        }
        let kept = deduplicated(ordered, in: view, report: &report)

        var connection = existing ?? OracleRecord(typename: page.typename)
        connection.typename = page.typename
        for (slot, cell) in server.cells where slot != edges && slot != pageInfo {
            connection.cells[slot] = cell
        }
        connection.cells[edges] = OracleCell(.links(kept), errors: listErrors(existing?.cells[edges], server.cells[edges], page.mode))
        // A list of links in `nodes` joins what the connection holds as edges do (a repeated node
        // keeps its first place, a deleted one stays: it reads as null). A page whose `nodes`
        // failed (`null`) brings none: the held ones stay, as held edges do when `edges` fails,
        // and the error goes with them. Any other value was copied above like the connection's
        // other fields.
        let broughtNodes: [OracleText?]? = switch server.cells[nodes]?.value {
        case .links(let links)?: links
        case .null?: []
        default: nil
        }
        if let brought = broughtNodes {
            var before: [OracleText?] = []
            if page.mode != .replace, case .links(let links)? = existing?.cells[nodes]?.value { before = links }
            let joined: [OracleText?] = switch page.mode {
            case .replace: brought
            case .append: before + brought
            case .prepend: brought + before
            }
            var met = Set<OracleText>()
            connection.cells[nodes] = OracleCell(
                .links(joined.compactMap { $0 }.filter { met.insert($0).inserted }),
                errors: listErrors(existing?.cells[nodes], server.cells[nodes], page.mode))
        }

        if let serverInfoKey = server.cells[pageInfo]?.value.linkTarget, let serverInfo = view[serverInfoKey] {
            let infoKey = OracleKeys.pageInfo(of: page.connection)
            var info = storedInfo ?? OracleRecord(typename: serverInfo.typename)
            let slots: [OracleText]
            switch page.mode {
            case .replace: slots = Array(serverInfo.cells.keys)
            case .append: slots = [endCursor, hasNextPage]
            case .prepend: slots = [startCursor, hasPreviousPage]
            }
            for slot in slots {
                guard let cell = serverInfo.cells[slot] else { continue }
                // A joining page moves a cursor only when it brings a string (an empty last page
                // says null, and the next page must still meet the stored cursor).
                if page.mode != .replace, slot == endCursor || slot == startCursor {
                    guard case .string = cell.value else { continue }
                }
                info.cells[slot] = cell
            }
            view[infoKey] = info
            connection.cells[pageInfo] = OracleCell(.link(infoKey))
        }
        view[page.connection] = connection
        parent.cells[page.slot] = OracleCell(.link(page.connection), errors: page.errors)
        view[page.parent] = parent
        report.connections.append(page.connection)
    }

    /// The errors of the connection's joined `edges` or `nodes`: the page's (each about the list,
    /// since the null an item's failure left is not kept in the joined list) after the held ones
    /// for a later page, before them for an earlier one, alone for a refresh.
    static func listErrors(_ held: OracleCell?, _ brought: OracleCell?, _ mode: OraclePage.Mode) -> [OracleFieldError] {
        let new = (brought?.errors ?? []).map { error in
            var error = error
            error.elementIndices = []
            return error
        }
        switch mode {
        case .replace: return new
        case .append: return (held?.errors ?? []) + new
        case .prepend: return new + (held?.errors ?? [])
        }
    }

    /// Null and deleted edges dropped; an edge whose node an earlier edge holds dropped (the
    /// first kept); an edge memory does not hold kept as it is (nothing says what it holds).
    static func deduplicated(_ edges: [OracleText?], in view: OracleView, report: inout OracleApplyReport) -> [OracleText?] {
        var nodes = Set<OracleText>()
        var kept: [OracleText?] = []
        for case let key? in edges {
            guard let edge = view[key] else {
                kept.append(key)
                continue
            }
            if edge.deleted { continue }
            if let target = edge.cells[node]?.value.linkTarget, !nodes.insert(target).inserted {
                report.deduplicatedEdges += 1
                continue
            }
            kept.append(key)
        }
        return kept
    }
}
