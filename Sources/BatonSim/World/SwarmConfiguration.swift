/// The shape of one run, drawn from its seed before any event: which event kinds are on and how
/// often, how crashes happen, and how big and how overlapping the simulated server's data is.
///
/// Swarm testing: switching whole kinds off per seed reaches states a uniform mix rarely does.
package struct SwarmConfiguration: Hashable, Sendable, CustomStringConvertible {
    /// The kinds of event the generator draws, each with its weight (0: off this run).
    package enum Kind: String, CaseIterable, Sendable {
        case response, partialResponse, mutation, deletion, page, retain, release, check, collect
        case drain, drainPartway, advanceClock, invalidate, quit, kill, powerLoss, fault, corruptFile
    }

    package var weights: [Kind: Int]
    package var characters: Int
    package var episodes: Int
    package var locations: Int
    package var notesPerCharacter: Int
    /// How many distinct versions a server value cycles through (few: many equal writes).
    package var valueVersions: Int
    /// Chance that a response carries a field error.
    package var errorRate: Double
    /// Chance that a character's location is unknown (a location without an id: a path key).
    package var unknownLocationRate: Double
    /// Chance that a check names an expiration.
    package var expirationRate: Double
    /// The screens this run's app has: which query operations (and so which types and fields)
    /// responses, retains and checks use. Fewer screens overlap more.
    package var operations: [String]

    /// Draws a configuration from `random`.
    package init(random: inout SimRandom) {
        let base: [Kind: Int] = [
            .response: 24, .partialResponse: 10, .mutation: 6, .deletion: 5, .page: 8, .retain: 5,
            .release: 5, .check: 22, .collect: 5, .drain: 12, .drainPartway: 1, .advanceClock: 4,
            .invalidate: 1, .quit: 1, .kill: 2, .powerLoss: 2, .fault: 2, .corruptFile: 1,
        ]
        let alwaysOn: Set<Kind> = [.response, .check, .drain]
        var weights: [Kind: Int] = [:]
        for kind in Kind.allCases {
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
        self.weights = weights
        characters = random.int(2...7)
        episodes = random.int(1...4)
        locations = random.int(1...3)
        notesPerCharacter = random.int(0...7)
        valueVersions = random.int(1...4)
        errorRate = random.pick([0, 0.05, 0.2])
        unknownLocationRate = random.pick([0, 0.2, 0.5])
        expirationRate = random.pick([0, 0.3, 0.7])
        // Each full screen is on with probability 3/4; at least one always is.
        let screens = ["CharacterScreen", "EpisodeCast", "LocationResidents", "CharacterList", "Notes"]
        var chosen = screens.filter { _ in !random.chance(0.25) }
        if chosen.isEmpty { chosen = [random.pick(screens)] }
        operations = chosen
        if !chosen.contains("Notes") { self.weights[.page] = 0 }
    }

    package var description: String {
        let on = Kind.allCases.filter { weights[$0, default: 0] > 0 }.map { "\($0.rawValue)=\(weights[$0]!)" }
        return "characters \(characters), episodes \(episodes), locations \(locations), notes \(notesPerCharacter), versions \(valueVersions), errors \(errorRate), unknown locations \(unknownLocationRate), expirations \(expirationRate); screens \(operations.joined(separator: ",")); kinds: " + on.joined(separator: " ")
    }
}
