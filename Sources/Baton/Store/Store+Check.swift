extension Store {
    /// The availability check: walks `plan` from its root and answers available (fresh or stale,
    /// with the fetch time) or missing.
    ///
    /// Memory answers first. When it cannot, the same walk runs again inside one read transaction
    /// of the image and fills what memory lacks (hydration): memory's cells win, and every record
    /// whose row was read becomes hydrated. Runs on the main actor, synchronously.
    public func check(_ plan: Plan, variables: Variables, expiration: Double? = nil) -> Availability {
        var source = Availability.Source.memory
        var memoryWalk = AvailabilityWalk(store: self, variables: variables, transaction: nil, rootTypename: plan.rootTypename)
        var available = memoryWalk.available(plan.selections, at: plan.rootKey)
        let operation = plan.identity(variables)
        if !available, let image {
            let answer: Bool? = image.read { transaction in
                var walk = AvailabilityWalk(store: self, variables: variables, transaction: transaction, rootTypename: plan.rootTypename)
                let result = walk.available(plan.selections, at: plan.rootKey)
                if fetches[operation] == nil, let time = transaction.fetchTime(operation) {
                    fetches[operation] = Fetch(time: time, sequence: 0)
                }
                finishHydration(walk.filled)
                return result
            }
            if answer == true {
                available = true
                source = .image
            }
        } else if available, fetches[operation] == nil, let image {
            if let time = image.read({ $0.fetchTime(operation) }) ?? nil {
                fetches[operation] = Fetch(time: time, sequence: 0)
            }
        }
        guard available else { return .missing }
        let fetch = fetches[operation]
        return .available(freshness(of: fetch, expiration: expiration ?? configuration.defaultExpiration), fetchTime: fetch?.time, source: source)
    }

    /// Marks every operation fetched so far as stale; a later fetch makes its operation fresh again.
    public func invalidate() {
        invalidatedThrough = commitSequence
    }

    /// The last fetch time of `operation`, if memory knows it.
    public func fetchTime(of operation: OperationIdentity) -> Double? {
        fetches[operation]?.time
    }

    func freshness(of fetch: Fetch?, expiration: Double?) -> Availability.Freshness {
        guard let fetch else {
            // Unknown age is stale wherever an expiration (or an invalidation) applies.
            return expiration == nil && invalidatedThrough < 0 ? .fresh : .stale
        }
        if fetch.sequence <= invalidatedThrough { return .stale }
        if let expiration, clock.now() - fetch.time >= expiration { return .stale }
        return .fresh
    }

    // MARK: - Hydration

    /// Fills `key` from its image row: memory's cells win; the record becomes hydrated.
    /// Returns true when memory changed.
    func hydrate(_ key: RecordKey, from transaction: any ImageReadTransaction) -> Bool {
        guard key != .queryRoot, !hydrated.contains(key) else { return false }
        let row: ImageRecord?
        switch transaction.record(key) {
        case .unreadable:
            // Nothing is known of the row: a miss for this walk, and the record stays
            // unhydrated, so its next snapshot merges over the row instead of replacing it.
            if !configuration.mutant.isOn(.failedReadHydrates) { return false }
            row = nil
        case .absent:
            row = nil
        case .found(let record):
            row = record
        }
        hydrated.insert(key)
        switch row {
        case nil:
            return false
        case .deleted(let typename)?:
            if let existing = base[key], existing.deleted || !existing.cells.isEmpty { return false }
            base[key] = RecordData(typename: typename, deleted: true)
            return true
        case .present(let typename, let cells)?:
            let existing = base[key]
            if existing?.deleted == true { return false }
            let slots = SlotTable.shared.slots(cells.lazy.map(\.storageKey))
            guard var data = existing else {
                var fresh: [SlotID: Cell] = Dictionary(minimumCapacity: cells.count)
                for (slot, named) in zip(slots, cells) { fresh[slot] = named.cell }
                base[key] = RecordData(typename: typename, cells: fresh)
                return true
            }
            var changed = false
            for (slot, named) in zip(slots, cells) where data.cells[slot] == nil {
                data.cells[slot] = named.cell
                changed = true
            }
            if changed { base[key] = data }
            return changed
        }
    }

    /// Fills one query-root field from its image row. Returns true when memory changed.
    func hydrateRootField(_ slot: SlotID, typename: String, from transaction: any ImageReadTransaction) -> Bool {
        if base[.queryRoot]?.cells[slot] != nil { return false }
        guard let cell = transaction.rootField(slot.name) else { return false }
        var root = base[.queryRoot] ?? RecordData(typename: typename)
        root.cells[slot] = cell
        base[.queryRoot] = root
        return true
    }

    /// Brings the overlay and the observable objects up to date after hydration.
    func finishHydration(_ filled: Set<RecordKey>) {
        guard !filled.isEmpty else { return }
        var affected = filled
        if !layers.isEmpty { affected.formUnion(rebuildOverlay()) }
        refreshObjects(affected)
    }
}

