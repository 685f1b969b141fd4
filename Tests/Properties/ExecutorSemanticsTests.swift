import Baton
import BatonSim
import Foundation
import Testing

/// A small schema with every shape the executor handles: interfaces, unions, enums, defaults,
/// non-null chains, a connection and a mutation that deletes.
enum ExecutorSchema {
    static let sdl = """
        type Query {
          hero: Character
          character(id: ID!): Character
          starship(id: ID!): Starship
          search(term: String, limit: Int = 3): [SearchResult]
          things(first: Int, after: String, last: Int, before: String, kind: Kind): ThingConnection
          settings: Settings!
          maybe: Settings
          matrix: [[Int!]]
          squads: [[Character]!]
          leaves: Leaves!
        }
        scalar DateTime
        scalar Blob
        type Leaves { ref: ID int: Int float: Float flag: Boolean kind: Kind! when: DateTime blob: Blob text: String }
        type Mutation {
          removeThing(id: ID!): RemovePayload
          renameThing(id: ID!, label: String): RenamePayload
        }
        interface Character { id: ID! name: String }
        type Human implements Character { id: ID! name: String height: Float friends: [Character] crew: [Droid!] }
        type Droid implements Character { id: ID! name: String primaryFunction: String serial: Int! }
        union SearchResult = Human | Droid | Starship
        type Starship { id: ID! name: String length(unit: Unit = METER): Float }
        enum Unit { METER FOOT }
        enum Kind { A B }
        type Settings { theme: String! inner: Inner! opt: Inner }
        type Inner { value: String! note: String }
        type ThingConnection { edges: [ThingEdge] pageInfo: PageInfo! totalCount: Int }
        type ThingEdge { cursor: String! node: Thing }
        type Thing { id: ID! label: String }
        type PageInfo { startCursor: String endCursor: String hasNextPage: Boolean! hasPreviousPage: Boolean! }
        type RemovePayload { deletedId: ID thing: Thing }
        type RenamePayload { thing: Thing }
        """

    static let things = """
        query Things($first: Int, $after: String, $last: Int, $before: String) {
          things(first: $first, after: $after, last: $last, before: $before) {
            totalCount
            edges { cursor node { id label } }
            pageInfo { startCursor endCursor hasNextPage hasPreviousPage }
          }
        }
        mutation RemoveThing($id: ID!) { removeThing(id: $id) { deletedId @deleteRecord(typename: "Thing") } }
        mutation RenameThing($id: ID!, $label: String) { renameThing(id: $id, label: $label) { thing { id label } } }
        """

    static func world(_ document: String, settings: WorldSettings = WorldFixtures.quiet) throws -> World {
        try WorldFixtures.world(sdl, document, settings: settings)
    }
}

extension ProvenanceObject {
    /// The field with response key `key`.
    subscript(_ key: String) -> ProvenanceField? {
        fields.first { $0.responseKey == key }
    }
}

extension ProvenanceValue {
    var object: ProvenanceObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    var items: [ProvenanceValue] {
        if case .list(let items) = self { return items }
        return []
    }

    var string: String? {
        if case .scalar(.string(let text)) = self { return text }
        return nil
    }
}

