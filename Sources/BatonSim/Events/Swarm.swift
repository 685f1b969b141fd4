import Baton

/// The shape of one run, drawn from its seed before any event: which event kinds are on and how
/// often, which of the world's queries are the app's screens, how crashes cluster, and the
/// server's configuration (sizes, rates, cursor and JSON styles).
///
/// Swarm testing: switching whole kinds off per seed reaches states a uniform mix rarely does.
package struct Swarm: Sendable, CustomStringConvertible {
    /// The kinds of event the generator draws, each with its weight (0: off this run).
    package enum Kind: String, CaseIterable, Sendable {
        case response, page, mutation, retain, release, check, collect
        case drain, drainPartway, advanceClock, invalidate, quit, kill, powerLoss, fault, corruptFile
        /// The harsher disk's faults (drawn from a stream of their own, so the kinds above draw as
        /// they did before these existed).
        case readFault, diskFull, bitRot

        /// The kinds the harsher disk added.
        static let diskKinds: [Kind] = [.readFault, .diskFull, .bitRot]
    }

    /// The kinds that end the process: their weights are raised for a while after a crash.
    static let crashKinds: Set<Kind> = [.kill, .powerLoss, .drainPartway]

    package var weights: [Kind: Int]
    /// The queries the app shows as screens: most responses, retains and checks use them.
    package var screens: [String]
    /// Chance that the server's data drifts before an event.
    package var driftRate: Double
    /// Chance that a check names an expiration.
    package var expirationRate: Double
    /// After a crash, for this many events the crash kinds weigh `aftershockBoost` times more
    /// (0: off): crash-after-crash sequences, such as a kill and then a power loss that tears the
    /// WAL of the launch that reused the killed launch's WAL, show up within few seeds.
    package var aftershockLength: Int
    package var aftershockBoost: Int
    /// The server's configuration, drawn from the world's settings.
    package var server: ServerConfiguration
    /// The disk's device and what a failed sync does on it (see ``DiskModel``).
    package var disk: DiskModel
    /// The writer's bound on queued items (``WriterLimits``) for this run: `nil` is production's.
    /// A small bound lets a full disk's stretch fill the queue until it overflows.
    package var writerBound: Int?
    /// The store's settings for this run, drawn from a stream of their own (see ``StoreSettings``).
    package var store: StoreSettings

    /// Draws a swarm for `world` from `random` (the run's `swarm` stream).
    package init(world: World, random: inout SimRandom) {
        let base: [Kind: Int] = [
            .response: 30, .page: 8, .mutation: 10, .retain: 5, .release: 5, .check: 22, .collect: 5, .drain: 12,
            .drainPartway: 1, .advanceClock: 4, .invalidate: 1, .quit: 1, .kill: 2, .powerLoss: 2, .fault: 2, .corruptFile: 1,
        ]
        let alwaysOn: Set<Kind> = [.response, .check, .drain]
        var weights: [Kind: Int] = [:]
        for kind in Kind.allCases where !Kind.diskKinds.contains(kind) {
            let weight = base[kind]!
            if alwaysOn.contains(kind) {
                weights[kind] = weight
            } else if kind == .corruptFile {
                // A wiped image ends every story the run was telling: rare, and in few seeds.
                weights[kind] = random.chance(0.3) ? weight : 0
            } else {
                weights[kind] = random.chance(0.25) ? 0 : max(1, weight * random.int(1...3) / 2)
            }
        }
        let queries = world.operations.filter { $0.kind == .query && !world.settings.unansweredOperations.contains($0.name) }.map(\.name)
        var screens = queries.filter { _ in !random.chance(0.25) }
        if screens.isEmpty, !queries.isEmpty { screens = [random.pick(queries)] }
        if !world.operations.contains(where: { $0.kind == .mutation }) { weights[.mutation] = 0 }
        let pages = world.operations.contains { operation in
            (world.analysis.variables[operation.name] ?? [:]).values.contains { use in
                if case .cursor = use.role { return true }
                return false
            }
        }
        if !pages { weights[.page] = 0 }
        self.weights = weights
        self.screens = screens
        driftRate = random.pick([0.1, 0.3, 0.6])
        expirationRate = random.pick([0, 0.3, 0.7])
        aftershockLength = random.chance(0.5) ? random.int(3...12) : 0
        aftershockBoost = random.int(2...8)
        var serverRandom = random.split("server")
        server = ServerConfiguration(world: world, random: &serverRandom)
        var diskRandom = random.split("disk-model")
        disk = DiskModel(random: &diskRandom)
        // Seeds that cut the power while the app is closed quit more often, so it is closed often.
        if disk.powerLossWhileClosed > 0 { self.weights[.quit] = 3 * self.weights[.quit, default: 0] }
        var harsher = random.split("harsher disk")
        self.weights[.readFault] = harsher.chance(0.25) ? 0 : harsher.int(2...6)
        self.weights[.diskFull] = harsher.chance(0.5) ? 0 : harsher.int(1...2)
        self.weights[.bitRot] = harsher.chance(0.7) ? 0 : 1
        writerBound = harsher.chance(0.3) ? harsher.pick([12, 25, 50, 100]) : nil
        var storeRandom = random.split("store")
        store = StoreSettings(random: &storeRandom)
    }

    package var description: String {
        let on = Kind.allCases.filter { weights[$0, default: 0] > 0 }.map { "\($0.rawValue)=\(weights[$0]!)" }
        var parts = ["screens " + screens.joined(separator: ","), "kinds: " + on.joined(separator: " ")]
        parts.append("drift \(driftRate), expirations \(expirationRate)")
        if aftershockLength > 0 { parts.append("aftershocks \(aftershockLength)×\(aftershockBoost)") }
        if let writerBound { parts.append("writer bound \(writerBound) items") }
        if store != StoreSettings() { parts.append("store: \(store)") }
        parts.append("server: \(server)")
        parts.append("disk: \(disk)")
        return parts.joined(separator: "; ")
    }

    /// The swarm as JSON, for campaign reports: every kind's weight (0: off this run), the
    /// screens, the rates, and the server's configuration as text.
    package var json: JSONValue {
        var weights: [String: JSONValue] = [:]
        for kind in Kind.allCases { weights[kind.rawValue] = .int(self.weights[kind, default: 0]) }
        return .object([
            "weights": .object(weights),
            "screens": .array(screens.map { .string($0) }),
            "driftRate": .double(driftRate),
            "expirationRate": .double(expirationRate),
            "aftershockLength": .int(aftershockLength),
            "aftershockBoost": .int(aftershockBoost),
            "writerBound": writerBound.map { .int($0) } ?? .null,
            "store": store.json,
            "server": .string(server.description),
            "disk": disk.json,
        ])
    }
}

