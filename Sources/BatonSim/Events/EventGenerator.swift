import Baton

/// What the generator may know of the run so far, to draw events that make sense.
package struct GenerationContext {
    package var processUp: Bool
    /// Live optimistic layers, oldest first, with their operation and variables.
    package var liveLayers: [(layer: Int, operation: String, variables: [String: JSONValue])]
    package var retainedTokens: [Int]
    /// The stored cursors of a character's notes connection, if the model has one.
    package var noteCursors: (Int) -> (start: String?, end: String?)?
}

/// Draws a run's events from its seed: one stream for the choice of kind, one for the world.
package struct EventGenerator {
    package let configuration: SwarmConfiguration
    private var random: SimRandom
    package private(set) var world: ServerWorld
    private var nextToken = 1
    private var nextLayer = 1
    private let kinds = SwarmConfiguration.Kind.allCases

    package init(configuration: SwarmConfiguration, random: SimRandom) {
        self.configuration = configuration
        self.random = random.split("events")
        world = ServerWorld(configuration: configuration, random: random.split("world"))
    }

    /// The next event.
    package mutating func next(_ context: GenerationContext) -> SimEvent {
        if !context.processUp { return .relaunch }
        let kind = kinds[random.weighted(kinds.map { configuration.weights[$0, default: 0] })]
        world.drift()
        switch kind {
        case .response:
            let responding = configuration.operations.filter { $0 != "Notes" }
            let operation = responding.isEmpty ? "CharacterScreen" : random.pick(responding)
            let variables = queryVariables(operation)
            return .response(operation: operation, variables: variables, body: world.respond(operation, variables))
        case .partialResponse:
            let variables = queryVariables("CharacterHeader")
            return .response(operation: "CharacterHeader", variables: variables, body: world.respond("CharacterHeader", variables))
        case .mutation:
            if let live = context.liveLayers.first, random.chance(0.5) {
                if random.chance(0.25) { return .fail(layer: live.layer) }
                return .answer(layer: live.layer, operation: live.operation, variables: live.variables, body: world.respond(live.operation, live.variables))
            }
            let layer = nextLayer
            nextLayer += 1
            let variables: [String: JSONValue] = ["id": .string(world.characterID()), "name": .string("Renamed \(layer)")]
            return .optimistic(layer: layer, operation: "Rename", variables: variables, body: world.optimisticResponse("Rename", variables))
        case .deletion:
            if random.chance(0.5) {
                let variables: [String: JSONValue] = ["id": .string(world.characterID())]
                return .response(operation: "DeleteCharacter", variables: variables, body: world.respond("DeleteCharacter", variables))
            }
            let c = random.int(0...(configuration.characters - 1))
            let variables: [String: JSONValue] = ["id": .string(world.noteID(of: c))]
            return .response(operation: "RemoveNote", variables: variables, body: world.respond("RemoveNote", variables))
        case .page:
            let c = random.int(0...(configuration.characters - 1))
            var variables: [String: JSONValue] = ["id": .string(String(c + 1))]
            let cursors = context.noteCursors(c)
            switch random.int(0...2) {
            case 0:
                variables["first"] = .int(random.int(1...3))
            case 1:
                variables["first"] = .int(random.int(1...3))
                let after = random.chance(0.8) ? cursors?.end : nil
                variables["after"] = .string(after ?? world.cursor(of: c))
            default:
                variables["last"] = .int(random.int(1...3))
                let before = random.chance(0.8) ? cursors?.start : nil
                variables["before"] = .string(before ?? world.cursor(of: c))
            }
            return .response(operation: "Notes", variables: variables, body: world.respond("Notes", variables))
        case .retain:
            let operation = random.pick(["CharacterHeader"] + configuration.operations)
            let token = nextToken
            nextToken += 1
            return .retain(token: token, operation: operation, variables: queryVariables(operation))
        case .release:
            guard !context.retainedTokens.isEmpty else { return .collect }
            return .release(token: random.pick(context.retainedTokens))
        case .check:
            let operation = random.pick(["CharacterHeader"] + configuration.operations)
            let expiration: Double? = random.chance(configuration.expirationRate) ? random.pick([10.0, 60.0, 300.0]) : nil
            return .check(operation: operation, variables: queryVariables(operation), expiration: expiration)
        case .collect:
            return .collect
        case .drain:
            return .drain
        case .drainPartway:
            return .drainPartway(steps: random.int(0...6))
        case .advanceClock:
            return .advanceClock(seconds: random.pick([1.0, 5.0, 30.0, 120.0]))
        case .invalidate:
            return .invalidate
        case .quit:
            return .quit
        case .kill:
            return .kill
        case .powerLoss:
            return .powerLoss(seed: random.next())
        case .fault:
            let on = random.pick(["write", "sync", "read"])
            return .fault(on: on, code: on == "read" ? "ioerr" : random.pick(["ioerr", "full"]))
        case .corruptFile:
            return .corruptFile(seed: random.next())
        }
    }

    /// Variables for a query the app would run.
    private mutating func queryVariables(_ operation: String) -> [String: JSONValue] {
        switch operation {
        case "EpisodeCast": return ["id": .string(world.episodeID())]
        case "LocationResidents": return ["id": .string(world.locationID())]
        case "CharacterList": return ["page": .int(random.int(1...3))]
        case "Notes": return ["id": .string(world.characterID()), "first": .int(2)]
        default: return ["id": .string(world.characterID())]
        }
    }
}
