import Baton

/// The simulated server: a small world of characters, episodes, locations and notes whose values
/// drift over time, answering the simulator's operations with response JSON.
package struct ServerWorld: Sendable {
    package let configuration: SwarmConfiguration
    private var random: SimRandom
    /// Per entity, the version its values are at (values cycle through `valueVersions`).
    private var characterVersion: [Int]
    private var episodeVersion: [Int]
    private var locationVersion: [Int]
    /// Which episodes each character appears in.
    private var appearances: [[Bool]]
    /// Each character's location (an index, or nil: unknown).
    private var characterLocation: [Int?]
    /// Each character's notes, oldest first: (id number, version).
    private var notes: [[(id: Int, version: Int)]]
    private var nextNoteID = 0

    package init(configuration: SwarmConfiguration, random: SimRandom) {
        self.configuration = configuration
        self.random = random
        characterVersion = Array(repeating: 0, count: configuration.characters)
        episodeVersion = Array(repeating: 0, count: configuration.episodes)
        locationVersion = Array(repeating: 0, count: configuration.locations)
        appearances = []
        characterLocation = []
        notes = []
        for _ in 0..<configuration.characters {
            appearances.append((0..<configuration.episodes).map { _ in self.random.chance(0.6) })
            characterLocation.append(self.random.chance(configuration.unknownLocationRate) ? nil : self.random.int(0...(configuration.locations - 1)))
            var list: [(Int, Int)] = []
            for _ in 0..<configuration.notesPerCharacter {
                list.append((nextNoteID, 0))
                nextNoteID += 1
            }
            notes.append(list)
        }
    }

    // MARK: - Drawing operations

    package mutating func characterID() -> String { String(random.int(1...configuration.characters)) }
    package mutating func episodeID() -> String { String(random.int(1...configuration.episodes)) }
    package mutating func locationID() -> String { String(random.int(1...configuration.locations)) }

    /// Lets the server's data drift: a few values move to their next version.
    package mutating func drift() {
        guard configuration.valueVersions > 1 else { return }
        for _ in 0..<random.int(0...2) {
            switch random.int(0...3) {
            case 0: bump(&characterVersion[random.int(0...(configuration.characters - 1))])
            case 1: bump(&episodeVersion[random.int(0...(configuration.episodes - 1))])
            case 2: bump(&locationVersion[random.int(0...(configuration.locations - 1))])
            default:
                let c = random.int(0...(configuration.characters - 1))
                if !notes[c].isEmpty { bump(&notes[c][random.int(0...(notes[c].count - 1))].version) }
            }
        }
    }

    private func bump(_ version: inout Int) {
        version = (version + 1) % configuration.valueVersions
    }

    // MARK: - Values

    private func characterName(_ c: Int) -> String { "Character \(c + 1) v\(characterVersion[c])" }
    private func characterStatus(_ c: Int) -> String { ["Alive", "Dead", "unknown"][(c + characterVersion[c]) % 3] }
    private func characterSpecies(_ c: Int) -> String { ["Human", "Alien", "Robot"][(c * 7 + characterVersion[c]) % 3] }

    private mutating func statusValue(_ c: Int, path: [JSONValue], errors: inout [JSONValue]) -> JSONValue {
        if random.chance(configuration.errorRate) {
            errors.append(.object(["message": .string("status unavailable"), "path": .array(path)]))
            return .null
        }
        return .string(characterStatus(c))
    }

    private func characterHeader(_ c: Int) -> [String: JSONValue] {
        ["id": .string(String(c + 1)), "name": .string(characterName(c))]
    }

    private func locationObject(_ l: Int?) -> JSONValue {
        guard let l else {
            return .object(["id": .null, "name": .string("unknown"), "dimension": .null])
        }
        return .object([
            "id": .string(String(l + 1)), "name": .string("Location \(l + 1) v\(locationVersion[l])"),
            "dimension": .string("Dimension \(["C-137", "J19", "5-126"][(l + locationVersion[l]) % 3])"),
        ])
    }

    private func episodeObject(_ e: Int) -> [String: JSONValue] {
        ["id": .string(String(e + 1)), "name": .string("Episode \(e + 1) v\(episodeVersion[e])"),
         "airDate": .string("20\(10 + e)-0\(1 + episodeVersion[e])-01")]
    }

    private func noteObject(_ note: (id: Int, version: Int)) -> JSONValue {
        .object(["id": .string("n\(note.id)"), "text": .string("note \(note.id) v\(note.version)")])
    }

    // MARK: - Responses

    /// The server's response to `operation` under `variables`.
    package mutating func respond(_ operation: String, _ variables: [String: JSONValue]) -> JSONValue {
        var errors: [JSONValue] = []
        let data: JSONValue
        func index(_ key: String, _ count: Int) -> Int? {
            guard case .string(let text)? = variables[key], let n = Int(text), n >= 1, n <= count else { return nil }
            return n - 1
        }
        switch operation {
        case "CharacterHeader":
            guard let c = index("id", configuration.characters) else { return .object(["data": .object(["character": .null])]) }
            var object = characterHeader(c)
            object["status"] = statusValue(c, path: [.string("character"), .string("status")], errors: &errors)
            data = .object(["character": .object(object)])
        case "CharacterScreen":
            guard let c = index("id", configuration.characters) else { return .object(["data": .object(["character": .null])]) }
            var object = characterHeader(c)
            object["status"] = statusValue(c, path: [.string("character"), .string("status")], errors: &errors)
            object["species"] = .string(characterSpecies(c))
            object["location"] = locationObject(characterLocation[c])
            object["episodes"] = .array((0..<configuration.episodes).filter { appearances[c][$0] }.map { .object(episodeObject($0)) })
            data = .object(["character": .object(object)])
        case "EpisodeCast":
            guard let e = index("id", configuration.episodes) else { return .object(["data": .object(["episode": .null])]) }
            var object = episodeObject(e)
            object["airDate"] = nil
            var cast: [JSONValue] = []
            for c in 0..<configuration.characters where appearances[c][e] {
                var member = characterHeader(c)
                member["status"] = statusValue(c, path: [.string("episode"), .string("characters"), .int(cast.count), .string("status")], errors: &errors)
                cast.append(.object(member))
            }
            if random.chance(0.15) { cast.append(.null) }
            object["characters"] = .array(cast)
            data = .object(["episode": .object(object)])
        case "LocationResidents":
            guard let l = index("id", configuration.locations) else { return .object(["data": .object(["location": .null])]) }
            guard case .object(var object) = locationObject(l) else { return .null }
            object["residents"] = .array((0..<configuration.characters).filter { characterLocation[$0] == l }.map { c in
                var resident = characterHeader(c)
                resident["species"] = .string(characterSpecies(c))
                return .object(resident)
            })
            data = .object(["location": .object(object)])
        case "CharacterList":
            let page: Int = if case .int(let p)? = variables["page"] { p } else { 1 }
            let perPage = 3
            let start = (page - 1) * perPage
            let members = Array(0..<configuration.characters).dropFirst(max(0, start)).prefix(perPage)
            let next: JSONValue = start + perPage < configuration.characters ? .int(page + 1) : .null
            data = .object(["characters": .object([
                "info": .object(["count": .int(configuration.characters), "next": next]),
                "results": .array(members.map { .object(characterHeader($0)) }),
            ])])
        case "Notes":
            guard let c = index("id", configuration.characters) else { return .object(["data": .object(["character": .null])]) }
            data = .object(["character": .object(["id": .string(String(c + 1)), "notes": notesPage(c, variables)])])
        case "Rename":
            guard let c = index("id", configuration.characters) else { return .object(["data": .object(["rename": .null])]) }
            bump(&characterVersion[c])
            data = .object(["rename": .object(["character": .object(characterHeader(c))])])
        case "DeleteCharacter":
            guard case .string(let id)? = variables["id"] else { return .object(["data": .null]) }
            data = .object(["deleteCharacter": .object(["deletedId": .string(id)])])
        case "RemoveNote":
            guard case .string(let id)? = variables["id"] else { return .object(["data": .null]) }
            for c in 0..<notes.count { notes[c].removeAll { "n\($0.id)" == id } }
            data = .object(["removeNote": .object(["deletedId": .string(id)])])
        default:
            return .object(["data": .null])
        }
        var response: [String: JSONValue] = ["data": data]
        if !errors.isEmpty { response["errors"] = .array(errors) }
        return .object(response)
    }

    /// The optimistic response a client would write for a mutation before the server answers.
    package func optimisticResponse(_ operation: String, _ variables: [String: JSONValue]) -> JSONValue {
        switch operation {
        case "Rename":
            guard case .string(let id)? = variables["id"], case .string(let name)? = variables["name"] else { return .object(["data": .null]) }
            return .object(["data": .object(["rename": .object(["character": .object(["id": .string(id), "name": .string(name)])])])])
        default:
            return .object(["data": .null])
        }
    }

    /// A note id of character `c` (or a made-up one when it has none).
    package mutating func noteID(of c: Int) -> String {
        guard c < notes.count, !notes[c].isEmpty else { return "n\(random.int(0...50))" }
        return "n\(random.pick(notes[c]).id)"
    }

    /// A cursor for character `c`'s notes: real positions, and sometimes one that matches nothing.
    package mutating func cursor(of c: Int) -> String {
        let count = c < notes.count ? notes[c].count : 0
        return count > 0 && random.chance(0.9) ? "c\(notes[c][random.int(0...(count - 1))].id)" : "c-stale-\(random.int(0...9))"
    }

    private mutating func notesPage(_ c: Int, _ variables: [String: JSONValue]) -> JSONValue {
        let list = notes[c]
        func position(of cursor: JSONValue?) -> Int? {
            guard case .string(let text)? = cursor, text.hasPrefix("c"), let id = Int(text.dropFirst()) else { return nil }
            return list.firstIndex { $0.id == id }
        }
        var range: Range<Int>
        if let after = variables["after"], after != .null {
            let first: Int = if case .int(let n)? = variables["first"] { n } else { 2 }
            let from = (position(of: after) ?? list.count - 1) + 1
            range = from..<min(list.count, from + first)
        } else if let before = variables["before"], before != .null {
            let last: Int = if case .int(let n)? = variables["last"] { n } else { 2 }
            let to = position(of: before) ?? 0
            range = max(0, to - last)..<to
        } else {
            let first: Int = if case .int(let n)? = variables["first"] { n } else { 2 }
            let offset = list.isEmpty ? 0 : random.int(0...min(2, list.count - 1))
            range = offset..<min(list.count, offset + first)
        }
        if range.lowerBound > range.upperBound { range = range.lowerBound..<range.lowerBound }
        let slice = Array(list[range])
        var edges: [JSONValue] = slice.map { note in
            .object(["cursor": .string("c\(note.id)"), "node": noteObject(note)])
        }
        if random.chance(0.1) { edges.append(.null) }
        return .object([
            "totalCount": .int(list.count),
            "edges": .array(edges),
            "pageInfo": .object([
                "endCursor": slice.last.map { .string("c\($0.id)") } ?? .null,
                "startCursor": slice.first.map { .string("c\($0.id)") } ?? .null,
                "hasNextPage": .bool(range.upperBound < list.count),
                "hasPreviousPage": .bool(range.lowerBound > 0),
            ]),
        ])
    }
}
