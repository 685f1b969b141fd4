import Baton

/// What the availability check must answer, and the rows it must read on the way.
package struct ExpectedCheck: Hashable, Sendable {
    package enum Source: String, Hashable, Sendable {
        /// Memory held everything.
        case memory
        /// Memory lacked something and the image's rows filled it.
        case image
    }

    package enum Freshness: String, Hashable, Sendable {
        case fresh, stale
    }

    /// True for available (from memory or the image), false for missing.
    package var available: Bool
    /// Where the data came from (`nil` when missing).
    package var source: Source?
    /// The operation's fetch time as memory knows it after the check (`nil`: unknown).
    package var fetchTime: Double?
    /// Fresh or stale (`nil` when missing).
    package var freshness: Freshness?
    /// Every row the check looked up, in order, with what it found.
    package var reads: [OracleRead]

    package static func == (lhs: ExpectedCheck, rhs: ExpectedCheck) -> Bool {
        lhs.available == rhs.available && lhs.source == rhs.source && lhs.freshness == rhs.freshness
            && lhs.fetchTime?.bitPattern == rhs.fetchTime?.bitPattern && lhs.reads == rhs.reads
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(available)
        hasher.combine(source)
        hasher.combine(fetchTime?.bitPattern)
        hasher.combine(freshness)
        hasher.combine(reads)
    }
}

/// One row the check looked up in the image.
package enum OracleRead: Hashable, Sendable, CustomStringConvertible {
    /// What a lookup of a record's row found (a row aged out is absent).
    package enum Found: String, Hashable, Sendable {
        case present, deleted, absent
        /// The read itself failed (a disk fault): nothing is known of the row.
        case unreadable
    }

    case record(OracleText, Found)
    /// A query-root field's row; true when found.
    case rootField(OracleText, Bool)
    /// An operation's fetch time; true when found.
    case fetch(OracleText, Bool)

    package var description: String {
        switch self {
        case .record(let key, let found): "record \(key) (\(found.rawValue))"
        case .rootField(let field, let found): "root \(field) (\(found ? "present" : "absent"))"
        case .fetch(let operation, let found): "fetch \(operation) (\(found ? "present" : "absent"))"
        }
    }
}

/// Where the disk failed reads during one check: the model is told where, never what the store
/// made of it, and works out the rest by the rule the decision records give: a failed read is a
/// miss; unless it only says "not now" (busy), every later read of that transaction misses too.
package struct OracleReadFaults: Hashable, Sendable {
    /// Positions (from 0, in the order the check looks rows up) of the lookups during which the
    /// disk failed a read.
    package var failedLookups: Set<Int>
    /// True when the failures said "not now" (busy): the transaction's other reads go on.
    package var transient: Bool

    package init(failedLookups: Set<Int> = [], transient: Bool = false) {
        self.failedLookups = failedLookups
        self.transient = transient
    }

    package static let none = OracleReadFaults()
}

/// The state of one walk of the check.
struct CheckWalk {
    /// False for the first walk (memory only), true for the walk that reads rows.
    let readsImage: Bool
    let rootTypename: String
    let variables: [String: JSONValue]
    /// Where the disk failed reads in this check.
    var faults = OracleReadFaults.none
    /// Lookups made so far in this read transaction.
    var lookups = 0
    /// True once a failed read ended the transaction's reads.
    var closed = false
    var reads: [OracleRead] = []
    /// Records already found complete under a selection set in this walk.
    var known = Set<Visit>()
    /// Each field's read slot under this walk's variables.
    private var slots: [ObjectIdentifier: OracleText] = [:]

    init(readsImage: Bool, rootTypename: String, variables: [String: JSONValue]) {
        self.readsImage = readsImage
        self.rootTypename = rootTypename
        self.variables = variables
    }

    /// Counts one lookup; true when it fails (the disk failed it, or an earlier failure closed
    /// the transaction's reads).
    mutating func lookupFails() -> Bool {
        let position = lookups
        lookups += 1
        if closed { return true }
        guard faults.failedLookups.contains(position) else { return false }
        if !faults.transient { closed = true }
        return true
    }

    /// The slot `field` reads, memoized for the walk.
    mutating func readSlot(_ field: OracleField) -> OracleText {
        if let known = slots[ObjectIdentifier(field)] { return known }
        let slot = field.readSlot(variables)
        slots[ObjectIdentifier(field)] = slot
        return slot
    }

