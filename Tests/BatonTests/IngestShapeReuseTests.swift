import Testing
import Baton

private typealias B = Build

/// A plan keeps the shapes its last ingest built for the next ingest, all of them under the same
/// variables and those no variable changes under others (`ShapeCacheSlot`): what that ingest
/// writes must be what a fresh plan writes.
@Suite("Ingest: shapes kept between ingests of one plan")
struct IngestShapeReuseTests {
    /// `search(text: $text) { id }`.
    private static func searchPlan() -> Plan {
        B.query(
            [B.object("search", "Result", arguments: [B.variable("text", "text")], [B.leaf("id", .id)])],
            name: "Search",
            variables: [VariableDefinition(name: "text", type: .named("String"), defaultValue: nil)])
    }

    private static let searchResponse = #"{"data":{"search":{"id":"r1"}}}"#

    /// `notes(first: 2, after: $after) @connection(key: "Notes") { edges { cursor node { id } } pageInfo { endCursor } }`.
    private static func notesPlan() -> Plan {
        B.query(
            [
                B.object(
                    "notes", "NoteConnection",
                    arguments: [B.argument("first", .int(2)), B.variable("after", "after")],
                    connection: ConnectionDirective(key: "Notes", filters: nil),
                    [
                        B.object("edges", "NoteEdge", list: 1, [B.leaf("cursor"), B.object("node", "Note", [B.leaf("id", .id)])]),
                        B.object("pageInfo", "PageInfo", [B.leaf("endCursor")]),
                    ]),
            ],
            name: "Notes",
            variables: [VariableDefinition(name: "after", type: .named("String"), defaultValue: nil)])
    }

