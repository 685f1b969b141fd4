import Baton

/// A generated response shaped like a page of the Rick and Morty API: 20 characters whose
/// episodes list their whole cast. Deterministic: the same parameters give the same bytes.
///
/// Tests and benchmarks use it instead of the real file, which the repository does not carry.
package enum CharacterPageFixture {
    package static let schema = """
    type Query {
      characters(page: Int): Characters
      character(id: ID!): Character
    }
    type Characters { info: Info, results: [Character] }
    type Info { count: Int, pages: Int, next: Int, prev: Int }
    type Character {
      id: ID
      name: String
      status: String
      species: String
      type: String
      gender: String
      image: String
      created: String
      origin: Location
      location: Location
      episode: [Episode]!
    }
    type Location { id: ID, name: String, type: String, dimension: String }
    type Episode { id: ID, name: String, air_date: String, episode: String, characters: [Character]! }
    """

    package static let document = """
    query Fixture($page: Int) {
      characters(page: $page) {
        info { count pages next prev }
        results {
          id name status species type gender image created
          origin { id name type dimension }
          location { id name type dimension }
          episode {
            id name air_date episode
            characters { id name image }
          }
        }
      }
    }
    """

    /// The response JSON text for `page`, with `characters` per page, `episodes` in the world and
    /// `castSize` characters in each episode's cast. With `disjoint`, every page has its own
    /// episodes and cast (ids offset by the page), so pages share no record.
    package static func response(page: Int = 1, characters: Int = 20, episodes: Int = 41, castSize: Int = 40, disjoint: Bool = false) -> String {
        let offset = disjoint ? (page - 1) * 10_000 : 0
        var random = SimRandom(seed: UInt64(page) &* 7919)
        let world = 800
        var casts: [[Int]] = []
        for e in 0..<episodes {
            var cast = Set<Int>()
            while cast.count < castSize { cast.insert(random.int(1...world)) }
            casts.append(cast.sorted().map { $0 + offset } + [e % characters + 1 + (page - 1) * characters])
        }
        func location(_ n: Int) -> JSONValue {
            if n % 7 == 0 {
                return .object(["id": .null, "name": .string("unknown"), "type": .null, "dimension": .null])
            }
            let l = n % 23 + 1
            return .object(["id": .string(String(l)), "name": .string("Location \(l)"),
                            "type": .string(["Planet", "Space station", "Microverse"][l % 3]),
                            "dimension": .string("Dimension C-\(100 + l)")])
        }
        func character(_ id: Int) -> [String: JSONValue] {
            ["id": .string(String(id)), "name": .string("Character \(id) “\(["Rick", "Morty", "Summer", "Beth", "Jerry"][id % 5])”"),
             "image": .string("https://example.invalid/avatar/\(id).jpeg")]
        }
        var results: [JSONValue] = []
        for index in 0..<characters {
            let id = (page - 1) * characters + index + 1
            var object = character(id)
            object["status"] = .string(["Alive", "Dead", "unknown"][id % 3])
            object["species"] = .string(["Human", "Alien", "Robot", "Cronenberg"][id % 4])
            object["type"] = .string(id % 5 == 0 ? "Superhuman (Ghost trains summoner)" : "")
            object["gender"] = .string(["Male", "Female", "unknown"][id % 3])
            object["created"] = .string("2017-11-04T18:48:46.\(100 + id)Z")
            object["origin"] = location(id)
            object["location"] = location(id * 3)
            let appearances = (0..<episodes).filter { casts[$0].contains(id) || (id + $0) % 9 == 0 }
            object["episode"] = .array(appearances.map { e in
                .object([
                    "id": .string(String(e + 1 + offset)), "name": .string("Episode \(e + 1)"),
                    "air_date": .string("December \(e % 28 + 1), 20\(13 + e / 11)"),
                    "episode": .string("S0\(e / 11 + 1)E\(e % 11 + 1)"),
                    "characters": .array(casts[e].map { .object(character($0)) }),
                ])
            })
            results.append(.object(object))
        }
        let data: JSONValue = .object(["characters": .object([
            "info": .object(["count": .int(826), "pages": .int(42), "next": .int(page + 1), "prev": page > 1 ? .int(page - 1) : .null]),
            "results": .array(results),
        ])])
        return CanonicalJSON.render(.object(["data": data]))
    }
}
