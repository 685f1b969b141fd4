/// A field of a selection set with every sub-selection that shares its response key.
struct MergedField: Sendable {
    let field: FieldSelection
    var subselections: [SelectionSet]
}

extension SelectionSet {
    /// The fields that apply to a record of `typename`, one per response key in document order,
    /// with the sub-selections of fields that share a response key merged.
    func mergedFields(for typename: String, variables: Variables) -> [MergedField] {
        if isCacheable, let cached = mergedCache.withLock({ $0[typename] }) { return cached }
        var merged: [MergedField] = []
        var index: [String: Int] = [:]
        for field in fields(for: typename, variables: variables) {
            if let at = index[field.responseKey] {
                if let set = field.selections { merged[at].subselections.append(set) }
            } else {
                index[field.responseKey] = merged.count
                merged.append(MergedField(field: field, subselections: field.selections.map { [$0] } ?? []))
            }
        }
        if isCacheable { mergedCache.withLock { $0[typename] = merged } }
        return merged
    }
}

extension FieldSelection {
    /// The slot the store reads for this field: a `@connection` field reads its client connection
    /// record through `__key_connection(filters)`; any other field reads its storage key.
    func readSlot(_ variables: Variables) -> SlotID {
        if connection != nil, let key = connectionStorageKey(variables) {
            return SlotID.named(key)
        }
        return slot(variables)
    }
}
