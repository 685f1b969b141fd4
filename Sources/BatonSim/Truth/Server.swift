import Baton

/// The simulator's truth: a seeded store of typed objects generated from a world's schema, edited
/// over time, that answers the world's operations by executing them.
///
/// Entities (object types with an `id`) are numbered per type; every other object is reached by
/// path. A field's value is a hash of (seed, object, field, arguments, version), so the state
/// holds only what changed: versions, values set by mutations, deletions, new entities and the
/// lists the server keeps. Every answer comes with its provenance (``Execution``).
package struct Server: Sendable {
    package let world: World
    package let configuration: ServerConfiguration
    var state: ServerState
    /// Seeds every hash of generated values.
    let salt: UInt64
    /// Draws per answered operation (which fields fail).
    var answerRandom: SimRandom
    /// Draws for the JSON spelling of each response.
    var jsonRandom: SimRandom
    /// Draws for ``drift()``.
    var driftRandom: SimRandom
    /// Draws for the ids of entities.
    var idRandom: SimRandom
    /// Draws which tricky ids hold a `:`, and whether a `client` is `root` (a stream of its own,
    /// so no other id moves).
    var colonIDRandom: SimRandom

    /// Draws the configuration from the world's settings, then the starting state.
    package init(world: World, random: SimRandom) {
        var configurationRandom = random.split("configuration")
        self.init(world: world, random: random, configuration: ServerConfiguration(world: world, random: &configurationRandom))
    }

    /// A server with a configuration given rather than drawn (a replay that pins one, or a test
    /// that needs offset cursors); the state is drawn from `random` as usual.
    package init(world: World, random: SimRandom, configuration: ServerConfiguration) {
        self.world = world
        self.configuration = configuration
        var saltRandom = random.split("values")
        salt = saltRandom.next()
        answerRandom = random.split("answers")
        jsonRandom = random.split("json")
        driftRandom = random.split("drift")
        idRandom = random.split("ids")
        colonIDRandom = random.split("colon ids")
        state = ServerState()
        if let query = world.schema.queryTypeName {
            let identity = Executor.rootIdentity(query)
            state.pathObjects[identity] = PathObjectRecord(type: query, label: query)
            state.pathOrder.append(identity)
        }
        for type in world.analysis.entityTypeNames {
            state.tables.append(EntityTable(
                name: type, idKind: world.analysis.entityTypes[type]!, fixedIDs: WorldTypes.enumIDs(of: type, in: world.schema),
                integerIDs: world.schema.field("id", on: type).map { WorldTypes.isIntID($0.type) } ?? false))
            for _ in 0..<configuration.entityCounts[type, default: 0] {
                addEntity(typeIndex: state.tables.count - 1)
            }
        }
    }

    /// Answers `operation` under `variables` against the current state; a mutation edits the state
    /// first. The answer is the response bytes and their provenance.
    package mutating func execute(_ operation: WorldOperation, variables: [String: JSONValue]) -> Execution {
        state.executions += 1
        let taken = takeState()
        var executor = Executor(
            world: world, configuration: configuration, salt: salt, state: taken, mode: .answer, random: answerRandom,
            operation: operation, variables: variables)
        let result = executor.run()
        answerRandom = executor.random
        state = executor.state
        return finish(result)
    }

    /// The server's refusal of a request before executing it (a rate limit, a failed
    /// authentication, a query too costly): errors only, no `data`, the state unchanged. `draw`
    /// picks the reason.
    package mutating func refuse(draw: UInt64) -> Execution {
        let reasons: [(message: String, code: String)] = [
            ("API rate limit exceeded", "RATE_LIMITED"),
            ("This endpoint requires you to be authenticated.", "UNAUTHENTICATED"),
            ("Query has complexity of 1312, which exceeds max complexity of 1000", "MAX_COMPLEXITY_EXCEEDED"),
            ("Service temporarily unavailable; try again later \u{1F6A7}", "SERVICE_UNAVAILABLE"),
        ]
        let reason = reasons[Int(draw % UInt64(reasons.count))]
        let extensions = draw & 0x10 == 0 ? [ProvenanceMember("code", .string(reason.code))] : nil
        let error = ProvenanceError(message: reason.message, path: [], extensions: extensions)
        return finish(ExecutionResult(data: nil, errors: [RaisedError(error: error, location: nil, field: nil)], refused: true))
    }

    /// The response a client would write before the server answers: for a mutation, the
    /// payload executed against a copy of the state with the edit applied and guessed values
    /// (strings `optimistic <field>`) in the fields it renews; for a query, its answer from the
    /// state as it is, with nothing failing. The server is unchanged. `nil` for a subscription,
    /// or when a mutation names no object the server has.
    package func optimisticExecution(_ operation: WorldOperation, variables: [String: JSONValue]) -> Execution? {
        guard operation.kind != .subscription else { return nil }
        var executor = Executor(
            world: world, configuration: configuration, salt: salt, state: state, mode: .optimistic, operation: operation,
            variables: variables)
        let result = executor.run()
        guard !executor.missedTarget else { return nil }
        var copy = self
        return copy.finish(result)
    }

    /// Runs `operation` on a copy of the state without failures and reports every connection it
    /// passed through: what the drawer needs to choose cursors that join pages.
    package func reachedConnections(_ operation: WorldOperation, variables: [String: JSONValue]) -> [ReachedConnection] {
        var executor = Executor(
            world: world, configuration: configuration, salt: salt, state: state, mode: .probe, operation: operation,
            variables: variables)
        _ = executor.run()
        return executor.reached
    }

    /// The bytes of `result`, spelled in this seed's JSON style.
    private mutating func finish(_ result: ExecutionResult) -> Execution {
        var writer = ResponseWriter(style: configuration.json, random: jsonRandom)
        let (text, written) = writer.response(result)
        jsonRandom = writer.random
        let unplaced = result.errors.filter { !$0.placed }.map(\.error)
        return Execution(
            responseText: text, data: written, unplacedErrors: unplaced, errors: result.errors.map(\.error),
            writtenData: result.writtenData)
    }

    /// Moves the state out (leaving an empty one), so that the executor owns it uniquely and its
    /// edits do not copy it.
    private mutating func takeState() -> ServerState {
        var taken = ServerState()
        swap(&taken, &state)
        return taken
    }

    // MARK: - Entities

    /// Makes a new entity of the type numbered `typeIndex`; returns it, or nil when the type's
    /// enum id has no value left.
    @discardableResult
    mutating func addEntity(typeIndex: Int) -> EntityRef? {
        let table = state.tables[typeIndex]
        let serial = table.count
        var id: String?
        if table.isFull {
            return nil
        } else if table.idKind == .optional, idRandom.chance(configuration.nullIDRate) {
            id = nil
        } else if let fixed = table.fixedIDs {
            id = fixed[serial]
        } else if table.integerIDs {
            id = String(serial + 1)
        } else {
            func plain(_ serial: Int) -> String {
                configuration.globalIDs ? "\(table.name)_\(serial + 1)" : "\(serial + 1)"
            }
            if table.name == "client", serial == 0, colonIDRandom.chance(0.5) {
                // `client:root` is the query root's key: the store must key this one apart.
                id = "root"
            } else if configuration.canonicalTwins, serial < 2 {
                id = (serial == 0 ? "caf\u{E9}" : "cafe\u{301}") + plain(0)
            } else if idRandom.chance(configuration.trickyIDRate) {
                let template = idRandom.int(0...7)
                if colonIDRandom.chance(0.3) {
                    id = colonID(plain(serial), earlier: serial > 0 ? plain(colonIDRandom.int(0...(serial - 1))) : nil, type: table.name)
                } else {
                    id = ServerValues.trickyID(plain(serial), template: template)
                }
            } else {
                id = plain(serial)
            }
        }
        state.tables[typeIndex].append(id: id)
        return EntityRef(type: typeIndex, serial: serial)
    }

    /// An id with a `:` in it: mostly an earlier entity's id, a colon and the name of one of the
    /// type's fields without arguments (`1:location`), which is the path of the object under that
    /// entity when its own id is null, so keys that do not escape ids merge the two; else a colon
    /// or a backslash somewhere in the plain id.
    private mutating func colonID(_ plain: String, earlier: String?, type: String) -> String {
        let fields = world.schema.type(named: type)?.fields.filter { $0.arguments.isEmpty && $0.name != "id" }.map(\.name) ?? []
        if let earlier, !fields.isEmpty, colonIDRandom.chance(0.7) {
            let id = earlier + ":" + fields[colonIDRandom.int(0...(fields.count - 1))]
            // Ids are unique per type: one taken already gives way to a plain one of this serial's.
            if let table = state.tables.first(where: { $0.name == type }), !table.ids.contains(id) { return id }
        }
        return [plain + ":", ":" + plain, "a\\:" + plain, plain + "\\", "urn:x:" + plain][colonIDRandom.int(0...4)]
    }

    /// The ids of the entities of `types` (all entity types when empty): living ones, and deleted ones.
    package func entityIDs(of types: [String]) -> (living: [String], deleted: [String]) {
        var living: [String] = []
        var deleted: [String] = []
        for table in state.tables where types.isEmpty || types.contains(table.name) {
            for serial in 0..<table.count {
                guard let id = table.ids[serial] else { continue }
                if table.alive[serial] { living.append(id) } else { deleted.append(id) }
            }
        }
        return (living, deleted)
    }

    /// How many entities of `type` are alive.
    package func livingCount(of type: String) -> Int {
        state.tables.first { $0.name == type }?.livingCount ?? 0
    }

    /// How many entities of `types` (all entity types when empty) with an id are alive (or deleted).
    package func idCount(of types: [String], living: Bool) -> Int {
        var count = 0
        for table in state.tables where types.isEmpty || types.contains(table.name) {
            for serial in 0..<table.count where table.alive[serial] == living && table.ids[serial] != nil { count += 1 }
        }
        return count
    }

    /// The `index`-th id counted by ``idCount(of:living:)``.
    package func id(of types: [String], living: Bool, at index: Int) -> String {
        var remaining = index
        for table in state.tables where types.isEmpty || types.contains(table.name) {
            for serial in 0..<table.count where table.alive[serial] == living {
                guard let id = table.ids[serial] else { continue }
                if remaining == 0 { return id }
                remaining -= 1
            }
        }
        preconditionFailure("no id \(index)")
    }

    /// A name for `entity` in trace lines: `Character #2 (id "3")`.
    func label(of entity: EntityRef) -> String {
        state.tables[entity.type].label(entity.serial)
    }
}
