import Baton
import BatonSim
import Foundation
import Testing

/// One seed, one server: the same seed gives the same configuration, data, bytes and drift, and
/// nothing of it depends on the process.
@Suite("The server is a function of its seed")
struct ServerDeterminismTests {
    @Test("the same seed gives the same server, the same bytes and the same drift", arguments: ["rickandmorty", "github"])
    func sameSeed(worldName: String) {
        let world = worldName == "github" ? WorldFixtures.github : WorldFixtures.rickAndMorty
        for seed: UInt64 in [1, 2, 99] {
            let first = ServerResponseTests.session(world, seed: seed, steps: 30) { _, _, _ in }
            let second = ServerResponseTests.session(world, seed: seed, steps: 30) { _, _, _ in }
            #expect(first == second, "seed \(seed)")
            let other = ServerResponseTests.session(world, seed: seed + 1000, steps: 30) { _, _, _ in }
            #expect(first != other)
        }
    }

    @Test("a world loaded twice gives the same server")
    func sameWorld() throws {
        let again = try World.load(directory: WorldFixtures.path("github"))
        for seed: UInt64 in 0..<5 {
            let a = Server(world: WorldFixtures.github, random: SimRandom(seed: seed))
            let b = Server(world: again, random: SimRandom(seed: seed))
            #expect(a.configuration == b.configuration)
            #expect(a.entityIDs(of: []).living == b.entityIDs(of: []).living)
        }
    }

    @Test("configurations vary across seeds within the world's settings")
    func configurations() {
        let world = WorldFixtures.rickAndMorty
        var styles: Set<String> = []
        var versions: Set<Int> = []
        var twins = 0
        for seed: UInt64 in 0..<200 {
            let configuration = Server(world: world, random: SimRandom(seed: seed)).configuration
            #expect((2...7).contains(configuration.entityCounts["Character"] ?? -1))
            #expect((1...4).contains(configuration.entityCounts["Episode"] ?? -1))
            #expect((1...3).contains(configuration.entityCounts["Location"] ?? -1))
            #expect([0, 0.05, 0.2].contains(configuration.errorRate))
            #expect(configuration.connectionLength.upperBound <= 7)
            #expect(!configuration.globalIDs)
            styles.insert("\(configuration.cursorStyle) \(configuration.json.whitespace) \(configuration.json.shufflesMembers)")
            versions.insert(configuration.valueVersions)
            if configuration.canonicalTwins { twins += 1 }
        }
        #expect(styles.count >= 8)
        #expect(versions == [1, 2, 3, 4])
        #expect(twins > 5 && twins < 50)
    }

    @Test("tricky ids carry quotes, backslashes, colons, control characters, emoji and combining sequences")
    func trickyIDs() {
        let world = ExecutorMutationTests.quiet(WorldFixtures.github)
        let server = WorldFixtures.server(world, seed: 12) { $0.trickyIDRate = 1 }
        let ids = server.entityIDs(of: []).living
        #expect(ids.count > 5)
        #expect(ids.allSatisfy { id in id.unicodeScalars.contains { $0.value < 0x20 || $0.value > 0x7E || $0 == "\"" || $0 == "\\" || $0 == "/" || $0 == ":" } })
        #expect(ids.contains { $0.contains(":") })
        #expect(Set(ids.map { Array($0.utf8) }).count == ids.count, "ids are unique byte for byte")
    }

    @Test("canonical twins: two ids Swift calls equal are two entities with their own values")
    func canonicalTwins() throws {
        let world = ExecutorMutationTests.quiet(WorldFixtures.rickAndMorty)
        var server = WorldFixtures.server(world, seed: 3) { $0.canonicalTwins = true }
        let ids = server.entityIDs(of: ["Character"]).living
        #expect(ids[0] == ids[1], "equal to Swift")
        #expect(!ids[0].utf8.elementsEqual(ids[1].utf8), "different in bytes")
        let header = try #require(world.operation(named: "CharacterHeader"))
        _ = server.execute(try #require(world.operation(named: "Rename")), variables: ["id": .string(ids[1]), "name": .string("twin")])
        let first = server.execute(header, variables: ["id": .string(ids[0])])
        let second = server.execute(header, variables: ["id": .string(ids[1])])
        #expect(first.data?["character"]?.value.object?["name"]?.value != .scalar(.string("twin")))
        #expect(second.data?["character"]?.value.object?["name"]?.value == .scalar(.string("twin")))
        #expect(first.data?["character"]?.value.object?.id?.utf8.elementsEqual(ids[0].utf8) == true)
    }
}
