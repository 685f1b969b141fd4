extension Store {
    /// The availability check: walks `plan` from its root and answers available (fresh or stale,
    /// with the fetch time) or missing.
    ///
    /// Memory answers first. When it cannot, the same walk runs again inside one read transaction
    /// of the image and fills what memory lacks (hydration): memory's cells win, and every record
    /// whose row was read becomes hydrated. Runs on the main actor, synchronously.
    ///
    /// Under an `expiration` (or the configuration's default) the data is stale once its last
    /// fetch is that many seconds old, when its age is unknown, and when the fetch lies after the
    /// clock's now (the device's clock was set back since); an invalidation stales what was
    /// fetched before it.
    public func check(_ plan: Plan, variables: Variables, expiration: Double? = nil) -> Availability {
        var source = Availability.Source.memory
        var memoryWalk = AvailabilityWalk(store: self, plan: plan, variables: variables, transaction: nil, capacity: base.idCount)
        var available = memoryWalk.run(in: &base)
        let operation = plan.identity(variables)
        if !available, let image {
            let answer: Bool? = image.read { transaction in
                var walk = AvailabilityWalk(store: self, plan: plan, variables: variables, transaction: transaction, capacity: base.idCount)
                let result = walk.run(in: &base)
                if fetches[operation] == nil, let time = transaction.fetchTime(operation) {
                    fetches[operation] = Fetch(time: time, sequence: 0)
                }
                finishHydration(walk.filled, overlayTouched: walk.overlayTouched)
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
        return .available(freshness(of: fetch, expiration: effectiveExpiration(expiration)), fetchTime: fetch?.time, source: source)
    }

    /// Marks every operation fetched so far as stale; a later fetch makes its operation fresh again.
    public func invalidate() {
        invalidatedThrough = commitSequence
    }

    /// The last fetch time of `operation`, if memory knows it.
    public func fetchTime(of operation: OperationIdentity) -> Double? {
        fetches[operation]?.time
    }

    /// The expiration a check applies: its own, else the store's default.
    private func effectiveExpiration(_ given: Double?) -> Double? {
        if configuration.mutant.isOn(.defaultExpirationIgnored) { return given }
        if configuration.mutant.isOn(.defaultExpirationOverrides) { return configuration.defaultExpiration ?? given }
        return given ?? configuration.defaultExpiration
    }

    func freshness(of fetch: Fetch?, expiration: Double?) -> Availability.Freshness {
        guard let fetch else {
            // Unknown age is stale wherever an expiration (or an invalidation) applies.
            return expiration == nil && invalidatedThrough < 0 ? .fresh : .stale
        }
        let invalidated = configuration.mutant.isOn(.invalidationSparesLast)
            ? fetch.sequence < invalidatedThrough : fetch.sequence <= invalidatedThrough
        if invalidated { return .stale }
        guard let expiration else { return .fresh }
        let age = clock.now() - fetch.time
        // A fetch stamped after now means the clock was set back since: its age is unknown, and
        // an unknown age is stale (counting it young would keep it fresh until the clock passed it).
        if age < 0, !configuration.mutant.isOn(.clockSetBackKeepsFresh) { return .stale }
        return age >= expiration ? .stale : .fresh
    }

    // MARK: - Hydration

    /// Fills the record `id` of `base` (the store's memory, passed in by the walk) from its image
    /// row: memory's cells win; the record becomes hydrated. Returns true when memory changed.
    func hydrate(_ id: Int, in base: inout RecordMemory, from reader: HydrationReader) -> Bool {
        let key = base.keys[id]
        guard key != .queryRoot, !base.has(.hydrated, id) else { return false }
        let row: SlotRow?
        switch reader.record(key) {
        case .unreadable:
            // Nothing is known of the row: a miss for this walk, and the record stays
            // unhydrated, so its next snapshot merges over the row instead of replacing it.
            if !configuration.mutant.isOn(.failedReadHydrates) { return false }
            row = nil
        case .absent:
            row = nil
        case .found(let found):
            row = found
        }
        base.insert(.hydrated, id)
        guard let row else { return false }
        let existing = base.data[id]
        if row.deleted {
            // Memory's own record wins, even one without cells (a record this launch's responses
            // named with nothing but its type): until 2026-12-06 such a record was made deleted.
            if existing != nil { return false }
            base.set(id: id, RecordData(typename: row.typename, deleted: true))
            return true
        }
        if existing?.deleted == true { return false }
        guard var data = existing else {
            base.set(id: id, RecordData(typename: row.typename, cells: row.cells))
            return true
        }
        var changed = false
        for (slot, cell) in row.cells where data.cells[slot] == nil {
            data.cells[slot] = cell
            changed = true
        }
        if changed { base.set(id: id, data) }
        return changed
    }

    /// Fills one query-root field of `base` from its image row. Returns true when memory changed.
    func hydrateRootField(
        _ slot: SlotID, typename: String, in base: inout RecordMemory, from transaction: any ImageReadTransaction
    ) -> Bool {
        if base[.queryRoot]?.cells[slot] != nil { return false }
        guard let cell = transaction.rootField(slot.name) else { return false }
        var root = base[.queryRoot] ?? RecordData(typename: typename)
        root.cells[slot] = cell
        base[.queryRoot] = root
        return true
    }

    /// Brings the overlay and the observable objects up to date after hydration: `filled` are the
    /// ids whose memory changed, `overlayTouched` the keys the overlay's rebuilding touched.
    func finishHydration(_ filled: [Int], overlayTouched: Set<RecordKey>) {
        guard !filled.isEmpty else { return }
        var affected = overlayTouched
        if !layers.isEmpty { affected.formUnion(rebuildOverlay()) }
        guard !objects.isEmpty else { return }
        affected.formUnion(filled.lazy.map { self.base.keys[$0] })
        refreshObjects(affected)
    }
}

/// One walk of the availability check, from memory alone or with an image transaction at hand.
///
/// Follows record ids through memory's ``RecordOutlines``; a record reached again through the same
/// selection set answers from the set's marks (only records found available are marked: any
/// miss ends the whole walk). The walk works on the store's memory passed in (`inout`), so that
/// reading a record's flags, type, slots and links is a plain array read; whatever it calls on the store
/// takes that memory as a parameter too.
@MainActor
struct AvailabilityWalk {
    let store: Store
    let plan: Plan
    let transaction: (any ImageReadTransaction)?
    /// The transaction's reader of records (slot rows when the image's own session is at hand).
    private let reader: HydrationReader?
    private var walkPlan: WalkPlan
    /// Ids whose memory changed during this walk, each once, in the order they changed.
    private(set) var filled: [Int] = []
    private var filledIDs: IDSet
    /// Keys the overlay's rebuilding touched during this walk.
    private(set) var overlayTouched = Set<RecordKey>()
    /// Whether the overlay was empty when the walk began: only rebuilding it can fill it, and a
    /// walk rebuilds it only when it holds something, so it stays empty (read once, not per record).
    private let overlayWasEmpty: Bool

    init(store: Store, plan: Plan, variables: Variables, transaction: (any ImageReadTransaction)?, capacity: Int) {
        self.store = store
        self.plan = plan
        self.transaction = transaction
        self.reader = transaction.map(HydrationReader.init)
        self.filledIDs = IDSet(capacity: capacity)
        self.walkPlan = WalkPlan(variables: variables, capacity: capacity)
        self.overlayWasEmpty = store.overlay.isEmpty
    }

    /// True when every field the plan selects is present from its root down.
    mutating func run(in memory: inout RecordMemory) -> Bool {
        let root = walkPlan.node(for: plan.selections)
        return available(root, at: memory.intern(plan.rootKey), in: &memory)
    }

    private mutating func available(_ node: Int, at id: Int, in memory: inout RecordMemory) -> Bool {
        if walkPlan.reached[node].contains(id) { return true }
        var flags = memory.flags[id]
        if !flags.contains(.present) && !flags.contains(.overlaid) {
            // Memory lacks the record: hydration may bring it, or it may be the query root's stand-in.
            let found = lookup(id, in: &memory)
            if case .missing = found { return false }
            flags = memory.flags[id]
            if !flags.contains(.present) && !flags.contains(.overlaid) {
                guard case .value(let stub) = found else { return false }
                guard availableFromValue(node, at: id, stub, in: &memory) else { return false }
                walkPlan.reached[node].insert(id)
                return true
            }
        }
        if flags.contains(.overlaid), let visible = store.visible(id: id, in: memory) {
            if visible.deleted { return true }
            guard availableFromValue(node, at: id, visible, in: &memory) else { return false }
            walkPlan.reached[node].insert(id)
            return true
        }
        if flags.contains(.deleted) { return true }
        let type = Int(memory.types[id])
        let steps = walkPlan.steps(node, type: type) ?? walkPlan.resolve(node, type: type, typename: memory.typenames[type])
        var start = memory.outline(of: id)
        for index in steps {
            let step = walkPlan.steps[index]
            var position = memory.outlines.position(of: step.slot, at: start)
            if position < 0 {
                guard fill(step.slot, of: id, in: &memory) else { return false }
                // Filling rebuilt the overlay and it now holds the record: answer from there.
                if memory.has(.overlaid, id) { return available(node, at: id, in: &memory) }
                start = memory.outline(of: id)
                position = memory.outlines.position(of: step.slot, at: start)
                guard position >= 0 else { return false }
            }
            guard step.child >= 0 else { continue }
            for target in memory.outlines.targets(at: start, position: position) {
                guard available(Int(step.child), at: memory.outlines[target], in: &memory) else { return false }
            }
        }
        walkPlan.reached[node].insert(id)
        return true
    }

    /// The walk of a record whose visible version is not memory's server data (the overlay's
    /// version, or the query root's stand-in): its cells and links come from the value itself.
    private mutating func availableFromValue(_ node: Int, at id: Int, _ visible: RecordData, in memory: inout RecordMemory) -> Bool {
        var data = visible
        let type = memory.typeID(of: data.typename)
        let steps = walkPlan.steps(node, type: type) ?? walkPlan.resolve(node, type: type, typename: data.typename)
        for index in steps {
            let step = walkPlan.steps[index]
            if data.cells[step.slot] == nil, fill(step.slot, of: id, in: &memory) {
                data = store.visible(id: id, in: memory) ?? data
            }
            guard let cell = data.cells[step.slot] else { return false }
            guard step.child >= 0 else { continue }
            var targets: [Int] = []
            cell.value.forEachLink { targets.append(memory.intern($0)) }
            for target in targets where !available(Int(step.child), at: target, in: &memory) { return false }
        }
        return true
    }

    /// What ``lookup(_:in:)`` found.
    private enum Lookup {
        case missing
        /// Memory holds the record's data now: the walk reads it from there.
        case inMemory
        case value(RecordData)
    }

    /// The visible record, hydrating it first when memory lacks it and an image is at hand.
    /// A record hydration brought into memory is answered `.inMemory`, not copied out (a copy
    /// of its data, retained and released per row, that the walk never read).
    private mutating func lookup(_ id: Int, in memory: inout RecordMemory) -> Lookup {
        if let data = store.visible(id: id, in: memory) { return .value(data) }
        guard let reader else { return .missing }
        let key = memory.keys[id]
        if key == .queryRoot { return .value(RecordData(typename: plan.rootTypename)) }
        if store.hydrate(id, in: &memory, from: reader) { noteFilled(id, in: &memory) }
        // Present: memory's data is visible (the walk reads it, or the overlay's, from there).
        if memory.has(.present, id) { return .inMemory }
        return store.visible(id: id, in: memory).map(Lookup.value) ?? .missing
    }

    /// The one place where memory lacks a slot: the image fills it if it can.
    private mutating func fill(_ slot: SlotID, of id: Int, in memory: inout RecordMemory) -> Bool {
        guard let reader else { return false }
        let key = memory.keys[id]
        let changed = key == .queryRoot
            ? store.hydrateRootField(slot, typename: plan.rootTypename, in: &memory, from: reader.transaction)
            : store.hydrate(id, in: &memory, from: reader)
        if changed { noteFilled(id, in: &memory) }
        return changed
    }

    private mutating func noteFilled(_ id: Int, in memory: inout RecordMemory) {
        if filledIDs.insert(id) { filled.append(id) }
        if !overlayWasEmpty, store.overlay[memory.keys[id]] != nil {
            overlayTouched.formUnion(store.rebuildOverlay(in: &memory))
        }
    }
}
