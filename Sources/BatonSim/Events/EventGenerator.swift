import Baton

/// What the generator may know of the run so far, to draw events that make sense.
package struct GenerationContext: Sendable {
    package var processUp: Bool
    /// Live optimistic layers, oldest first.
    package var liveLayers: [Int]
    package var retainedTokens: [Int]
    /// A drain is held in flight (``SimEvent/drainBegins``).
    package var drainInFlight: Bool

    package init(processUp: Bool, drainInFlight: Bool = false, liveLayers: [Int], retainedTokens: [Int]) {
        self.processUp = processUp
        self.drainInFlight = drainInFlight
        self.liveLayers = liveLayers
        self.retainedTokens = retainedTokens
    }
}

/// One drawn event, with the server's answer beside it when the event carries one: the
/// provenance the reference model learns from (a replay has only the text).
package struct GeneratedEvent: Sendable {
    package var event: SimEvent
    package var execution: Execution?
    /// The server's edits drawn before the event, one line each, for the trace.
    package var drift: [String]
    /// How the network garbled the event's response, for the trace (``ResponseGarbling``).
    package var garbled: String?
    /// The file of the world's recorded response the event delivers (``RecordedResponse``).
    package var recorded: String?
}

/// Draws a run's events from its seed, over any world: the kinds from the swarm, the data from
/// the seeded server, which also answers every response by executing the operation.
package struct EventGenerator: Sendable {
    package let world: World
    package let swarm: Swarm
    package private(set) var server: Server
    private var drawer: VariableDrawer
    private var random: SimRandom
    private var nextToken = 1
    private var nextLayer = 1
    /// The operation each optimistic layer stands for (a mutation, or a query whose answer the
    /// app predicted), until it is answered or failed.
    private var layerOperations: [Int: (operation: String, variables: [String: JSONValue])] = [:]
    /// Events left with crash kinds boosted (see ``Swarm/aftershockLength``).
    private var aftershock = 0
    /// A scroll in progress: pages of one connection that follow each other (after a refresh,
    /// the next page after the one just answered, or the one before), so that pages join, and
    /// with a server that grows at the front, overlap.
    private var scroll: (operation: WorldOperation, variables: [String: JSONValue], pagesLeft: Int, backward: Bool)?
    /// Draws whether a check goes back to a query the server answered lately, and to which: a
    /// stream of its own, so that every other draw of a seed stays where it was.
    private var revisits: SimRandom
    /// The queries the server answered lately (at most ``visitedLimit``, oldest first): the
    /// screens a user opens again.
    private var visited: [(operation: WorldOperation, variables: [String: JSONValue])] = []
    /// Draws whether bit rot follows a clean quit or a kill: a stream of its own too.
    private var rotEndings: SimRandom
    /// Draws whether a relaunch is an upgrade to the next app version: a stream of its own too.
    private var upgrades: SimRandom
    /// Draws whether a relaunch that is no app update brings a Baton one image format newer: a
    /// stream of its own, so that no other draw of a seed moved when it came.
    private var formatUpgrades: SimRandom
    /// Draws whether a launch dies inside its open, where, and how: a stream of its own.
    private var openCrashes: SimRandom
    /// Draws whether a launch opens its image in the background: a stream of its own.
    private var backgroundOpens: SimRandom
    /// Draws whether a quit dies part way, where, and how: a stream of its own.
    private var quitCrashes: SimRandom
    /// Draws whether a response is garbled on its way, and how: a stream of its own too.
    private var garbles: SimRandom
    /// Draws whether a launch finds the device locked: a stream of its own.
    private var lockedLaunches: SimRandom
    /// Draws whether a fault fails an open or a deletion instead, and which: a stream of its own.
    private var openFaults: SimRandom
    /// Draws whether the user logs out instead of the event drawn: a stream of its own.
    private var erases: SimRandom
    /// Draws whether a drain is held in flight, for how many events, and what the main actor
    /// does meanwhile: a stream of its own.
    private var heldDrains: SimRandom
    /// Draws whether a query's answer comes first as an optimistic layer: a stream of its own.
    private var queryLayers: SimRandom
    /// Whether the server refuses a request (``refusalChance``), and why: a stream of its own.
    private var refusals: SimRandom
    /// Events left before the drain in flight is let finish (0: none in flight).
    private var heldDrainEventsLeft = 0
    /// Draws whether a step of the clock sets it back, and how far: a stream of its own.
    private var clockSetBacks: SimRandom
    /// Draws whether a response is one of the world's recorded ones, and which: a stream of its
    /// own, drawn only in a world that has some, so no other world's seeds moved when it came.
    private var recordings: SimRandom
    private let kinds = Swarm.Kind.allCases
    /// The swarm's weight of each of `kinds`, in order (the swarm never changes: read once, not
    /// looked up per kind per event).
    private let kindWeights: [Int]
    /// The positions in `kinds` of the crash kinds, which an aftershock boosts.
    private let crashPositions: [Int]
    private let queries: [WorldOperation]
    private let screens: [WorldOperation]
    private let paging: [WorldOperation]
    private let mutations: [WorldOperation]
    /// Subscriptions: an event of one arrives among the responses (never checked or retained).
    private let subscriptions: [WorldOperation]

    package init(world: World, swarm: Swarm, random: SimRandom) {
        self.world = world
        self.swarm = swarm
        self.random = random.split("events")
        revisits = random.split("revisits")
        rotEndings = random.split("rot endings")
        upgrades = random.split("upgrades")
        formatUpgrades = random.split("formatUpgrades")
        openCrashes = random.split("openCrashes")
        backgroundOpens = random.split("backgroundOpens")
        quitCrashes = random.split("quitCrashes")
        garbles = random.split("garbles")
        recordings = random.split("recordings")
        clockSetBacks = random.split("clockSetBacks")
        openFaults = random.split("openFaults")
        lockedLaunches = random.split("lockedLaunches")
        erases = random.split("erases")
        heldDrains = random.split("heldDrains")
        queryLayers = random.split("queryLayers")
        refusals = random.split("refusals")
        server = Server(world: world, random: random.split("world"), configuration: swarm.server)
        drawer = VariableDrawer(random: random.split("variables"))
        let answered = world.operations.filter { !world.settings.unansweredOperations.contains($0.name) }
        queries = answered.filter { $0.kind == .query }
        screens = swarm.screens.compactMap { world.operation(named: $0) }
        paging = queries.filter { operation in
            (world.analysis.variables[operation.name] ?? [:]).values.contains { use in
                if case .cursor = use.role { return true }
                return false
            }
        }
        mutations = answered.filter { $0.kind == .mutation }
        subscriptions = answered.filter { $0.kind == .subscription }
        let kinds = Swarm.Kind.allCases
        kindWeights = kinds.map { swarm.weights[$0, default: 0] }
        crashPositions = kinds.indices.filter { Swarm.crashKinds.contains(kinds[$0]) }
    }

    /// How often a launch finds the device locked (from 2026-12-07): one in 48 (its process runs
    /// without an image, so a campaign's other paths lose the process).
    static let lockedLaunchChance = 1.0 / 48
    /// How often the user logs out (from 2026-12-07): one event in 200 of a running process
    /// becomes an erase, so most 200-event runs erase once.
    static let eraseChance = 1.0 / 200
    /// How often a `fault` fails an open or a deletion (from 2026-12-07), and how many of them it
    /// may let by.
    static let openFaultChance = 1.0 / 4
    static let openFaultMaxSkip = 8
    /// How often a drain is held in flight on the writer's thread (from 2026-12-07): one drain
    /// in three, for up to ``heldDrainMaxEvents`` events. While one is, an event in four is a
    /// collection, one in six a write fault that fails the drain when it goes on, and one in ten
    /// an erase that drops the queue behind it.
    static let heldDrainChance = 1.0 / 3
    /// How often a query's response is first the app's optimistic layer of it, while fewer than
    /// ``queryLayerLimit`` layers are live: one in sixteen. Such a layer is the only one that
    /// writes the query root (a mutation's lies under the mutation root).
    static let queryLayerChance = 1.0 / 16
    /// How often the server refuses a query's or a mutation's request before executing it (a
    /// rate limit, a failed authentication): errors only, no `data`, as every real server sends
    /// now and then. Until 2026-12-07 only a world whose root fields are non-null could send a
    /// response without data.
    static let refusalChance = 1.0 / 48
    static let queryLayerLimit = 3
    static let heldDrainMaxEvents = 4
    static let collectionInFlightChance = 1.0 / 4
    static let faultInFlightChance = 1.0 / 6
    static let eraseInFlightChance = 1.0 / 10
    /// How often a step of the clock sets it back (the device's time corrected, or set by hand).
    static let clockSetBackChance = 1.0 / 4
    /// How often a launch after the process ended is an app update (about one launch in 16: a
    /// 200-event run has one or two).
    static let upgradeChance = 1.0 / 16
    /// How often a launch that is no app update brings a Baton one image format newer (one in 16
    /// of the others).
    static let formatUpgradeChance = 1.0 / 16
    /// How often a launch dies inside its open (one in 12), and the most disk-changing operations
    /// it makes before: an open of an image makes about 5 to 15 (the count, the checkpoint
    /// before it, a format's move); one that creates the file or wipes it more.
    static let openCrashChance = 1.0 / 12
    static let openCrashMaxOperations = 24
    /// How often a quit dies part way (one in three), and the most disk-changing operations it
    /// makes before: a last drain writes a frame per page it changes, then the close checkpoints.
    static let quitCrashChance = 1.0 / 3
    /// How often a launch (of the same build, an update, or a newer image format) opens its
    /// image in the background, as an app with `OpeningImage` does (one in three): commits buffer
    /// until an event needs the image.
    static let backgroundOpenChance = 1.0 / 3
    static let quitCrashMaxOperations = 20
    /// How often a response (a query's, a subscription's, or a mutation's plain answer) is garbled
    /// on its way: one in 32.
    static let garbleChance = 1.0 / 32
    /// How often a response is one of the world's recorded responses, when it has some: one in
    /// eight.
    static let recordedChance = 1.0 / 8

    /// The next event.
    package mutating func next(_ context: GenerationContext) -> GeneratedEvent {
        guard context.processUp else {
            // The disk model's option: now and then the power goes while the app is closed.
            if swarm.disk.powerLossWhileClosed > 0, random.chance(swarm.disk.powerLossWhileClosed) {
                return GeneratedEvent(event: .powerLoss(seed: random.next()), execution: nil, drift: [])
            }
            if openCrashes.chance(Self.openCrashChance) {
                let operations = openCrashes.int(0...Self.openCrashMaxOperations)
                let seed: UInt64? = openCrashes.chance(0.5) ? openCrashes.next() : nil
                let build = openCrashes.pick(LaunchBuild.allCases)
                let event = SimEvent.openCrash(operations: operations, powerLossSeed: seed, build: build)
                return GeneratedEvent(event: event, execution: nil, drift: [])
            }
            var launch: SimEvent =
                upgrades.chance(Self.upgradeChance) ? .upgrade
                : formatUpgrades.chance(Self.formatUpgradeChance) ? .formatUpgrade : .relaunch
            if backgroundOpens.chance(Self.backgroundOpenChance) {
                let build: LaunchBuild = launch == .upgrade ? .appUpgrade : launch == .formatUpgrade ? .formatUpgrade : .same
                launch = .relaunchOpeningLater(build: build)
            }
            // Drawn after the others, from a stream of its own, so that they stay put.
            if lockedLaunches.chance(Self.lockedLaunchChance) { launch = .relaunchLocked }
            return GeneratedEvent(event: launch, execution: nil, drift: [])
        }
        if let held = heldDrainEvent(context) { return held }
        var drift: [String] = []
        if random.chance(swarm.driftRate) { drift = server.drift() }
        var weights = kindWeights
        if aftershock > 0 {
            aftershock -= 1
            for index in crashPositions {
                weights[index] *= swarm.aftershockBoost
            }
        }
        let position = random.weighted(weights)
        let kind = kinds[position]
        if crashPositions.contains(position) || kind == .corruptFile { aftershock = swarm.aftershockLength }
        var generated = draw(kind, context)
        generated.drift = drift + generated.drift
        // Drawn after the event, from a stream of its own, so that every other draw stays put.
        if erases.chance(Self.eraseChance) { return GeneratedEvent(event: .erase, execution: nil, drift: generated.drift) }
        return generated
    }

    /// While a drain is held in flight: the event that lets it finish once its events are
    /// spent, or one of the events the held drain is there for (a collection, which must keep
    /// what the drain holds; a write fault, which fails the drain after the collection ran; an
    /// erase, whose wipe the drain's end must leave owed);
    /// `nil` to draw as ever. A drain the runner finished early (an event waited for it) or a
    /// process that ended stops the count.
    private mutating func heldDrainEvent(_ context: GenerationContext) -> GeneratedEvent? {
        guard heldDrainEventsLeft > 0 else { return nil }
        guard context.drainInFlight else {
            heldDrainEventsLeft = 0
            return nil
        }
        heldDrainEventsLeft -= 1
        let event: SimEvent
        if heldDrainEventsLeft == 0 {
            event = .drainEnds
        } else if heldDrains.chance(Self.collectionInFlightChance) {
            event = .collect
        } else if heldDrains.chance(Self.faultInFlightChance) {
            event = .fault(on: "write", code: heldDrains.pick(["ioerr", "full"]))
        } else if heldDrains.chance(Self.eraseInFlightChance) {
            event = .erase
        } else {
            return nil
        }
        return GeneratedEvent(event: event, execution: nil, drift: [])
    }

    private mutating func draw(_ kind: Swarm.Kind, _ context: GenerationContext) -> GeneratedEvent {
        func plain(_ event: SimEvent) -> GeneratedEvent { GeneratedEvent(event: event, execution: nil, drift: []) }
        switch kind {
        case .response:
            if !world.settings.recorded.isEmpty, recordings.chance(Self.recordedChance) { return recorded() }
            // One response in four is a subscription's event, when the world has subscriptions
            // (a world without them draws nothing here, so its seeds run as before).
            if !subscriptions.isEmpty, random.chance(0.25) { return answer(random.pick(subscriptions)) }
            // A scroll in progress goes on now and then between other responses (an app loading
            // more while the user reads).
            if let scroll, random.chance(0.5) {
                if let next = continueScroll(scroll) { return next }
                self.scroll = nil
            }
            return answerOrLayer(pickQuery(), context)
        case .page:
            if let scroll, let next = continueScroll(scroll) { return next }
            scroll = nil
            guard !paging.isEmpty else { return answer(pickQuery()) }
            let operation = random.pick(paging)
            let generated = answer(operation)
            if random.chance(0.5), case .response(_, let variables, _) = generated.event {
                scroll = (operation, variables, random.int(1...4), random.chance(0.5))
            }
            return generated
        case .mutation:
            return mutation(context)
        case .retain:
            let drawn = pickQuery()
            let token = nextToken
            nextToken += 1
            let (operation, variables) = revisit(or: (drawn, drawer.variables(for: drawn, server: server)))
            return plain(.retain(token: token, operation: operation.name, variables: variables))
        case .release:
            guard !context.retainedTokens.isEmpty else { return plain(.collect) }
            return plain(.release(token: random.pick(context.retainedTokens)))
        case .check:
            let drawn = pickQuery()
            let expiration: Double? = random.chance(swarm.expirationRate) ? random.pick([10.0, 60.0, 300.0]) : nil
            let (operation, variables) = revisit(or: (drawn, drawer.variables(for: drawn, server: server)))
            return plain(.check(operation: operation.name, variables: variables, expiration: expiration))
        case .collect:
            return plain(.collect)
        case .drain:
            // Drawn from a stream of its own, so that every other draw stays put.
            if heldDrains.chance(Self.heldDrainChance) {
                heldDrainEventsLeft = heldDrains.int(1...Self.heldDrainMaxEvents)
                return plain(.drainBegins)
            }
            return plain(.drain)
        case .drainPartway:
            return plain(.drainPartway(steps: random.int(0...6)))
        case .advanceClock:
            let forward = random.pick([1.0, 5.0, 30.0, 120.0])
            // One step in four sets the clock back, drawn from a stream of its own so that every
            // other draw of a seed stays where it was.
            if clockSetBacks.chance(Self.clockSetBackChance) {
                return plain(.advanceClock(seconds: -clockSetBacks.pick([1.0, 90.0, 3_600.0, 86_400.0])))
            }
            return plain(.advanceClock(seconds: forward))
        case .invalidate:
            return plain(.invalidate)
        case .quit:
            if quitCrashes.chance(Self.quitCrashChance) {
                let operations = quitCrashes.int(0...Self.quitCrashMaxOperations)
                let seed: UInt64? = quitCrashes.chance(0.5) ? quitCrashes.next() : nil
                return plain(.quitCrash(operations: operations, powerLossSeed: seed))
            }
            return plain(.quit)
        case .kill:
            return plain(.kill)
        case .powerLoss:
            return plain(.powerLoss(seed: random.next()))
        case .fault:
            let on = random.pick(["write", "sync", "read"])
            let code = on == "read" ? "ioerr" : random.pick(["ioerr", "full"])
            // One fault in four fails an open or a deletion instead, one of the next few (a
            // launch's, a checkpoint's copy of the WAL, a close's): a stream of its own, so no
            // other draw moved.
            if openFaults.chance(Self.openFaultChance) {
                let skip = openFaults.int(0...Self.openFaultMaxSkip)
                return plain(openFaults.chance(0.5) ? .fault(on: "open", code: "cantopen", skip: skip) : .fault(on: "delete", code: "ioerr", skip: skip))
            }
            return plain(.fault(on: on, code: code))
        case .corruptFile:
            return plain(.corruptFile(seed: random.next()))
        case .readFault:
            return plain(.readFault(code: random.pick(["ioerr", "ioerr", "busy"]), skip: random.int(0...3)))
        case .diskFull:
            return plain(.diskFull(events: random.int(2...16)))
        case .bitRot:
            // Half after a clean quit, whose checkpoint leaves the rows this launch read in the
            // main file: the next launch still reads them, so checks meet the damage.
            return plain(.bitRot(seed: random.next(), afterQuit: rotEndings.chance(0.5)))
        }
    }

    /// How often a scroll's next page finds its feed grown at the top since the page before.
    static let feedGrowthRate = 0.3
    /// How often a check or a retain goes back to a query answered lately, and how many are
    /// remembered.
    static let revisitRate = 0.5
    static let visitedLimit = 12

    /// Half the time a query the server answered lately (mostly one of the last three, as a user
    /// goes back a screen or two), else `drawn`: freshly drawn variables mostly name what was
    /// never fetched. The main streams draw `drawn` either way, so their later draws stay put.
    private mutating func revisit(
        or drawn: (operation: WorldOperation, variables: [String: JSONValue])
    ) -> (operation: WorldOperation, variables: [String: JSONValue]) {
        guard !visited.isEmpty, revisits.chance(Self.revisitRate) else { return drawn }
        let from = revisits.chance(0.5) ? max(0, visited.count - 3) : 0
        return visited[revisits.int(from...(visited.count - 1))]
    }

    /// Remembers a query the server answered, for checks and retains to go back to.
    private mutating func visit(_ operation: WorldOperation, _ variables: [String: JSONValue]) {
        guard operation.kind == .query else { return }
        visited.removeAll { $0.operation.name == operation.name && $0.variables == variables }
        visited.append((operation, variables))
        if visited.count > Self.visitedLimit { visited.removeFirst() }
    }

    /// The next page of a scroll in progress, or nil when the scroll is over (or cannot go on).
    private mutating func continueScroll(
        _ current: (operation: WorldOperation, variables: [String: JSONValue], pagesLeft: Int, backward: Bool)
    ) -> GeneratedEvent? {
        guard current.pagesLeft > 0,
              let variables = drawer.nextPage(of: current.variables, for: current.operation, server: server, backward: current.backward)
        else { return nil }
        scroll = (current.operation, variables, current.pagesLeft - 1, current.backward)
        visit(current.operation, variables)
        // Now and then the feed being read gains an item at its top between two pages: under
        // position cursors the next page then repeats an edge the client holds (de-duplication).
        var drift: [String] = []
        if random.chance(Self.feedGrowthRate),
           let paged = server.reachedConnections(current.operation, variables: variables).first(where: {
               $0.afterVariable != nil || $0.beforeVariable != nil
           }),
           let line = server.growFront(of: paged.listKey)
        {
            drift.append(line)
        }
        let execution = server.execute(current.operation, variables: variables)
        return GeneratedEvent(
            event: .response(operation: current.operation.name, variables: variables, body: .text(Self.text(execution))),
            execution: execution, drift: drift)
    }

    /// A query for a response, retain or check: mostly one of the app's screens.
    private mutating func pickQuery() -> WorldOperation {
        if !screens.isEmpty, queries.count == screens.count || random.chance(0.7) { return random.pick(screens) }
        return random.pick(queries)
    }

    /// The server's answer to `operation` under drawn variables.
    private mutating func answer(_ operation: WorldOperation) -> GeneratedEvent {
        answer(operation, variables: drawer.variables(for: operation, server: server))
    }

    /// The server's answer to `operation`, or now and then (``queryLayerChance``) the app's
    /// optimistic layer of it first: an app that shows what it predicts while the query is in
    /// flight, or writes the query root in a mutation's optimistic update. The layer holds the
    /// server's truth guessed without failures; a later mutation draw answers it with the real
    /// response, or fails it.
    private mutating func answerOrLayer(_ operation: WorldOperation, _ context: GenerationContext) -> GeneratedEvent {
        guard context.liveLayers.count < Self.queryLayerLimit, queryLayers.chance(Self.queryLayerChance) else { return answer(operation) }
        let variables = drawer.variables(for: operation, server: server)
        guard let predicted = server.optimisticExecution(operation, variables: variables) else {
            return answer(operation, variables: variables)
        }
        let layer = nextLayer
        nextLayer += 1
        layerOperations[layer] = (operation.name, variables)
        visit(operation, variables)
        return GeneratedEvent(
            event: .optimistic(layer: layer, operation: operation.name, variables: variables, body: .text(Self.text(predicted))),
            execution: predicted, drift: [])
    }

    /// The server's answer to `operation` under `variables`.
    private mutating func answer(_ operation: WorldOperation, variables: [String: JSONValue]) -> GeneratedEvent {
        let execution = executed(operation, variables: variables)
        visit(operation, variables)
        return delivered(operation, variables, execution)
    }

    /// The server's execution of `operation`, or now and then (``refusalChance``) its refusal
    /// of the request, which leaves its state as it was.
    private mutating func executed(_ operation: WorldOperation, variables: [String: JSONValue]) -> Execution {
        if refusals.chance(Self.refusalChance) { return server.refuse(draw: refusals.next()) }
        return server.execute(operation, variables: variables)
    }

    /// One of the world's recorded responses, as it was received or now and then garbled on its
    /// way; it carries no provenance (the server never answered it).
    private mutating func recorded() -> GeneratedEvent {
        let recorded = world.settings.recorded[recordings.int(0...(world.settings.recorded.count - 1))]
        if let operation = world.operation(named: recorded.operation) { visit(operation, recorded.variables) }
        let (text, how) = maybeGarbled(Array(recorded.text.utf8)) ?? (recorded.text, nil)
        return GeneratedEvent(
            event: .response(operation: recorded.operation, variables: recorded.variables, body: .text(text)),
            execution: nil, drift: [], garbled: how, recorded: recorded.source)
    }

    /// A mutation: an answer or a failure for a live layer, or a new mutation (an optimistic
    /// layer first, or its plain answer).
    private mutating func mutation(_ context: GenerationContext) -> GeneratedEvent {
        if let layer = context.liveLayers.first(where: { layerOperations[$0] != nil }), random.chance(0.5) {
            let pending = layerOperations.removeValue(forKey: layer)!
            if random.chance(0.25) { return GeneratedEvent(event: .fail(layer: layer), execution: nil, drift: []) }
            let operation = world.operation(named: pending.operation)!
            let execution = executed(operation, variables: pending.variables)
            return GeneratedEvent(
                event: .answer(layer: layer, operation: operation.name, variables: pending.variables, body: .text(Self.text(execution))),
                execution: execution, drift: [])
        }
        guard !mutations.isEmpty else { return answer(pickQuery()) }
        let operation = random.pick(mutations)
        let variables = drawer.variables(for: operation, server: server)
        if random.chance(0.6), let optimistic = server.optimisticExecution(operation, variables: variables) {
            let layer = nextLayer
            nextLayer += 1
            layerOperations[layer] = (operation.name, variables)
            return GeneratedEvent(
                event: .optimistic(layer: layer, operation: operation.name, variables: variables, body: .text(Self.text(optimistic))),
                execution: optimistic, drift: [])
        }
        return delivered(operation, variables, executed(operation, variables: variables))
    }

    /// The server's answer as a response event: as sent, or now and then garbled on its way
    /// (``ResponseGarbling``), with no provenance then.
    private mutating func delivered(_ operation: WorldOperation, _ variables: [String: JSONValue], _ execution: Execution) -> GeneratedEvent {
        if let (text, how) = maybeGarbled(execution.responseText) {
            return GeneratedEvent(
                event: .response(operation: operation.name, variables: variables, body: .text(text)),
                execution: nil, drift: [], garbled: how)
        }
        return GeneratedEvent(
            event: .response(operation: operation.name, variables: variables, body: .text(Self.text(execution))),
            execution: execution, drift: [])
    }

    /// One response in ``garbleChance``, `text` garbled on its way and how (``ResponseGarbling``);
    /// nil for the others, which arrive as sent.
    private mutating func maybeGarbled(_ text: [UInt8]) -> (text: String, how: String)? {
        guard garbles.chance(Self.garbleChance) else { return nil }
        let (garbled, how) = ResponseGarbling.garble(text, random: &garbles)
        return (String(decoding: garbled, as: UTF8.self), how)
    }

    private static func text(_ execution: Execution) -> String {
        String(decoding: execution.responseText, as: UTF8.self)
    }
}
