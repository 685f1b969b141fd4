import Baton

/// What a world may say about how its seeds run (sizes, rates, which operations are answered);
/// every field has a default, and each seed's server draws its own values within these bounds.
///
/// A world folder may hold a `world.json` with any of these keys (see ``parse(_:source:schema:operationNames:)``).
package struct WorldSettings: Sendable, Hashable {
    /// Entities per object type with an id, drawn per seed within this range.
    package var entitiesPerType: ClosedRange<Int> = 2...7
    /// Per entity type, a range that replaces ``entitiesPerType`` for it.
    package var entities: [String: ClosedRange<Int>] = [:]
    /// How many versions a server value cycles through, drawn per seed (few: many equal writes).
    package var valueVersions: ClosedRange<Int> = 1...4
    /// Items in a list field, drawn per seed within this range.
    package var listLength: ClosedRange<Int> = 0...5
    /// Nodes a connection starts with, drawn per seed within this range (growth adds more).
    package var connectionLength: ClosedRange<Int> = 0...5
    /// Chances the swarm picks from for a nullable field to answer with an error.
    package var errorRates: [Double] = [0, 0.05, 0.2]
    /// Chances the swarm picks from for a non-null field to answer with an error (its parent then
    /// becomes null: non-null propagation).
    package var nonNullErrorRates: [Double] = [0, 0, 0.02]
    /// Chances the swarm picks from for a nullable list item to answer with an error of its own
    /// (`null` at its place, the error's path ending in its index), as a server that checks each
    /// node's permission does; a list with two such items gives its field two errors.
    package var itemErrorRates: [Double] = [0, 0.1, 0.3]
    /// Chances the swarm picks from for a nullable field to answer `null`.
    package var nullRates: [Double] = [0, 0.1, 0.3]
    /// Chances the swarm picks from for an entity whose type has a nullable `id` to have a `null` id.
    package var nullIDRates: [Double] = [0, 0.2, 0.5]
    /// Chances the swarm picks from for a generated string to be a tricky one (escapes, control
    /// characters, emoji, combining sequences) rather than plain ASCII.
    package var trickyStringRates: [Double] = [0, 0.1, 0.3]
    /// Chances the swarm picks from for an entity's id to be a tricky string.
    package var trickyIDRates: [Double] = [0, 0, 0.2]
    /// Chance that a seed gives the first two entities of each type ids that differ only by Unicode
    /// normalization (`café1` precomposed and decomposed): distinct bytes that Swift's `==` calls
    /// equal, a classic place for key bugs.
    package var canonicalTwinChance = 0.1
    /// Chance that a seed's server leaves nulls where they fall: a non-null field that fails is
    /// written `null` in place rather than its null carried up to the nearest nullable place
    /// (``ServerConfiguration/leavesNullsInPlace``).
    package var nullsInPlaceChance = 0.25
    /// When true, ids are unique across all types (`Issue_3`), as a `node(id:)` field needs; when
    /// false, each type numbers its own (`1`, `2`, …). When not set, ids are global exactly when
    /// the schema has a field that looks an id up among several entity types.
    package var globalIDs: Bool?
    /// Operations that only ever run as checks and retains, never answered (none by default).
    package var unansweredOperations: [String] = []
    /// When true, every selection set of the operation files but the operations' own selects
    /// `__typename`, as the documents Apollo's code generators make do: an app's `.graphql` files
    /// run as its generated code sends them (``TypenameInsertion``).
    package var addTypename = false
    /// Responses the app's real server once sent, delivered now and then among the server's own
    /// (``RecordedResponse``; none by default).
    package var recorded: [RecordedResponse] = []

    package init() {}

    /// The range of entity counts for `type`.
    package func entityCount(of type: String) -> ClosedRange<Int> {
        entities[type] ?? entitiesPerType
    }
}

extension WorldSettings {
    /// The keys `world.json` may hold.
    static let keys = [
        "addTypename", "canonicalTwinChance", "connectionLength", "entities", "entitiesPerType", "errorRates", "globalIDs", "itemErrorRates",
        "listLength", "nonNullErrorRates", "nullIDRates", "nullRates", "nullsInPlaceChance", "recorded", "trickyIDRates", "trickyStringRates",
        "unansweredOperations", "valueVersions",
    ]

