import Baton

/// One seed's server, drawn from its world's settings before anything runs: data sizes, value
/// versions, error and null rates, how tricky its strings are, its cursors and its JSON spelling.
///
/// Printed at the top of a trace, so a failure says what kind of server it ran against.
package struct ServerConfiguration: Sendable, Hashable, CustomStringConvertible {
    /// What a connection's cursors name.
    package enum CursorStyle: String, Sendable, Hashable {
        /// The node (stable: a page after a cursor is the same page while the node lives).
        case node
        /// The position (`offset:5`): growth at the front shifts every cursor, and later pages
        /// overlap edges the client already holds.
        case offset
    }

    /// Entities each entity type starts with.
    package var entityCounts: [String: Int]
    /// Versions a value cycles through (1: every renewal writes the same value).
    package var valueVersions: Int
    /// Items in a list field.
    package var listLength: ClosedRange<Int>
    /// Nodes a connection starts with.
    package var connectionLength: ClosedRange<Int>
    /// Chance a nullable field answers with an error.
    package var errorRate: Double
    /// Chance a non-null field answers with an error (its null then propagates).
    package var nonNullErrorRate: Double
    /// Chance a nullable list item answers with an error of its own (answers only).
    package var itemErrorRate: Double
    /// Chance a nullable field, or a nullable list item, is `null`.
    package var nullRate: Double
    /// Chance an entity whose type has a nullable id has none.
    package var nullIDRate: Double
    /// Chance a generated string is a tricky one.
    package var trickyStringRate: Double
    /// Chance an entity's id is a tricky string.
    package var trickyIDRate: Double
    /// The first two entities of each type get ids equal to Swift's `==` and different in bytes.
    package var canonicalTwins: Bool
    package var cursorStyle: CursorStyle
    /// Cursors wrapped in tricky characters (`⟪c3⟫"`), since stores key connections by them.
    package var decoratedCursors: Bool
    /// Ids unique across types (the world's `globalIDs`).
    package var globalIDs: Bool
    package var json: JSONStyle
    /// A server that leaves a null where it falls: a non-null field that fails is written `null`
    /// in place, inside the objects and lists around it, with its error, and the client must carry
    /// the null up to the nearest nullable place itself (the specification's propagation, which
    /// some servers skip). The data is the same; only the text differs.
    package var leavesNullsInPlace: Bool

    /// Draws a configuration for `world` from `random`.
    package init(world: World, random: inout SimRandom) {
        let settings = world.settings
        var counts: [String: Int] = [:]
        for type in world.analysis.entityTypeNames {
            let count = random.int(settings.entityCount(of: type))
            // An enum id allows as many entities as the enum has values.
            counts[type] = WorldTypes.enumIDs(of: type, in: world.schema).map { min(count, $0.count) } ?? count
        }
        entityCounts = counts
        valueVersions = random.int(settings.valueVersions)
        listLength = settings.listLength.lowerBound...random.int(settings.listLength)
        connectionLength = settings.connectionLength.lowerBound...random.int(settings.connectionLength)
        errorRate = random.pick(settings.errorRates)
        nonNullErrorRate = random.pick(settings.nonNullErrorRates)
        nullRate = random.pick(settings.nullRates)
        nullIDRate = random.pick(settings.nullIDRates)
        trickyStringRate = random.pick(settings.trickyStringRates)
        trickyIDRate = random.pick(settings.trickyIDRates)
        canonicalTwins = random.chance(settings.canonicalTwinChance)
        cursorStyle = random.chance(0.5) ? .node : .offset
        decoratedCursors = random.chance(0.25)
        globalIDs = settings.globalIDs ?? world.analysis.looksUpAcrossTypes
        json = JSONStyle(random: &random)
        // Drawn last, so that the draws before it are the ones a seed made before item errors.
        itemErrorRate = random.pick(world.settings.itemErrorRates)
        leavesNullsInPlace = random.chance(world.settings.nullsInPlaceChance)
        // Such a server has something to leave: its non-null fields fail now and then.
        if leavesNullsInPlace { nonNullErrorRate = max(nonNullErrorRate, 0.02) }
    }

    package var description: String {
        let counts = entityCounts.keys.sorted(by: ServerHash.utf8Less).map { "\($0) \(entityCounts[$0]!)" }
        var parts = [
            "entities " + counts.joined(separator: ", "),
            "versions \(valueVersions)",
            "lists \(listLength.lowerBound)...\(listLength.upperBound)",
            "connections \(connectionLength.lowerBound)...\(connectionLength.upperBound)",
            "errors \(errorRate)/\(nonNullErrorRate)/\(itemErrorRate) (items)", "nulls \(nullRate)", "null ids \(nullIDRate)",
            "tricky strings \(trickyStringRate)", "tricky ids \(trickyIDRate)",
            "cursors \(cursorStyle.rawValue)\(decoratedCursors ? " decorated" : "")",
        ]
        if canonicalTwins { parts.append("canonical twins") }
        if leavesNullsInPlace { parts.append("nulls left in place") }
        parts.append("json: \(json)")
        return parts.joined(separator: "; ")
    }
}