    struct Visit: Hashable {
        let key: OracleText
        let set: ObjectIdentifier
    }
}

extension Oracle {
    /// The availability check: walks the operation from its root over the visible records, the
    /// fields that apply to each record's type in document order, stopping at the first it
    /// cannot answer. When memory alone cannot answer and an image exists, the walk runs again
    /// reading rows for what memory lacks (hydration); then the fetch time comes from memory, or
    /// from the image's `fetches` row.
    ///
    /// `readFaults` says where the disk failed reads in this check (a fault the runner injected):
    /// a failed read is a miss for the walk and never makes the record hydrated.
    package mutating func check(
        operation name: String, variables provided: [String: JSONValue], expiration: Double?, now: Double, hasImage: Bool,
        readFaults: OracleReadFaults = .none
    ) -> ExpectedCheck {
        let hasImage = hasImage && !writerMustWipe
        guard let operation = operations[name] else {
            return ExpectedCheck(available: false, source: nil, fetchTime: nil, freshness: nil, reads: [])
        }
        let (variables, identity) = operation.resolved(provided)
        var walk = CheckWalk(readsImage: false, rootTypename: operation.rootTypename, variables: variables)
        var available = self.available(operation.selections, at: operation.rootKey, &walk)
        var source = ExpectedCheck.Source.memory
        var reads: [OracleRead] = []
        if !available, hasImage {
            var second = CheckWalk(readsImage: true, rootTypename: operation.rootTypename, variables: variables)
            second.faults = readFaults
            let found = self.available(operation.selections, at: operation.rootKey, &second)
            if fetches[identity] == nil { readFetch(identity, &second) }
            reads = second.reads
            if found {
                available = true
                source = .image
                coverage.checksFromImage += 1
            }
        } else if available, hasImage, fetches[identity] == nil {
            var fetchWalk = CheckWalk(readsImage: true, rootTypename: operation.rootTypename, variables: variables)
            fetchWalk.faults = readFaults
            readFetch(identity, &fetchWalk)
            reads = fetchWalk.reads
        }
        guard available else {
            return ExpectedCheck(available: false, source: nil, fetchTime: nil, freshness: nil, reads: reads)
        }
        let fetch = fetches[identity]
        if expiration == nil, defaultExpiration != nil, fetch != nil { coverage.checksUnderDefaultExpiration += 1 }
        let expiration = expiration ?? defaultExpiration
        if expiration != nil, let fetch, fetch.time > now { coverage.fetchesAheadOfClock += 1 }
        return ExpectedCheck(
            available: true, source: source, fetchTime: fetch?.time,
            freshness: freshness(of: fetch, expiration: expiration, now: now), reads: reads)
    }

    /// Stale when older than the expiration or stamped before an invalidation of this launch;
    /// an unknown age is stale wherever an expiration or an invalidation applies, and a fetch
    /// stamped later than `now` (the device's clock was set back after it) has no age to know.
    func freshness(of fetch: Fetch?, expiration: Double?, now: Double) -> ExpectedCheck.Freshness {
        guard let fetch else { return expiration == nil && invalidatedThrough < 0 ? .fresh : .stale }
        if fetch.order <= invalidatedThrough { return .stale }
        guard let expiration else { return .fresh }
        if fetch.time > now { return .stale }
        return now - fetch.time >= expiration ? .stale : .fresh
    }

    /// The fetch time memory knows for `operation`, if any.
    package func fetchTime(of operation: OracleText) -> Double? {
        fetches[operation]?.time
    }

    // MARK: The walk

    /// True when every field `set` selects is present from `key` down.
    mutating func available(_ set: OracleSelectionSet, at key: OracleText, _ walk: inout CheckWalk) -> Bool {
        let visit = CheckWalk.Visit(key: key, set: ObjectIdentifier(set))
        if walk.known.contains(visit) { return true }
        guard var record = lookup(key, &walk) else { return false }
        if record.deleted { return true }
        for field in set.fields(for: record.typename, variables: walk.variables, schema: schema) where !field.isTypename {
            let slot = walk.readSlot(field)
            if record.cells[slot] == nil, fill(slot, of: key, &walk) {
                record = visible(key) ?? record
            }
            guard let cell = record.cells[slot] else { return false }
            if let selections = field.selections, !linksAvailable(cell.value, selections, &walk) { return false }
        }
        walk.known.insert(visit)
        return true
    }