/// One walk of the availability check, from memory alone or with an image transaction at hand.
@MainActor
struct AvailabilityWalk {
    let store: Store
    let variables: Variables
    let transaction: (any ImageReadTransaction)?
    let rootTypename: String
    /// Keys whose memory changed during this walk.
    private(set) var filled = Set<RecordKey>()
    private var known = Set<VisitKey>()

    init(store: Store, variables: Variables, transaction: (any ImageReadTransaction)?, rootTypename: String) {
        self.store = store
        self.variables = variables
        self.transaction = transaction
        self.rootTypename = rootTypename
    }

    /// True when every field `set` selects is present from `key` down.
    mutating func available(_ set: SelectionSet, at key: RecordKey) -> Bool {
        let visit = VisitKey(key: key, set: ObjectIdentifier(set))
        if known.contains(visit) { return true }
        guard var data = lookup(key) else { return false }
        if data.deleted { return true }
        for field in set.fields(for: data.typename, variables: variables) where !field.isTypename {
            let slot = field.readSlot(variables)
            if data.cells[slot] == nil, fill(slot, of: key) {
                data = store.visible(key) ?? data
            }
            guard let cell = data.cells[slot] else { return false }
            if let subselections = field.selections {
                guard linksAvailable(cell.value, subselections) else { return false }
            }
        }
        known.insert(visit)
        return true
    }

    private mutating func linksAvailable(_ value: Value, _ set: SelectionSet) -> Bool {
        switch value {
        case .link(let key):
            return available(set, at: key)
        case .links(let keys):
            for case let key? in keys where !available(set, at: key) { return false }
            return true
        case .list(let items):
            for item in items where !linksAvailable(item, set) { return false }
            return true
        default:
            return true
        }
    }

    /// The visible record, hydrating it first when memory lacks it and an image is at hand.
    private mutating func lookup(_ key: RecordKey) -> RecordData? {
        if let data = store.visible(key) { return data }
        guard let transaction else { return nil }
        if key == .queryRoot { return RecordData(typename: rootTypename) }
        if store.hydrate(key, from: transaction) { noteFilled(key) }
        return store.visible(key)
    }

    /// The one place where memory lacks a slot: the image fills it if it can.
    private mutating func fill(_ slot: SlotID, of key: RecordKey) -> Bool {
        guard let transaction else { return false }
        let changed = key == .queryRoot
            ? store.hydrateRootField(slot, typename: rootTypename, from: transaction)
            : store.hydrate(key, from: transaction)
        if changed { noteFilled(key) }
        return changed
    }

    private mutating func noteFilled(_ key: RecordKey) {
        filled.insert(key)
        if store.overlay[key] != nil {
            filled.formUnion(store.rebuildOverlay())
        }
    }
}

/// A record reached through a selection set: the memo key of walks.
struct VisitKey: Hashable {
    let key: RecordKey
    let set: ObjectIdentifier
}