/// The store's settings a run draws, where production's leave paths a simulated app never takes:
/// the release buffer (``Store/Configuration/releaseBufferSize``) is production's 10 for half of
/// the seeds and 0 to 3 for the rest, since a run releases too few roots to fill ten; the
/// compaction slack (``Store/Configuration/compactionSlack``) is production's 1,024 or 0, since a
/// world's few hundred records never leave 1,024 dead ids; a quarter of the seeds give the store
/// a default expiration (``Store/Configuration/defaultExpiration``, production's none), which a
/// check without one of its own applies. A replay file keeps the run's (its header's `store`;
/// absent: production's).
package struct StoreSettings: Hashable, Sendable, CustomStringConvertible {
    package var releaseBufferSize: Int
    package var compactionSlack: Int
    /// Seconds after which a check given no expiration calls a fetch stale (nil: never).
    package var defaultExpiration: Double?

    /// Production's settings.
    package init() {
        let production = Store.Configuration()
        releaseBufferSize = production.releaseBufferSize
        compactionSlack = production.compactionSlack
        defaultExpiration = production.defaultExpiration
    }

    package init(releaseBufferSize: Int, compactionSlack: Int, defaultExpiration: Double? = nil) {
        self.releaseBufferSize = releaseBufferSize
        self.compactionSlack = compactionSlack
        self.defaultExpiration = defaultExpiration
    }

    /// Draws a run's settings from `random` (the swarm's `store` stream).
    init(random: inout SimRandom) {
        self.init()
        if !random.chance(0.5) { releaseBufferSize = random.int(0...3) }
        if !random.chance(0.5) { compactionSlack = 0 }
        // Drawn after the others, so that they stayed put when it came (2026-12-07, night).
        if random.chance(0.25) { defaultExpiration = random.pick([10.0, 60.0, 300.0]) }
    }

    package var description: String {
        "release buffer \(releaseBufferSize), compaction slack \(compactionSlack)"
            + (defaultExpiration.map { ", default expiration \($0)" } ?? "")
    }

    /// The settings as a replay file's header holds them.
    package var json: JSONValue {
        var members: [String: JSONValue] = ["releaseBufferSize": .int(releaseBufferSize), "compactionSlack": .int(compactionSlack)]
        if let defaultExpiration { members["defaultExpiration"] = .double(defaultExpiration) }
        return .object(members)
    }

    /// Reads a replay header's `store` (absent or null: nil, production's).
    package init?(replayHeader value: JSONValue?) throws(ReplayError) {
        guard let value, value != .null else { return nil }
        let message = "\"store\" is {\"releaseBufferSize\": N, \"compactionSlack\": M}, whole numbers of at least 0, and an optional \"defaultExpiration\": seconds above 0"
        guard case .object(let members) = value,
            Set(members.keys).isSubset(of: ["releaseBufferSize", "compactionSlack", "defaultExpiration"]),
            case .int(let buffer)? = members["releaseBufferSize"], buffer >= 0,
            case .int(let slack)? = members["compactionSlack"], slack >= 0
        else { throw ReplayError(message) }
        var expiration: Double?
        if let member = members["defaultExpiration"] {
            guard let seconds = Self.seconds(member), seconds > 0 else { throw ReplayError(message) }
            expiration = seconds
        }
        self.init(releaseBufferSize: buffer, compactionSlack: slack, defaultExpiration: expiration)
    }

    private static func seconds(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let whole): Double(whole)
        case .double(let number): number.isFinite ? number : nil
        default: nil
        }
    }

    /// The store's configuration under these settings.
    func configuration(mutant: Mutant?) -> Store.Configuration {
        var configuration = Store.Configuration(releaseBufferSize: releaseBufferSize, mutant: mutant)
        configuration.compactionSlack = compactionSlack
        configuration.defaultExpiration = defaultExpiration
        configuration.turnEnds = .caller
        return configuration
    }
}
