/// Baton's normalized record store: the UI's state.
///
/// Everything here runs on the main actor and is synchronous: commits, reads, the availability
/// check (which hydrates from the image) and collection. Only ingest runs elsewhere: it turns a
/// response into a ``ChangeSet`` in the fetch's own task.
@MainActor
public final class Store {
    /// How a store behaves; every field has a production default.
    public struct Configuration: Sendable {
        /// How many released query roots keep protecting their records (oldest out first).
        public var releaseBufferSize: Int
        /// The expiration that applies when a check names none; `nil`: data never expires.
        public var defaultExpiration: Double?
        /// Collect on the main actor soon after a root leaves (a released root leaving the buffer,
        /// an optimistic layer reverted or answered) or a commit drops a link (one pass per burst,
        /// after the current turn).
        public var collectsAutomatically: Bool
        /// Who ends the main actor's turn for automatic collection: production schedules a task;
        /// the simulator ends each event's turn itself (``Store/endTurn()``), so that the pass
        /// runs where the seed's schedule puts it.
        package var turnEnds: TurnEnd = .mainActorTask
        /// A known bug switched back on (tests and the simulator only; ignored without `BATON_MUTANTS`).
        package var mutant: Mutant?
        /// Dead record ids collection tolerates beyond half of all ids before it numbers the
        /// living ones afresh (``RecordMemory/compact(slack:)``); the simulator draws 0 for half of
        /// its seeds, so that its small worlds renumber too.
        package var compactionSlack = 1024

        public init(releaseBufferSize: Int = 10, defaultExpiration: Double? = nil, collectsAutomatically: Bool = true) {
            self.releaseBufferSize = releaseBufferSize
            self.defaultExpiration = defaultExpiration
            self.collectsAutomatically = collectsAutomatically
        }

        /// A configuration with a known bug switched back on (tests and the simulator).
        package init(
            releaseBufferSize: Int = 10, defaultExpiration: Double? = nil,
            collectsAutomatically: Bool = true, mutant: Mutant?
        ) {
            self.init(releaseBufferSize: releaseBufferSize, defaultExpiration: defaultExpiration, collectsAutomatically: collectsAutomatically)
            self.mutant = mutant
        }
    }

    /// The last fetch of an operation: when, and the commit sequence number it came with
    /// (0 for a time read from the image).
    struct Fetch: Hashable {
        var time: Double
        var sequence: Int
    }

    public let configuration: Configuration
    let clock: any StoreClock
    /// The image the store writes behind and hydrates from, if any.
    public let image: (any StoreImage)?

    /// Server data (what the image keeps), by record id; each id's flags say whether the check
    /// read its row this launch (hydrated) and whether an optimistic layer touches it.
    var base = RecordMemory()
    /// Live optimistic layers, oldest first.
    var layers: [OptimisticLayer] = []
    /// The visible version of every record some layer touches (see ``replaceOverlay(_:)``).
    private(set) var overlay: [RecordKey: RecordData] = [:]
    /// Observable objects, one per record someone asked for.
    var objects: [RecordKey: Record] = [:]
    var fetches: [OperationIdentity: Fetch] = [:]
    var commitSequence = 0
    var invalidatedThrough = -1
    var nextLayerID = 1
    var retention = Retention()
    /// Set when a root left or a commit dropped a link.
    public internal(set) var needsCollection = false
    /// Whether automatic collection scheduled a pass for the end of this turn.
    package internal(set) var collectionScheduled = false

    /// A store over `image` (or none), reading time from `clock`.
    public init(image: (any StoreImage)? = nil, clock: any StoreClock = SystemClock(), configuration: Configuration = Configuration()) {
        self.image = image
        self.clock = clock
        self.configuration = configuration
        base.connectionsToldByShape = configuration.mutant.isOn(.connectionsToldByShape)
        base.connectionKeysReadForward = configuration.mutant.isOn(.connectionKeyReadForward)
        base.revivalKeepsDeletedFlag = configuration.mutant.isOn(.revivalKeepsDeletedFlag)
    }

