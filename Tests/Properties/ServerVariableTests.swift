import Baton
import BatonSim
import Foundation
import Testing

/// The variable drawer gives what a real app would send: valid variables, ids that exist, and
/// cursors that join the pages the server last answered.
@Suite("Variables drawn from the seed and the server's state")
struct ServerVariableTests {
    @Test("variables are declared (but for an app's shared extras), required ones are given, ids name entities of the right type",
          arguments: ["rickandmorty", "github"])
    func valid(worldName: String) throws {
        let world = worldName == "github" ? WorldFixtures.github : WorldFixtures.rickAndMorty
        var server = Server(world: world, random: SimRandom(seed: 21))
        var drawer = VariableDrawer(random: SimRandom(seed: 22))
        var living = 0
        var other = 0
        var extras = 0
        let extraNames = Set(VariableDrawer.sharedExtras.map(\.name))
        for round in 0..<30 {
            for operation in world.operations {
                let variables = drawer.variables(for: operation, server: server)
                let declared = operation.syntax.variables
                let undeclared = Set(variables.keys).subtracting(declared.map(\.name))
                #expect(undeclared.count <= 1 && undeclared.isSubset(of: extraNames), "\(operation.name): \(undeclared)")
                extras += undeclared.count
                for declaration in declared where declaration.type.isNonNull && declaration.defaultValue == nil {
                    #expect(variables[declaration.name] != nil && variables[declaration.name] != .null, "\(operation.name) $\(declaration.name)")
                }
                if case .entityID(let types)? = world.analysis.variables[operation.name]?["id"]?.role, case .string(let id)? = variables["id"],
                    !server.entityIDs(of: types).living.isEmpty
                {
                    if server.entityIDs(of: types).living.contains(where: { $0.utf8.elementsEqual(id.utf8) }) { living += 1 } else { other += 1 }
                }
                // Deletions would leave few living entities to draw (the GitHub world deletes
                // issues and comments): the proportion is about drawing, not about deleting.
                if !operation.name.hasPrefix("Delete") { _ = server.execute(operation, variables: variables) }
            }
            if round % 3 == 2 { _ = server.drift() }
        }
        #expect(living > other * 3)
        #expect(other > 0)
        #expect(extras > 0, "now and then an operation gets a variable it does not declare")
    }

    @Test("a condition variable is left out only where a default fills it in and null only where its type allows; an id that is a number now and then goes as one")
    func conditionsAndIntegerIDs() throws {
        var absent = 0
        var null = 0
        var integerIDs = 0
        for world in [WorldFixtures.github, WorldFixtures.rickAndMorty] {
            let server = Server(world: world, random: SimRandom(seed: 61))
            var drawer = VariableDrawer(random: SimRandom(seed: 62))
            for _ in 0..<40 {
                for operation in world.operations {
                    let variables = drawer.variables(for: operation, server: server)
                    let uses = world.analysis.variables[operation.name] ?? [:]
                    for declaration in operation.syntax.variables {
                        switch (uses[declaration.name]?.role, variables[declaration.name]) {
                        case (.condition?, nil):
                            #expect(declaration.defaultValue != nil, "\(operation.name) $\(declaration.name) left out without a default")
                            absent += 1
                        case (.condition?, .null?):
                            #expect(!declaration.type.isNonNull, "\(operation.name) $\(declaration.name) null for \(declaration.type)")
                            null += 1
                        case (.entityID?, .int?) where declaration.type.namedType == "ID":
                            integerIDs += 1
                        default:
                            continue
                        }
                    }
                }
            }
        }
        #expect(absent > 0 && null > 0 && integerIDs > 0, "absent \(absent), null \(null), integer ids \(integerIDs)")
    }

    @Test("about one screen in three sends the filters the last screen sent, so two screens over one connection meet")
    func filtersShared() throws {
        let world = WorldFixtures.github
        let list = try #require(world.operation(named: "IssueList"))
        let count = try #require(world.operation(named: "IssueCount"))
        let server = Server(world: world, random: SimRandom(seed: 51))
        var drawer = VariableDrawer(random: SimRandom(seed: 52))
        let filters = ["owner", "name", "states", "labels", "orderBy"]
        var met = 0
        var keySyntax = 0
        let rounds = 300
        for _ in 0..<rounds {
            let listed = drawer.variables(for: list, server: server)
            let counted = drawer.variables(for: count, server: server)
            if filters.allSatisfy({ listed[$0] == counted[$0] }) { met += 1 }
            if case .array(let labels)? = counted["labels"], labels.contains(where: { $0 == .string("is_connection:true") }) {
                keySyntax += 1
            }
        }
        // Each filter drawn afresh (five of them) almost never agrees; shared, all five do.
        #expect(met > rounds / 5 && met < rounds / 2, "\(met) of \(rounds)")
        // A label spelling a connection key's tail is drawn now and then.
        #expect(keySyntax > 0)
    }

    @Test("forward cursors mostly join the last page answered for that connection")
    func cursorsJoin() throws {
        let world = WorldFixtures.rickAndMorty
        let notes = try #require(world.operation(named: "Notes"))
        var server = Server(world: world, random: SimRandom(seed: 31))
        var drawer = VariableDrawer(random: SimRandom(seed: 32))
        var lastEnd: [String: String] = [:]
        var lastStart: [String: String] = [:]
        var joined = 0
        var cursors = 0
        for _ in 0..<300 {
            let variables = drawer.variables(for: notes, server: server)
            guard case .string(let id)? = variables["id"] else { continue }
            if case .string(let after)? = variables["after"], let end = lastEnd[id] {
                cursors += 1
                if after == end { joined += 1 }
                #expect(variables["before"] == nil)
            }
            if case .string(let before)? = variables["before"], let start = lastStart[id] {
                cursors += 1
                if before == start { joined += 1 }
            }
            let execution = server.execute(notes, variables: variables)
            let info = execution.data?["character"]?.value.object?["notes"]?.value.object?["pageInfo"]?.value.object
            if let end = info?["endCursor"]?.value.string { lastEnd[id] = end }
            if let start = info?["startCursor"]?.value.string { lastStart[id] = start }
        }
        #expect(cursors > 60)
        #expect(Double(joined) > Double(cursors) * 0.55, "\(joined) of \(cursors)")
    }

    @Test("the same seed draws the same variables")
    func deterministic() throws {
        let world = WorldFixtures.github
        func draws() -> [[String: JSONValue]] {
            let server = Server(world: world, random: SimRandom(seed: 41))
            var drawer = VariableDrawer(random: SimRandom(seed: 42))
            return world.operations.flatMap { operation in
                (0..<5).map { _ in drawer.variables(for: operation, server: server) }
            }
        }
        #expect(draws() == draws())
    }
}
