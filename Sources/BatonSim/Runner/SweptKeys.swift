import Baton

/// Which records and query-root fields a collection swept from the store's memory, found by
/// comparing memory before and after it (the store's own result only counts them).
struct SweptKeys {
    // Compared by their bytes: two spellings of one text are two keys (`OracleText`).
    private let keys: Set<OracleText>
    private let rootSlots: Set<OracleText>

    /// What one collection swept, each list sorted.
    struct Swept {
        var records: [OracleText]
        var rootFields: [OracleText]

        /// The keys the store and the model disagree on, one line each.
        func differences(expected: ExpectedCollection) -> [String] {
            func lines(_ actual: [OracleText], _ expected: [OracleText], _ prefix: String) -> [String] {
                let (a, e) = (Set(actual), Set(expected))
                return e.union(a).sorted().compactMap { key in
                    switch (e.contains(key), a.contains(key)) {
                    case (true, false): "\(prefix)\(Legible.text(key)) swept: expected true ≠ actual false (the store kept it)"
                    case (false, true): "\(prefix)\(Legible.text(key)) swept: expected false ≠ actual true (the model keeps it)"
                    default: nil
                    }
                }
            }
            return lines(records, expected.swept, "") + lines(rootFields, expected.sweptRootFields, "root.")
        }
    }

    /// Memory before the collection.
    @MainActor
    init(_ store: Store) {
        keys = Self.keys(store)
        rootSlots = Self.rootSlots(store)
    }

    /// What left memory since.
    @MainActor
    func swept(_ store: Store) -> Swept {
        let records = keys.subtracting(Self.keys(store)).sorted()
        let fields = rootSlots.subtracting(Self.rootSlots(store)).sorted()
        return Swept(records: records, rootFields: fields)
    }

    @MainActor
    private static func keys(_ store: Store) -> Set<OracleText> {
        Set(store.baseKeys.map { OracleText($0.rawValue) })
    }

    @MainActor
    private static func rootSlots(_ store: Store) -> Set<OracleText> {
        Set(store.baseData(of: .queryRoot)?.cells.keys.map { OracleText($0.name) } ?? [])
    }
}