    /// Reads a `world.json`: one object whose members override the defaults. Ranges are written
    /// `[low, high]` or as one number, rates as arrays of chances between 0 and 1.
    ///
    /// - Throws: ``WorldError`` at the member that is wrong: an unknown key, a value of the wrong
    ///   kind, an empty or reversed range, an entity type the schema does not have, an operation
    ///   the world does not have, a recorded response's file that `readResponse` cannot read.
    package static func parse(
        _ text: String, source: String, schema: Schema, operationNames: [String], readResponse: (String) -> String? = { _ in nil }
    ) throws -> WorldSettings {
        let json = try SettingsJSON.parse(text, source: source)
        guard case .object(let members) = json.value else {
            throw WorldError("the settings must be one JSON object", source: source, at: json.location)
        }
        var settings = WorldSettings()
        var seen: [String] = []
        for member in members {
            let value = member.value
            func fail(_ message: String, at location: GraphQLLocation? = nil) -> WorldError {
                WorldError("\"\(member.key)\": \(message)", source: source, at: location ?? value.location)
            }
            if seen.contains(member.key) {
                throw WorldError("\"\(member.key)\" is given twice", source: source, at: member.keyLocation)
            }
            seen.append(member.key)
            switch member.key {
            case "entitiesPerType": settings.entitiesPerType = try range(value, fail)
            case "valueVersions":
                settings.valueVersions = try range(value, fail)
                if settings.valueVersions.lowerBound < 1 { throw fail("a value needs at least one version") }
            case "listLength": settings.listLength = try range(value, fail)
            case "connectionLength": settings.connectionLength = try range(value, fail)
            case "errorRates": settings.errorRates = try rates(value, fail)
            case "nonNullErrorRates": settings.nonNullErrorRates = try rates(value, fail)
            case "itemErrorRates": settings.itemErrorRates = try rates(value, fail)
            case "nullRates": settings.nullRates = try rates(value, fail)
            case "nullIDRates": settings.nullIDRates = try rates(value, fail)
            case "trickyStringRates": settings.trickyStringRates = try rates(value, fail)
            case "trickyIDRates": settings.trickyIDRates = try rates(value, fail)
            case "canonicalTwinChance", "nullsInPlaceChance":
                guard case .number(let chance, _) = value.value, chance >= 0, chance <= 1 else {
                    throw fail("expected a chance between 0 and 1, found \(value.kindName)")
                }
                if member.key == "canonicalTwinChance" { settings.canonicalTwinChance = chance } else { settings.nullsInPlaceChance = chance }
            case "globalIDs", "addTypename":
                guard case .bool(let flag) = value.value else { throw fail("expected true or false, found \(value.kindName)") }
                if member.key == "globalIDs" { settings.globalIDs = flag } else { settings.addTypename = flag }
            case "entities":
                guard case .object(let types) = value.value else { throw fail("expected an object of type names, found \(value.kindName)") }
                for entry in types {
                    guard schema.type(named: entry.key)?.kind == .object, schema.field("id", on: entry.key) != nil else {
                        throw fail("\"\(entry.key)\" is not an object type with an id field", at: entry.keyLocation)
                    }
                    settings.entities[entry.key] = try range(entry.value, fail)
                }
            case "unansweredOperations":
                guard case .array(let items) = value.value else { throw fail("expected an array of operation names, found \(value.kindName)") }
                settings.unansweredOperations = try items.map { item in
                    guard case .string(let name) = item.value else { throw fail("expected an operation name, found \(item.kindName)", at: item.location) }
                    guard operationNames.contains(name) else { throw fail("the world has no operation \"\(name)\"", at: item.location) }
                    return name
                }
            case "recorded":
                guard case .array(let items) = value.value else { throw fail("expected an array of recorded responses, found \(value.kindName)") }
                settings.recorded = try items.map { item in
                    try RecordedResponse.parse(item, settingsSource: source, operationNames: operationNames, read: readResponse, fail: fail)
                }
            default:
                throw WorldError(
                    "unknown setting \"\(member.key)\"; the settings are \(keys.joined(separator: ", "))",
                    source: source, at: member.keyLocation)
            }
        }
        return settings
    }

    /// Whether a `world.json` asks for `__typename` to be added, read before its operations are
    /// (``parse(_:source:schema:operationNames:)`` checks the rest once they are).
    package static func addsTypename(_ text: String, source: String) throws -> Bool {
        let json = try SettingsJSON.parse(text, source: source)
        guard case .object(let members) = json.value,
              let member = members.first(where: { $0.key == "addTypename" }), case .bool(let flag) = member.value.value
        else { return false }
        return flag
    }

    /// `[low, high]` or one number, whole and not negative.
    private static func range(_ json: SettingsJSON, _ fail: (String, GraphQLLocation?) -> WorldError) throws -> ClosedRange<Int> {
        func whole(_ item: SettingsJSON) throws -> Int {
            guard case .number(_, let integer?) = item.value, integer >= 0 else {
                throw fail("expected a whole number of at least 0, found \(item.kindName)", item.location)
            }
            return integer
        }
        switch json.value {
        case .number:
            let count = try whole(json)
            return count...count
        case .array(let items) where items.count == 2:
            let low = try whole(items[0])
            let high = try whole(items[1])
            guard low <= high else { throw fail("the range [\(low), \(high)] is reversed", json.location) }
            return low...high
        default:
            throw fail("expected [low, high] or a number, found \(json.kindName)", json.location)
        }
    }

    /// A non-empty array of chances in 0...1.
    private static func rates(_ json: SettingsJSON, _ fail: (String, GraphQLLocation?) -> WorldError) throws -> [Double] {
        guard case .array(let items) = json.value, !items.isEmpty else {
            throw fail("expected a non-empty array of chances, found \(json.kindName)", json.location)
        }
        return try items.map { item in
            guard case .number(let rate, _) = item.value, rate >= 0, rate <= 1 else {
                throw fail("expected a chance between 0 and 1, found \(item.kindName)", item.location)
            }
            return rate
        }
    }
}
