import Baton

/// The independent reference model: what a correct store and image hold after every event.
///
/// Written from the decision records, DESIGN.md and Relay's semantics (docs/design.md, "The
/// store's rules, as the model checks them"), sharing no code with the store: its own keys and
/// storage keys, canonical JSON, JSON parser, walks, collection, write sets and row reader. It
/// models memory exactly (commits write it, hydration fills it, collection sweeps it, a relaunch
/// empties it), the writer's queue, every committed image state since the last durable one, and
/// counts the paths its rules take (``coverage``).
package struct Oracle: Sendable {
    package let world: World
    let operations: [String: OracleOperation]
    /// The schema's fields as the model's walks read them, looked up once each.
    package let fieldCatalog: OracleFieldCatalog

    // MARK: Memory

    /// Server data in memory: what the store's base holds.
    package internal(set) var base: [OracleText: OracleRecord] = [:]
    /// Live optimistic layers, oldest first.
    var layers: [(id: Int, response: ModelResponse)] = []
    /// The records the live layers wrote, as the UI sees them.
    package internal(set) var overlay: [OracleText: OracleRecord] = [:]
    /// Keys whose row the check read this launch (found or not) that memory has not dropped since,
    /// and records deleted in this launch.
    package internal(set) var hydrated: Set<OracleText> = []
    /// Fetch times memory knows, by operation identity.
    var fetches: [OracleText: Fetch] = [:]
    /// Server commits so far this launch: the order of fetch stamps and invalidations.
    var serverCommits = 0
    /// `serverCommits` at the last `invalidate()` (-1: none this launch).
    var invalidatedThrough = -1
    /// Every key the oracle ever made a connection's client record (a kept connection keeps its
    /// edges and page info).
    var connectionRecords: Set<OracleText> = []

    // MARK: Retention

    var retained: [Int: Root] = [:]
    /// Released roots still protecting, oldest first.
    var releaseBuffer: [Root] = []
    /// How many released roots keep protecting.
    package var releaseBufferSize = 10
    /// The expiration a check given none applies (the store's configured default; nil: none).
    package var defaultExpiration: Double?

    // MARK: Writer and image

    /// False when the store runs without an image: commits then queue nothing and checks read nothing.
    package var hasImage = true

    /// Batches handed to the writer and not committed yet, in order.
    package internal(set) var queue: [OracleBatch] = []
    /// Rows the check read whose stamps wait for the next drain.
    package internal(set) var touches = OracleTouches()
    /// The drain in flight, held after it took its work (``SimEvent/drainBegins``).
    package internal(set) var drainInFlight: OracleDrainInFlight?
    /// True once a drain of this launch committed (and with it the launch's eviction).
    var evictionDone = false
    /// The image after the last drain that returned.
    package internal(set) var image = OracleImage.empty(generation: 0)
    /// Committed image states from the last one known durable to `image`.
    var states: [OracleImage] = [.empty(generation: 0)]
    var durable = 0
    /// After a process died opening the image (``ProcessEnd/openCrash``): each state the next
    /// launch may find, as the last of the states committed since one known durable.
    var crashChains: [[OracleImage]] = []
    /// True when the open that died found garbage (or followed one that did): the rows a damaged
    /// name hid are gone, as after any corruption.
    var crashFollowedCorruption = false
    /// The states the open that died committed (marked, counted), for the coverage.
    var crashCommitted: [OracleImage] = []
    /// The images the drains that failed since the last one that committed would have left: a
    /// crash's recovery may find the commit of each (``drainFailed(diskFull:)``). After the
    /// states a crash may return to, in ``allowedChains(after:)``.
    var failedDrainStates: [OracleImage] = []
    /// Record rows, root cells and fetch times the runner flipped bits in (see Oracle+Rot.swift):
    /// they may read as misses.
    package internal(set) var rotted = ImageDamage()
    /// Rows a name whose checksum fails hides (they verify, but use the name): what they hold,
    /// for the drain whose write of the name sets its checksum right and brings them back. The
    /// model's image lacks them; the states a crash may return to hold them, as the file does.
    package internal(set) var dormant = OracleImage(generation: 0)
    /// Other contents a hidden row may hold: those of the other states the relaunch could have
    /// found (they differ only in rows it could not read, so it could not tell them apart).
    var dormantRecordChoices: [OracleText: [OracleRow]] = [:]
    var dormantRootChoices: [OracleText: [OracleRootRow]] = [:]
    /// The writer's bound on queued items (production's ``WriterLimits`` unless a run says).
    package var writerBound = Int.max
    /// True after the queue went over its bound, until the drain that empties the image commits:
    /// every read misses meanwhile.
    package internal(set) var writerMustWipe = false
    /// True after an erase, until the drain that empties the image commits (``erase()``).
    package internal(set) var eraseMustWipe = false
    /// What the model knows of an erase's mark beside the file (``OracleEraseMark``); it
    /// outlives the process, as a file does.
    package internal(set) var eraseMark = OracleEraseMark.absent
    /// True from an erase that promised (its mark durable beside the file) until a drain commits
    /// the erase's wipe.
    var erasePromised = false
    /// The state in ``states`` the promised erase's wipe committed, while that chain lasts: the
    /// store deletes the mark only once the wipe's checkpoint put it in the file, so a launch
    /// that finds no mark may find no state before it (``eraseMarkGone()``).
    var erasedThrough: Int?

    package internal(set) var coverage = OracleCoverage()

    /// A fetch time in memory: when, and the server commit that stamped it (0: read from the image).
    struct Fetch: Hashable, Sendable {
        var time: Double
        var order: Int
    }

    /// An operation plus variables that protects records from collection.
    struct Root: Sendable {
        var operation: OracleOperation
        var variables: [String: JSONValue]
    }

    package init(world: World) {
        self.world = world
        let catalog = OracleFieldCatalog(schema: world.schema)
        var operations: [String: OracleOperation] = [:]
        for operation in world.operations {
            operations[operation.name] = OracleOperation(operation, schema: world.schema, catalog: catalog)
        }
        self.operations = operations
        fieldCatalog = catalog
    }

    /// The compiled operation called `name`.
    package func operation(_ name: String) -> OracleOperation? {
        operations[name]
    }

    /// A literal response of the operation `name` read as the oracle reads text (replay files).
    package func normalize(text: [UInt8], operation name: String, variables: [String: JSONValue]) throws(OracleResponseError) -> ModelResponse {
        guard let operation = operations[name] else { throw OracleResponseError("the world has no operation \(name)") }
        return try ModelResponse.normalize(text: text, operation: operation, variables: variables, schema: schema)
    }

    var schema: Schema { world.schema }

    // MARK: What memory holds

    /// The record the UI sees under `key`: the layers' version over the base.
    package func visible(_ key: OracleText) -> OracleRecord? {
        layers.isEmpty ? base[key] : (overlay[key] ?? base[key])
    }

    /// The base as a sorted list (for printing).
    package var memory: [OracleText: OracleRecord] { base }

    /// True when `key` is hydrated (see ``hydrated``).
    package func isHydrated(_ key: OracleText) -> Bool {
        hydrated.contains(key)
    }

    /// The number of live optimistic layers.
    package var layerCount: Int { layers.count }

    /// Recomputes the overlay: every live layer applied, in order, over the base.
    mutating func rebuildOverlay() {
        guard !layers.isEmpty else {
            overlay = [:]
            return
        }
        let base = self.base
        var view = OracleView { base[$0] }
        for layer in layers {
            let report = OracleApply.apply(layer.response, to: &view)
            connectionRecords.formUnion(report.connections)
        }
        overlay = view.writes
    }

    // MARK: Per-key views (timelines and key histories)

    /// What `key` is in memory, in the writer's queue and in the image, side by side.
    package func history(of key: OracleText) -> OracleKeyView {
        var queued: [OracleSnapshot] = []
        for batch in queue {
            queued.append(contentsOf: batch.snapshots.filter { $0.key == key })
        }
        return OracleKeyView(
            key: key, memory: base[key], visible: visible(key), hydrated: hydrated.contains(key),
            queued: queued, row: image.records[key])
    }
}

/// One key across the places it lives: memory, the optimistic view, the writer's queue, the image.
package struct OracleKeyView: Hashable, Sendable {
    package var key: OracleText
    package var memory: OracleRecord?
    package var visible: OracleRecord?
    package var hydrated: Bool
    /// Snapshots of the key waiting for the writer, oldest first.
    package var queued: [OracleSnapshot]
    package var row: OracleRow?
}
