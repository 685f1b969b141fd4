import Baton

extension SwarmConfiguration {
    /// The configuration as JSON, for campaign reports: every kind's weight (0: off this run) and
    /// the sizes and rates of the simulated server.
    package var json: JSONValue {
        var weights: [String: JSONValue] = [:]
        for kind in Kind.allCases { weights[kind.rawValue] = .int(self.weights[kind, default: 0]) }
        return .object([
            "weights": .object(weights),
            "characters": .int(characters),
            "episodes": .int(episodes),
            "locations": .int(locations),
            "notesPerCharacter": .int(notesPerCharacter),
            "valueVersions": .int(valueVersions),
            "errorRate": .double(errorRate),
            "unknownLocationRate": .double(unknownLocationRate),
            "expirationRate": .double(expirationRate),
            "screens": .array(operations.map { .string($0) }),
        ])
    }
}