@Suite("The executor follows the specification's execution")
struct ExecutorSemanticsTests {
    @Test("aliases, __typename and fragments on an interface")
    func aliasesAndInterfaces() throws {
        let world = try ExecutorSchema.world("""
            query Q($id: ID!) {
              c: character(id: $id) { __typename id a: name b: name ... on Human { height } ... on Droid { primaryFunction } }
            }
            """)
        var server = WorldFixtures.server(world)
        for type in ["Human", "Droid"] {
            let id = try #require(server.entityIDs(of: [type]).living.first)
            let execution = server.execute(try #require(world.operation(named: "Q")), variables: ["id": .string(id)])
            let character = try #require(execution.data?["c"]?.value.object)
            #expect(character.typename == type)
            #expect(character.id == id)
            let keys = type == "Human" ? ["__typename", "id", "a", "b", "height"] : ["__typename", "id", "a", "b", "primaryFunction"]
            #expect(character.fields.map(\.responseKey) == keys)
            #expect(character["a"]?.name == "name")
            #expect(character["a"]?.value == character["b"]?.value)
            #expect(character["__typename"]?.value == .scalar(.string(type)))
            #expect(character["id"]?.value == .scalar(.string(id)))
            #expect(execution.data?["c"]?.arguments == ["id": .string(id)])
        }
        let missing = server.execute(try #require(world.operation(named: "Q")), variables: ["id": .string("no such id")])
        #expect(missing.data?["c"]?.value == .null)
        #expect(missing.data?["c"]?.errors.first == nil)
    }

    @Test("fragments on a union choose by each item's type")
    func unions() throws {
        let world = try ExecutorSchema.world("""
            query Q { search(term: "x") { __typename ... on Human { name } ... on Starship { length } ...D } }
            fragment D on Droid { primaryFunction }
            """)
        var checked = 0
        for seed: UInt64 in 1...20 {
            var server = WorldFixtures.server(world, seed: seed)
            let execution = server.execute(try #require(world.operation(named: "Q")), variables: [:])
            for item in execution.data?["search"]?.value.items ?? [] {
                let object = try #require(item.object)
                let expected = ["Human": "name", "Starship": "length", "Droid": "primaryFunction"][object.typename]
                #expect(object.fields.map(\.responseKey) == ["__typename", try #require(expected)])
                checked += 1
            }
        }
        #expect(checked > 10)
    }

    @Test("@include and @skip follow their variables; merged fields keep every directive")
    func conditionsAndMerging() throws {
        let world = try ExecutorSchema.world("""
            query Q($yes: Boolean!) {
              hero { id name @include(if: $yes) other: name @skip(if: $yes) }
              hero @client { name ... on Human { height } }
              hero { __typename }
            }
            """)
        var server = WorldFixtures.server(world)
        let operation = try #require(world.operation(named: "Q"))
        for yes in [true, false] {
            let execution = server.execute(operation, variables: ["yes": .bool(yes)])
            let hero = try #require(execution.data?["hero"])
            #expect(execution.data?.fields.count == 1)
            #expect(hero.directives.map(\.name) == ["client"])
            let object = try #require(hero.value.object)
            var keys = ["id", yes ? "name" : "other"]
            if !yes { keys.append("name") }
            if object.typename == "Human" { keys.append("height") }
            keys.append("__typename")
            #expect(object.fields.map(\.responseKey) == keys, "yes: \(yes)")
        }
    }

    @Test("arguments after variables: absent is absent, null is null, variable defaults apply, schema defaults do not")
    func arguments() throws {
        let world = try ExecutorSchema.world("""
            query Q($term: String, $limit: Int = 5, $id: ID!) {
              a: search(term: $term) { __typename }
              b: search(term: null, limit: $limit) { __typename }
              starship(id: $id) { long: length(unit: FOOT) plain: length }
            }
            """)
        var server = WorldFixtures.server(world)
        let id = try #require(server.entityIDs(of: ["Starship"]).living.first)
        let operation = try #require(world.operation(named: "Q"))
        let absent = server.execute(operation, variables: ["id": .string(id)])
        #expect(absent.data?["a"]?.arguments == [:])
        #expect(absent.data?["b"]?.arguments == ["term": .null, "limit": .int(5)])
        let starship = try #require(absent.data?["starship"]?.value.object)
        #expect(starship["long"]?.arguments == ["unit": .string("FOOT")])
        #expect(starship["plain"]?.arguments == [:])
        let given = server.execute(operation, variables: ["id": .string(id), "term": .string("é"), "limit": .null])
        #expect(given.data?["a"]?.arguments == ["term": .string("é")])
        #expect(given.data?["b"]?.arguments == ["term": .null, "limit": .null])
    }

    @Test("the same field with its arguments in another order is the same server field")
    func argumentOrder() throws {
        let world = try ExecutorSchema.world("""
            query One($id: ID!) { starship(id: $id) { length(unit: FOOT) } search(limit: 2, term: "x") { __typename } }
            query Two($id: ID!) { search(term: "x", limit: 2) { __typename } starship(id: $id) { length(unit: FOOT) } }
            """)
        var server = WorldFixtures.server(world, seed: 4)
        let id = try #require(server.entityIDs(of: ["Starship"]).living.first)
        let one = server.execute(try #require(world.operation(named: "One")), variables: ["id": .string(id)])
        let two = server.execute(try #require(world.operation(named: "Two")), variables: ["id": .string(id)])
        #expect(one.data?["search"]?.value == two.data?["search"]?.value)
        #expect(one.data?["starship"]?.value == two.data?["starship"]?.value)
    }

    @Test("leaves of every kind, and lists of lists")
    func leavesAndNestedLists() throws {
        let world = try ExecutorSchema.world("query Q { leaves { ref int float flag kind when blob text } matrix squads { __typename id } }")
        let operation = try #require(world.operation(named: "Q"))
        var rows = 0
        var squads = 0
        for seed: UInt64 in 0..<40 {
            var server = WorldFixtures.server(world, seed: seed) { $0.listLength = 0...3 }
            let data = try #require(server.execute(operation, variables: [:]).data)
            let leaves = try #require(data["leaves"]?.value.object)
            #expect(leaves.id == nil)
            #expect(leaves["ref"]?.value.string != nil)
            guard case .scalar(.int(let int))? = leaves["int"]?.value else { Issue.record("int"); continue }
            #expect(int >= Int(Int32.min) && int <= Int(Int32.max))
            guard case .scalar(.double)? = leaves["float"]?.value, case .scalar(.bool)? = leaves["flag"]?.value,
                case .scalar(.string(let kind))? = leaves["kind"]?.value, case .scalar(.string(let when))? = leaves["when"]?.value,
                case .scalar(.string)? = leaves["blob"]?.value, case .scalar(.string)? = leaves["text"]?.value
            else { Issue.record("a leaf of the wrong kind: \(leaves)"); continue }
            #expect(["A", "B"].contains(kind))
            #expect(when.hasPrefix("2026-") && when.hasSuffix("Z"))
            for row in data["matrix"]?.value.items ?? [] {
                rows += 1
                for cell in row.items {
                    guard case .scalar(.int) = cell else { Issue.record("a cell that is not an Int: \(cell)"); continue }
                }
            }
            for squad in data["squads"]?.value.items ?? [] {
                squads += 1
                for member in squad.items where member != .null {
                    #expect(["Human", "Droid"].contains(member.object?.typename ?? ""))
                }
            }
        }
        #expect(rows > 10)
        #expect(squads > 10)
    }

    @Test("field errors at paths: the field is null and its error names it")
    func fieldErrors() throws {
        let world = try ExecutorSchema.world("query Q { hero { __typename id } settings { theme opt { note } } }")
        var server = WorldFixtures.server(world) { $0.errorRate = 1 }
        let execution = server.execute(try #require(world.operation(named: "Q")), variables: [:])
        let data = try #require(execution.data)
        #expect(data["hero"]?.value == .null)
        #expect(data["hero"]?.errors.first?.path == [.key("hero")])
        let settings = try #require(data["settings"]?.value.object)
        #expect(settings["theme"]?.errors.first == nil)
        #expect(settings["opt"]?.value == .null)
        #expect(settings["opt"]?.errors.first?.path == [.key("settings"), .key("opt")])
        #expect(execution.unplacedErrors.isEmpty)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(execution.responseText)) as? [String: Any])
        #expect((json["errors"] as? [Any])?.count == 2)
    }

    @Test("non-null propagation: the nearest nullable parent becomes null and keeps the error; a null data keeps none")
    func nonNullPropagation() throws {
        let world = try ExecutorSchema.world("""
            query Nested { maybe { theme inner { value } } }
            query Root { hero { __typename id } settings { theme } }
            """)
        var server = WorldFixtures.server(world) { $0.nonNullErrorRate = 1 }
        let nested = server.execute(try #require(world.operation(named: "Nested")), variables: [:])
        #expect(nested.data?["maybe"]?.value == .null)
        #expect(nested.data?["maybe"]?.errors.map(\.path) == [[.key("maybe"), .key("theme")]])
        #expect(nested.unplacedErrors.isEmpty)
        let root = server.execute(try #require(world.operation(named: "Root")), variables: [:])
        #expect(root.data == nil)
        #expect(root.unplacedErrors.map(\.path) == [[.key("settings")]])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(root.responseText)) as? [String: Any])
        #expect(json["data"] is NSNull)
    }

    @Test("a server that leaves nulls where they fall writes the null in place; the data is the propagated one")
    func nullsLeftInPlace() throws {
        let world = try ExecutorSchema.world("""
            query Nested { maybe { __typename theme inner { value } } }
            query Root { hero { __typename id } settings { theme inner { value } } }
            """)
        var server = WorldFixtures.server(world) {
            $0.nonNullErrorRate = 1
            $0.leavesNullsInPlace = true
        }
        let nested = server.execute(try #require(world.operation(named: "Nested")), variables: [:])
        // The data and errors are what a propagating server gives.
        guard case .nulled(let written)? = nested.data?["maybe"]?.value else {
            Issue.record("maybe should be nulled, is \(String(describing: nested.data?["maybe"]?.value))")
            return
        }
        #expect(nested.data?["maybe"]?.errors.map(\.path) == [[.key("maybe"), .key("theme")]])
        // The text holds the object with its failed field null, and the __typename before it.
        #expect(written.object?.fields.map(\.responseKey) == ["__typename", "theme"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(nested.responseText)) as? [String: Any])
        let maybe = try #require((json["data"] as? [String: Any])?["maybe"] as? [String: Any])
        #expect(maybe["theme"] is NSNull)
        #expect(maybe["__typename"] as? String == "Settings")
        // A null that reaches data (settings, non-null, fails itself): data is null, and the
        // server wrote the root object with settings null in it.
        let root = server.execute(try #require(world.operation(named: "Root")), variables: [:])
        #expect(root.data == nil)
        #expect(root.writtenData != nil)
        let rootJSON = try #require(try JSONSerialization.jsonObject(with: Data(root.responseText)) as? [String: Any])
        #expect((rootJSON["data"] as? [String: Any])?["settings"] is NSNull)
    }

    @Test("an object written in place keeps the __typename and id that come after its failed field")
    func nullsLeftInPlaceKeepTheirKeys() throws {
        let world = try ExecutorSchema.world("query Late { hero { __typename ... on Droid { serial } id name } }")
        var found = false
        for seed: UInt64 in 0..<60 where !found {
            var server = WorldFixtures.server(world, seed: seed) {
                $0.nonNullErrorRate = 1
                $0.leavesNullsInPlace = true
            }
            let execution = server.execute(try #require(world.operation(named: "Late")), variables: [:])
            guard case .nulled(let written)? = execution.data?["hero"]?.value, let object = written.object else { continue }
            found = true
            // serial failed; id comes after it and is written, name (not needed to key it) is not.
            #expect(object.fields.map(\.responseKey) == ["__typename", "serial", "id"])
            #expect(object["id"]?.value == .scalar(.string(try #require(object.id))))
        }
        #expect(found, "no seed drew a droid hero")
    }

    @Test("errors inside an object that a later sibling nulls go to the field holding its null, in order")
    func errorsUnderANulledParent() throws {
        let world = try ExecutorSchema.world("query Q { maybe { opt { note } inner { value } } }")
        var found = false
        for seed: UInt64 in 0..<400 where !found {
            var server = WorldFixtures.server(world, seed: seed) {
                $0.errorRate = 0.5
                $0.nonNullErrorRate = 0.5
            }
            let execution = server.execute(try #require(world.operation(named: "Q")), variables: [:])
            #expect(execution.unplacedErrors.isEmpty)
            let paths = execution.data?["maybe"]?.errors.map(\.path) ?? []
            if paths.count == 2 {
                #expect(paths[0].first == .key("maybe"))
                #expect(paths[1] == [.key("maybe"), .key("inner")] || paths[1] == [.key("maybe"), .key("inner"), .key("value")])
                #expect(execution.data?["maybe"]?.value == .null)
                found = true
            }
        }
        #expect(found)
    }

    @Test("a null in a non-null list item nulls the nullable list above it")
    func nonNullItems() throws {
        let world = try ExecutorSchema.world("query Q { hero { __typename ... on Human { crew { serial } } } }")
        let operation = try #require(world.operation(named: "Q"))
        var nulled = 0
        for seed: UInt64 in 0..<60 {
            var server = WorldFixtures.server(world, seed: seed) { $0.nonNullErrorRate = 1 }
            let execution = server.execute(operation, variables: [:])
            guard let hero = execution.data?["hero"]?.value.object, hero.typename == "Human" else { continue }
            if case .list(let items)? = hero["crew"]?.value {
                #expect(items.isEmpty, "every droid's serial fails, so a crew with members cannot be answered")
                continue
            }
            #expect(hero["crew"]?.value == .null)
            #expect(hero["crew"]?.errors.map(\.path) == [[.key("hero"), .key("crew"), .index(0), .key("serial")]])
            #expect(execution.unplacedErrors.isEmpty)
            nulled += 1
        }
        #expect(nulled > 0)
    }

    @Test("errors of a list's earlier items go to the list's field when a later item nulls the list")
    func errorsUnderANulledList() throws {
        let world = try ExecutorSchema.world("query Q { hero { __typename ... on Human { crew { name serial } } } }")
        let operation = try #require(world.operation(named: "Q"))
        var earlierItemErrors = 0
        for seed: UInt64 in 0..<300 {
            var server = WorldFixtures.server(world, seed: seed) {
                $0.errorRate = 0.4
                $0.nonNullErrorRate = 0.4
            }
            let execution = server.execute(operation, variables: [:])
            guard let hero = execution.data?["hero"]?.value.object, hero.typename == "Human", hero["crew"]?.value == .null else { continue }
            let inside: (ProvenanceError) -> Bool = { $0.path.count > 2 && Array($0.path.prefix(2)) == [.key("hero"), .key("crew")] }
            let underCrew = execution.errors.filter(inside)
            #expect(execution.unplacedErrors.filter(inside).isEmpty, "seed \(seed): an error under a null list is unplaced")
            let atOrUnderCrew = execution.errors.filter { Array($0.path.prefix(2)) == [.key("hero"), .key("crew")] }
            #expect(hero["crew"]?.errors.map(\.path) == atOrUnderCrew.map(\.path), "seed \(seed): the null list does not keep every error at or under it, in order")
            earlierItemErrors += underCrew.contains { $0.path.last == .key("name") } ? 1 : 0
        }
        #expect(earlierItemErrors > 0, "no seed nulled a list after an earlier item's nullable field failed")
    }

    @Test("an error that nulls a nullable item from a field below it is about that item, at every list depth")
    func errorsAboutTheirNullItem() throws {
        let world = try ExecutorSchema.world("""
            query Friends { hero { __typename ... on Human { friends { __typename id ... on Droid { serial } } } } }
            query Squads { squads { __typename id ... on Droid { serial } } }
            """)
        var friendsSeen = 0
        var squadsSeen = 0
        for seed: UInt64 in 0..<40 {
            var server = WorldFixtures.server(world, seed: seed) { $0.nonNullErrorRate = 1 }
            let friends = server.execute(try #require(world.operation(named: "Friends")), variables: [:])
            if let field = friends.data?["hero"]?.value.object?["friends"], !field.errors.isEmpty {
                for error in field.errors {
                    guard case .index(let index) = error.path[2] else { Issue.record("no item index in \(error.path)"); continue }
                    #expect(error.path.last == .key("serial"))
                    #expect(error.elementIndices == [index])
                    #expect(field.value.items[index] == .null)
                }
                #expect(friends.errors.filter { $0.path.count == 4 } == field.errors)
                friendsSeen += 1
            }
            let squads = server.execute(try #require(world.operation(named: "Squads")), variables: [:])
            if let field = squads.data?["squads"], !field.errors.isEmpty {
                for error in field.errors {
                    guard case .index(let outer) = error.path[1], case .index(let inner) = error.path[2] else {
                        Issue.record("no item indices in \(error.path)")
                        continue
                    }
                    #expect(error.elementIndices == [outer, inner])
                    #expect(field.value.items[outer].items[inner] == .null)
                }
                squadsSeen += 1
            }
        }
        #expect(friendsSeen > 0 && squadsSeen > 0)
    }

    @Test("a null data leaves every error unplaced, an item's own too, and the model reads them alike from text and provenance")
    func unplacedItemErrors() throws {
        let world = try ExecutorSchema.world("query Q { search(term: \"x\") { __typename ... on Droid { id } } settings { theme } }")
        let operation = try #require(world.operation(named: "Q"))
        var found = 0
        for seed: UInt64 in 0..<80 {
            var server = WorldFixtures.server(world, seed: seed) {
                $0.itemErrorRate = 0.5
                $0.nonNullErrorRate = 1
            }
            let execution = server.execute(operation, variables: [:])
            guard execution.data == nil else { continue }
            let fromText = try ModelResponse.normalize(text: execution.responseText, operation: operation, variables: [:], schema: world.schema)
            let fromProvenance = try ModelResponse.from(execution, operation: operation, schema: world.schema)
            #expect(fromProvenance == fromText, "seed \(seed)")
            if execution.unplacedErrors.contains(where: { if case .index = $0.path.last { true } else { false } }) { found += 1 }
        }
        #expect(found > 0, "no seed left an item's own error unplaced")
    }

    @Test("a nullable item that fails on its own is null at its index, and its list's field keeps every such error in order")
    func itemErrors() throws {
        let world = try ExecutorSchema.world("query Q { hero { __typename ... on Human { friends { __typename id name } } } }")
        let operation = try #require(world.operation(named: "Q"))
        var several = 0
        for seed: UInt64 in 0..<60 {
            var server = WorldFixtures.server(world, seed: seed) { $0.itemErrorRate = 0.5 }
            let execution = server.execute(operation, variables: [:])
            guard let friends = execution.data?["hero"]?.value.object?["friends"] else { continue }
            let failed = friends.errors.map { error -> Int? in
                guard error.path.count == 3, Array(error.path.prefix(2)) == [.key("hero"), .key("friends")],
                      case .index(let index) = error.path[2] else { return nil }
                return index
            }
            #expect(!failed.contains(nil), "seed \(seed): an error on friends that names no item")
            let indices = failed.compactMap { $0 }
            #expect(indices == indices.sorted(), "seed \(seed): the items' errors out of order")
            for index in indices { #expect(friends.value.items[index] == .null) }
            // Placed, in the response's errors, and none of them unplaced.
            #expect(friends.errors.allSatisfy { execution.errors.contains($0) && !execution.unplacedErrors.contains($0) })
            if indices.count >= 2 { several += 1 }
        }
        #expect(several > 0, "no seed failed two items of one list")
    }

    @Test("errors inside list items name the item's index")
    func listItems() throws {
        let world = try ExecutorSchema.world("query Q { hero { __typename ... on Human { friends { __typename id name } } } }")
        let operation = try #require(world.operation(named: "Q"))
        var lists = 0
        for seed: UInt64 in 0..<60 {
            var server = WorldFixtures.server(world, seed: seed) { $0.errorRate = 0.3 }
            let execution = server.execute(operation, variables: [:])
            guard let friends = execution.data?["hero"]?.value.object?["friends"] else { continue }
            for (index, friend) in friends.value.items.enumerated() {
                guard let object = friend.object else { continue }
                if let error = object["name"]?.errors.first {
                    #expect(error.path == [.key("hero"), .key("friends"), .index(index), .key("name")])
                    lists += 1
                }
            }
        }
        #expect(lists > 0)
    }
}
