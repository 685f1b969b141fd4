/// What a `@connection` field must select for its pages to merge.
///
/// The store merges a connection's pages edge by edge, and a page joins the connection only when
/// its `after` (or `before`) is the end (or start) cursor the connection already holds. A
/// selection without those parts builds a plan that reads as missing after its second page, or
/// shows only the last page, so it is refused here with the reason instead.
extension PlanBuilder {
    /// Throws when `selections` of the `@connection` field `field` cannot merge pages: no
    /// `edges { node }`, `nodes` beside the edges, or a paging argument without the cursor it is
    /// matched against.
    func checkConnectionSelections(
        _ selections: SelectionSet?, field: String, pagingArguments: Set<String>, at location: GraphQLLocation
    ) throws {
        let top = ConnectionSelectionNames(selections)
        if top.fields["nodes"] != nil {
            throw GraphQLError(
                "@connection on \"\(field)\" cannot select \"nodes\": pages merge through edges, so nodes would hold only the last page; select edges { node } instead",
                at: location)
        }
        guard let edges = top.fields["edges"], !edges.hasArguments, ConnectionSelectionNames(edges.selections).fields["node"] != nil else {
            throw GraphQLError(
                "@connection on \"\(field)\" needs edges { node } (without arguments): pages merge edge by edge", at: location)
        }
        let pageInfo = ConnectionSelectionNames(top.fields["pageInfo"]?.selections ?? [])
        for (argument, cursor) in [("after", "endCursor"), ("before", "startCursor")]
        where pagingArguments.contains(argument) && pageInfo.fields[cursor] == nil {
            throw GraphQLError(
                "@connection on \"\(field)\" pages with \"\(argument)\", so it needs pageInfo { \(cursor) }: a page joins the connection only at the \(cursor) it holds",
                at: location)
        }
    }
}

/// The fields one selection set selects by name, through fragments and conditions (a field that
/// may be selected counts), with the sub-selections of every occurrence.
private struct ConnectionSelectionNames {
    struct Occurrences {
        var selections: [SelectionSet] = []
        var hasArguments = false
    }

    private(set) var fields: [String: Occurrences] = [:]

    init(_ set: SelectionSet?) {
        if let set { collect(set) }
    }

    init(_ sets: [SelectionSet]) {
        for set in sets { collect(set) }
    }

    private mutating func collect(_ set: SelectionSet) {
        for selection in set.selections {
            switch selection {
            case .field(let field):
                var occurrences = fields[field.name] ?? Occurrences()
                if let selections = field.selections { occurrences.selections.append(selections) }
                if !field.arguments.isEmpty { occurrences.hasArguments = true }
                fields[field.name] = occurrences
            case .fragment(_, let nested), .condition(_, _, let nested):
                collect(nested)
            }
        }
    }
}