    /// What the UI sees of `key`: the optimistic view over the base.
    func visible(_ key: RecordKey) -> RecordData? {
        if overlay.isEmpty { return base[key] }
        return overlay[key] ?? base[key]
    }

    /// What the UI sees of the record with id `id` in `memory` (the store's base, passed in by
    /// a walk that holds it).
    @inline(__always)
    func visible(id: Int, in memory: RecordMemory) -> RecordData? {
        if memory.has(.overlaid, id), let data = overlay[memory.keys[id]] { return data }
        return memory.data[id]
    }

    /// Makes `newOverlay` the overlay, keeping the overlaid flags of `memory` (the store's base,
    /// passed in) in step.
    func replaceOverlay(_ newOverlay: [RecordKey: RecordData], in memory: inout RecordMemory) {
        for key in overlay.keys where newOverlay[key] == nil {
            if let id = memory.id(of: key) { memory.remove(.overlaid, id) }
        }
        for key in newOverlay.keys { memory.insert(.overlaid, memory.intern(key)) }
        overlay = newOverlay
    }

    /// Sets the overlay's version of `key`.
    func setOverlay(_ key: RecordKey, _ data: RecordData) {
        base.insert(.overlaid, base.intern(key))
        overlay[key] = data
    }

    /// The observable record for `key`, or `nil` when the store holds no such record.
    public func record(_ key: RecordKey) -> Record? {
        if let object = objects[key], object.data != nil { return object }
        guard let data = visible(key) else { return nil }
        let object = Record(key: key, data: data)
        objects[key] = object
        return object
    }

    /// The visible data of `key` as a value (no observation).
    public func data(of key: RecordKey) -> RecordData? {
        visible(key)
    }

    /// Every visible record key, sorted.
    public var keys: [RecordKey] {
        Set(base.liveKeys).union(overlay.keys).sorted()
    }

    /// The server data (no optimistic values) of `key`.
    package func baseData(of key: RecordKey) -> RecordData? {
        base[key]
    }

    /// Every key of the server data, sorted.
    package var baseKeys: [RecordKey] {
        base.liveKeys.sorted()
    }

    /// Calls `body` with every record of the server data and whether it is hydrated, in id order
    /// (no meaning beyond this process): for a checker that compares all of memory after every
    /// event without hashing each key again.
    package func forEachBaseRecord(_ body: (RecordKey, RecordData, _ hydrated: Bool) throws -> Void) rethrows {
        let memory = base
        for id in 0..<memory.idCount {
            guard memory.has(.present, id), let data = memory.data[id] else { continue }
            try body(memory.keys[id], data, memory.has(.hydrated, id))
        }
    }

    /// How many records the server data holds.
    package var baseCount: Int { base.count }

    /// Every visible record key, in no particular order (``keys`` sorts them).
    package var unorderedKeys: [RecordKey] {
        if overlay.isEmpty { return base.liveKeys }
        return Array(Set(base.liveKeys).union(overlay.keys))
    }

    /// True when the check has read `key`'s row this launch and memory has not dropped it since.
    package func isHydrated(_ key: RecordKey) -> Bool {
        base.has(.hydrated, key)
    }

    /// The number of live optimistic layers.
    public var layerCount: Int { layers.count }

    /// Brings the observable objects of `keys` up to date, notifying only changed slots.
    func refreshObjects<S: Sequence>(_ keys: S) where S.Element == RecordKey {
        guard !objects.isEmpty else { return }
        for key in keys {
            guard let object = objects[key] else { continue }
            let data = visible(key)
            if object.data != data {
                object.update(to: data, notifyingEverySlot: configuration.mutant.isOn(.everySlotNotifies))
            }
            if data == nil { objects[key] = nil }
        }
    }
}