    private static let notesResponse = #"""
        {"data":{"notes":{"edges":[{"cursor":"c3","node":{"id":"n3"}}],"pageInfo":{"endCursor":"c3"}}}}
        """#

    /// The query root's storage keys as bytes, sorted (`String`'s `==` would take two spellings
    /// of one character for one key).
    private static func rootKeys(_ changes: ChangeSet) -> [[UInt8]] {
        let root = changes.records.first { $0.key == .queryRoot }
        return (root?.cells.keys.map { Array($0.name.utf8) } ?? []).sorted { $0.lexicographicallyPrecedes($1) }
    }

    @Test("ten variables in turn, twice (more than the plan keeps): each ingest writes what a fresh plan writes")
    func manyVariablesInTurn() throws {
        let plan = Self.searchPlan()
        for round in 0..<2 {
            for index in [0, 5, 1, 6, 2, 7, 3, 8, 4, 9, 0, 9] {
                let text = "query \(index)"
                let kept = try ingest(plan, Self.searchResponse, ["text": .string(text)])
                let fresh = try ingest(Self.searchPlan(), Self.searchResponse, ["text": .string(text)])
                #expect(Self.rootKeys(kept) == Self.rootKeys(fresh), "round \(round), \(text)")
            }
        }
    }

    @Test func twoSpellingsOfOneCharacterAreOtherVariables() throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        let plan = Self.searchPlan()
        let first = try ingest(plan, Self.searchResponse, ["text": .string(composed)])
        let second = try ingest(plan, Self.searchResponse, ["text": .string(decomposed)])
        let third = try ingest(plan, Self.searchResponse, ["text": .string(composed)])
        let freshComposed = try ingest(Self.searchPlan(), Self.searchResponse, ["text": .string(composed)])
        let freshDecomposed = try ingest(Self.searchPlan(), Self.searchResponse, ["text": .string(decomposed)])
        #expect(Self.rootKeys(first) == Self.rootKeys(freshComposed))
        #expect(Self.rootKeys(second) == Self.rootKeys(freshDecomposed))
        #expect(Self.rootKeys(third) == Self.rootKeys(freshComposed))
        #expect(Self.rootKeys(first) != Self.rootKeys(second))
    }

    @Test func aConnectionPageTakesTheCursorOfItsOwnIngest() throws {
        let plan = Self.notesPlan()
        let modes = try [("c1" as String?), "c2", nil, "c2"].map { after -> ConnectionPage.Mode? in
            let variables: [String: JSONValue] = after.map { ["after": .string($0)] } ?? [:]
            return try ingest(plan, Self.notesResponse, variables).connectionPages.first?.mode
        }
        #expect(modes == [.append(after: "c1"), .append(after: "c2"), .replace, .append(after: "c2")])
    }

    /// `characters(page: $page) { results { id name @include(if: $withName) bio(lang: $lang)
    /// origin { id name } } }`: the root's shape and the characters' depend on variables (an
    /// argument, a condition, an argument below the root), the origins' does not.
    private static func feedPlan() -> Plan {
        let character: [Selection] = [
            B.leaf("id", .id),
            .condition(variable: "withName", include: true, SelectionSet([B.leaf("name")])),
            B.leaf("bio", arguments: [B.variable("lang", "lang")]),
            B.object("origin", "Location", [B.leaf("id", .id), B.leaf("name")]),
        ]
        return B.query(
            [B.object("characters", "Characters", arguments: [B.variable("page", "page")], [
                B.object("results", "Character", list: 1, character)
            ])],
            name: "Feed",
            variables: [
                VariableDefinition(name: "page", type: .named("Int"), defaultValue: nil),
                VariableDefinition(name: "lang", type: .named("String"), defaultValue: nil),
                VariableDefinition(name: "withName", type: .named("Boolean"), defaultValue: nil),
            ])
    }

    private static let feedResponse = #"""
        {"data":{"characters":{"results":[
        {"id":"1","name":"Rick","bio":"b1","origin":{"id":"l1","name":"Earth"}},
        {"id":"2","bio":"b2","origin":{"id":"l2","name":"Citadel"}}]}}}
        """#

    /// Every record's key, type and cells (storage key and value), sorted.
    private static func rendered(_ changes: ChangeSet) -> [String] {
        var lines: [String] = []
        for record in changes.records {
            let key: String = record.key.rawValue
            lines.append(key + " " + record.typename)
            for slot in record.cells.keys {
                let value: String = String(describing: record.cells[slot]?.value)
                lines.append(key + " " + slot.name + " = " + value)
            }
        }
        return lines.sorted()
    }

    @Test("under other variables, the shapes no variable changes are carried over; what each ingest writes is what a fresh plan writes")
    func otherVariablesCarryTheFixedShapes() throws {
        let plan = Self.feedPlan()
        var generator = SeededGenerator(seed: 7)
        var names: Set<String> = []
        for round in 0..<40 {
            let variables: [String: JSONValue] = [
                "page": .int(Int.random(in: 1...3, using: &generator)),
                "lang": .string(["en", "fr"][Int.random(in: 0...1, using: &generator)]),
                "withName": .bool(Bool.random(using: &generator)),
            ]
            let kept = try ingest(plan, Self.feedResponse, variables)
            let fresh = try ingest(Self.feedPlan(), Self.feedResponse, variables)
            #expect(Self.rendered(kept) == Self.rendered(fresh), "round \(round), \(variables)")
            names.formUnion(kept.records.flatMap { $0.cells.keys.map(\.name) })
        }
        // The rounds reached every variant the variables make.
        #expect(names.isSuperset(of: [#"characters(page:1)"#, #"characters(page:3)"#, #"bio(lang:"en")"#, #"bio(lang:"fr")"#, "name"]))
    }

    @Test func ingestsOfOnePlanAtOnceEachWriteWhatAFreshPlanWrites() async throws {
        let plan = Self.searchPlan()
        let texts = (0..<16).map { $0 % 2 == 0 ? "caf\u{E9}" : "cafe\u{301}" }
        let results = try await withThrowingTaskGroup(of: (Int, [[UInt8]]).self) { group in
            for (index, text) in texts.enumerated() {
                group.addTask {
                    (index, Self.rootKeys(try ingest(plan, Self.searchResponse, ["text": .string(text)])))
                }
            }
            var results: [Int: [[UInt8]]] = [:]
            for try await (index, keys) in group { results[index] = keys }
            return results
        }
        for (index, text) in texts.enumerated() {
            let fresh = try ingest(Self.searchPlan(), Self.searchResponse, ["text": .string(text)])
            #expect(results[index] == Self.rootKeys(fresh))
        }
    }
}