    private mutating func linksAvailable(_ value: OracleValue, _ set: OracleSelectionSet, _ walk: inout CheckWalk) -> Bool {
        switch value {
        case .link(let key):
            return available(set, at: key, &walk)
        case .links(let keys):
            for case let key? in keys where !available(set, at: key, &walk) { return false }
            return true
        case .list(let items):
            for item in items where !linksAvailable(item, set, &walk) { return false }
            return true
        default:
            return true
        }
    }

    /// The visible record; when memory lacks it and the walk reads the image, its row first (the
    /// query root has no row: an empty root stands in for it).
    private mutating func lookup(_ key: OracleText, _ walk: inout CheckWalk) -> OracleRecord? {
        if let record = visible(key) { return record }
        guard walk.readsImage else { return nil }
        if key == OracleKeys.queryRoot { return OracleRecord(typename: walk.rootTypename) }
        hydrate(key, &walk)
        return visible(key)
    }

    /// Memory lacks `slot` of `key`: the image fills it if it can. True when memory changed.
    private mutating func fill(_ slot: OracleText, of key: OracleText, _ walk: inout CheckWalk) -> Bool {
        guard walk.readsImage else { return false }
        if key == OracleKeys.queryRoot { return hydrateRootField(slot, &walk) }
        return hydrate(key, &walk)
    }

    // MARK: Hydration

    /// True when a row stamped `used` is part of the image in this launch (not older than the
    /// previous launch).
    func isVisible(used: Int) -> Bool {
        used >= image.generation - 1
    }

    /// Reads `key`'s row once per launch (until memory drops the record): memory's own record and
    /// cells win, a deleted row makes an absent record deleted, and the key becomes hydrated
    /// whatever the row says. True when memory changed.
    @discardableResult
    mutating func hydrate(_ key: OracleText, _ walk: inout CheckWalk) -> Bool {
        guard key != OracleKeys.queryRoot, !hydrated.contains(key) else { return false }
        if walk.lookupFails() {
            walk.reads.append(.record(key, .unreadable))
            coverage.readFaultMisses += 1
            return false
        }
        let row = image.records[key].flatMap { isVisible(used: $0.used) ? $0 : nil }
        walk.reads.append(.record(key, row.map { $0.deleted ? .deleted : .present } ?? .absent))
        if let row, row.used != image.generation { touches.records.insert(key) }
        hydrated.insert(key)
        guard let row else { return false }
        var changed = false
        if let existing = base[key] {
            if !existing.deleted, !row.deleted {
                var filled = existing
                for (slot, cell) in row.cells where filled.cells[slot] == nil {
                    filled.cells[slot] = cell
                    changed = true
                }
                if changed { base[key] = filled }
            }
        } else {
            base[key] = row.record
            changed = true
        }
        if changed {
            coverage.recordHydrations += 1
            if !layers.isEmpty { rebuildOverlay() }
        }
        return changed
    }

    /// Fills one query-root field from its row, when memory lacks it. True when memory changed.
    private mutating func hydrateRootField(_ slot: OracleText, _ walk: inout CheckWalk) -> Bool {
        if base[OracleKeys.queryRoot]?.cells[slot] != nil { return false }
        if walk.lookupFails() {
            walk.reads.append(.rootField(slot, false))
            coverage.readFaultOtherMisses += 1
            return false
        }
        let row = image.root[slot].flatMap { isVisible(used: $0.used) ? $0 : nil }
        walk.reads.append(.rootField(slot, row != nil))
        guard let row else { return false }
        if row.used != image.generation { touches.rootFields.insert(slot) }
        var root = base[OracleKeys.queryRoot] ?? OracleRecord(typename: walk.rootTypename)
        root.cells[slot] = row.cell
        base[OracleKeys.queryRoot] = root
        coverage.rootFieldHydrations += 1
        if !layers.isEmpty { rebuildOverlay() }
        return true
    }

    /// Reads an operation's fetch time from the image into memory, when the row is there.
    private mutating func readFetch(_ operation: OracleText, _ walk: inout CheckWalk) {
        if walk.lookupFails() {
            walk.reads.append(.fetch(operation, false))
            coverage.readFaultOtherMisses += 1
            return
        }
        let row = image.fetches[operation].flatMap { isVisible(used: $0.used) ? $0 : nil }
        walk.reads.append(.fetch(operation, row != nil))
        guard let row else { return }
        if row.used != image.generation { touches.fetches.insert(operation) }
        fetches[operation] = Fetch(time: row.time, order: 0)
    }
}
