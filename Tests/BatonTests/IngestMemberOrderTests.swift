import Testing
import Baton

private typealias B = Build

/// `character { id name location { id residents { id name } } }`: a character can meet itself
/// again as one of its location's residents, inside the same object.
private let castPlan = B.query([
    B.object("character", "Character", [
        B.leaf("id", .id),
        B.leaf("name"),
        B.object("location", "Location", [
            B.leaf("id", .id),
            B.object("residents", "Character", list: 1, [B.leaf("id", .id), B.leaf("name")]),
        ]),
    ]),
])

/// The character's own members in `order`, its location holding it again with `name: "inner"`.
private func character(_ order: [String]) -> String {
    let members = [
        "id": #""id":"2""#,
        "name": #""name":"outer""#,
        "location": #""location":{"id":"1","residents":[{"id":"2","name":"inner"}]}"#,
    ]
    return #"{"data":{"character":{"# + order.map { members[$0]! }.joined(separator: ",") + "}}}"
}

/// A record met twice in one response keeps the value written later in the response, whatever
/// member of the outer object carries its `id`: ingest defers members that come before the key
/// and must keep them in response order (issue 8: the simulator's EpisodeCastHomes, seed 21,
/// where shuffled members put the id last).
@Suite("Ingest: a record met twice keeps its later value, wherever the id stands")
struct IngestMemberOrderTests {
    static let orders: [([String], String)] = [
        (["id", "location", "name"], "outer"),
        (["id", "name", "location"], "inner"),
        (["location", "name", "id"], "outer"),
        (["name", "location", "id"], "inner"),
        (["location", "id", "name"], "outer"),
        (["name", "id", "location"], "inner"),
    ]

    @Test("the later of the two names wins in every member order", arguments: orders)
    func laterWins(_ order: [String], _ expected: String) throws {
        let changes = try ingest(castPlan, character(order))
        #expect(changes.value("Character:2", "name") == .string(expected), "\(order)")
        #expect(changes.value("Location:1", "residents") == .links([RecordKey("Character:2")]))
    }

    #if BATON_MUTANTS
    @Test("under lateIDLeavesJumpAhead a name after the location is written before it when the id comes last")
    func mutant() throws {
        let json = character(["location", "name", "id"])
        let changes = try Ingest.normalize(plan: castPlan, variables: Variables([:]), response: Array(json.utf8), mutant: .lateIDLeavesJumpAhead)
        #expect(changes.value("Character:2", "name") == .string("inner"))
    }
    #endif
}
