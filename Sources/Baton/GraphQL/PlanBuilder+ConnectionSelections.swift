/// What a `@connection` field must select for its pages to merge.
///
/// The store merges a connection's pages through its edges or its `nodes`, and a page joins the
/// connection only when its `after` (or `before`) is the end (or start) cursor the connection
/// already holds. A selection without those parts built a plan whose later pages were dropped
/// without a word, so it is refused here with the reason instead.
extension PlanBuilder {
    /// Throws when `selections` of the `@connection` field `field` cannot merge pages: neither
    /// `edges { node }` nor `nodes` (each without arguments), or a paging argument without the
    /// cursor it is matched against.
    func checkConnectionSelections(
        _ selections: SelectionSet?, field: String, pagingArguments: Set<String>, at location: GraphQLLocation
    ) throws {
        let top = ConnectionSelectionNames(selections)
        let edges = top.fields["edges"].map { !$0.hasArguments && ConnectionSelectionNames($0.selections).fields["node"] != nil } ?? false
        let nodes = top.fields["nodes"].map { !$0.hasArguments } ?? false
        guard edges || nodes, top.fields["edges"]?.hasArguments != true, top.fields["nodes"]?.hasArguments != true else {
            throw GraphQLError(
                "@connection on \"\(field)\" needs edges { node } or nodes (without arguments): pages merge through them", at: location)
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
