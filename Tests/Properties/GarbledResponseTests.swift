import Foundation
import Baton
@testable import BatonSim
import Testing

/// Responses garbled on their way (cut short, replaced by a proxy's page, one value changed into
/// another kind): the store and the model read each on their own and must agree whether it can be
/// read; one both refuse changes nothing.
@MainActor
@Suite("Garbled responses: the store and the model agree on what to refuse, and a refusal changes nothing")
struct GarbledResponseTests {
    static let header = #"{"data":{"character":{"id":"1","name":"Rick Sanchez","status":"Alive"}}}"#
    static let variables: [String: JSONValue] = ["id": .string("1")]
    static let headerData: JSONValue = .object(["character": .object([
        "id": .string("1"), "name": .string("Rick Sanchez"), "status": .string("Alive"),
    ])])

    @Test("the value scanner finds every value below the top-level object, escapes and nesting included")
    func spans() {
        let text = Array(#"{"data": {"a": "x\"}y", "b": [1, {"c": null}], "d": -2.5e3}, "errors": []}"#.utf8)
        let found = JSONValueSpans.members(of: text).map { String(decoding: text[$0], as: UTF8.self) }
        #expect(found == [
            #""x\"}y""#, "1", "null", #"{"c": null}"#, #"[1, {"c": null}]"#, "-2.5e3",
            #"{"a": "x\"}y", "b": [1, {"c": null}], "d": -2.5e3}"#, "[]",
        ])
        #expect(JSONValueSpans.members(of: Array("[1, 2]".utf8)).isEmpty)
        // A text that breaks off keeps the values that ended before the break.
        let cut = Array(#"{"a": [1, "#.utf8)
        #expect(JSONValueSpans.members(of: cut).map { String(decoding: cut[$0], as: UTF8.self) } == ["1"])
    }

    @Test("members below the top-level object, each with the bytes that leave its object without it")
    func objectMembers() {
        let text = Array(#"{"data": {"a": 1, "b": {"c": [2]}, "d": "x"}, "errors": []}"#.utf8)
        let members = JSONValueSpans.objectMembers(of: text)
        func string(_ range: Range<Int>) -> String { String(decoding: text[range], as: UTF8.self) }
        #expect(members.map { string($0.whole) } == [#""a": 1"#, #""c": [2]"#, #""b": {"c": [2]}"#, #""d": "x""#])
        let without = members.map { member in
            String(decoding: Array(text[..<member.removable.lowerBound]) + Array(text[member.removable.upperBound...]), as: UTF8.self)
        }
        #expect(without == [
            #"{"data": { "b": {"c": [2]}, "d": "x"}, "errors": []}"#,
            #"{"data": {"a": 1, "b": {}, "d": "x"}, "errors": []}"#,
            #"{"data": {"a": 1, "d": "x"}, "errors": []}"#,
            #"{"data": {"a": 1, "b": {"c": [2]}}, "errors": []}"#,
        ])
    }

    @Test("garbling is drawn from its stream alone, and every kind occurs")
    func kinds() {
        let text = Array(Self.header.utf8)
        var random = SimRandom(seed: 7)
        var again = SimRandom(seed: 7)
        var kinds: Set<String> = []
        var hows: [String] = []
        for _ in 0..<64 {
            let (garbled, how) = ResponseGarbling.garble(text, random: &random)
            hows.append(how)
            #expect(ResponseGarbling.garble(text, random: &again) == (garbled, how))
            #expect(garbled != text, "\(how)")
            kinds.insert(String(how.prefix(while: { $0 != " " })))
        }
        #expect(kinds == ["cut", "replaced", "sent", "the", "with", "without"])
        #expect(hows.contains { $0.contains("added at the top") } && hows.contains { $0.contains("added after the member") })
    }

    @Test("a number respelled is the same decimal value, in JSON's grammar")
    func respelledNumbers() throws {
        var random = SimRandom(seed: 3)
        for written in ["15", "0", "-0", "2.5", "-1.50e2", "0.001", "7E+2", "123456789012345678901234567890", "1e400", "4.9e-324"] {
            let number = try #require(DecimalSpelling(Array(written.utf8)[...]))
            let value = Double(written)!
            for _ in 0..<40 {
                let spelled = String(decoding: number.spelled(random: &random), as: UTF8.self)
                #expect(spelled.wholeMatch(of: /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/) != nil, "\(written) → \(spelled)")
                #expect(Double(spelled) == value, "\(written) → \(spelled)")
                // Decimal holds 38 digits: exact for the values in its range.
                if value == 0 || (abs(value) < 1e100 && abs(value) > 1e-100), let exact = Decimal(string: written) {
                    #expect(Decimal(string: spelled) == exact, "\(written) → \(spelled)")
                }
            }
        }
        for notANumber in ["01", "1.", ".5", "+1", "1e", "x", "\"1\"", "1e99999"] {
            #expect(DecimalSpelling(Array(notANumber.utf8)[...]) == nil, "\(notANumber)")
        }
    }

    @Test("a __typename respelled: the same name escaped, or texts that are other names or none")
    func respelledTypenames() throws {
        let text = Array(#"{"data":{"item":{"__typename":"Kind","id":"1"}}}"#.utf8)
        var random = SimRandom(seed: 5)
        var values: Set<String> = []
        for _ in 0..<80 {
            let (garbled, how) = try #require(ResponseGarbling.respelledTypename(text, random: &random))
            #expect(how.hasPrefix("the __typename at byte 30 (Kind) respelled: "))
            values.insert(String(decoding: garbled[30..<(garbled.count - 12)], as: UTF8.self))
        }
        let expected: Set<String> = [
            #""\u004bind""#, #""\u004Bind""#, #""kind""#, #""Kind\u0301""#, "\"Kind\u{E9}\"", #""Kind ""#, "\"\"", #""\u212Aind""#,
        ]
        #expect(values == expected)
        #expect(ResponseGarbling.respelledTypename(Array(#"{"data":{"item":{"id":"1"}}}"#.utf8), random: &random) == nil)
    }

    /// Bad responses, each between a good one and a check that must still find the good data.
    static func refusals(_ bodies: [String]) -> Scenario {
        var scenario = Scenario()
        scenario.respond("CharacterHeader", variables: variables, with: header)
        for body in bodies {
            scenario.respond("CharacterHeader", variables: variables, with: body)
            scenario.check("CharacterHeader", variables: variables, expect: .available(from: .memory, data: headerData))
        }
        return scenario
    }

    @Test("a body that is no response, a cut one, a value of the wrong kind and a null no error names are refused by both, and change nothing")
    func refused() throws {
        let bodies = [
            "<html><body>502 Bad Gateway</body></html>",
            String(Self.header.dropLast(9)),
            #"{"data":{"character":{"id":"1","name":{},"status":"Alive"}}}"#,
            #"{"data":{"character":{"id":null,"name":"Rick","status":"Alive"}}}"#,
            #"{"message":"Internal server error"}"#,
        ]
        let scenario = Self.refusals(bodies)
        let result = scenario.run()
        #expect(result.failure == nil, "\(result.failure.map(String.init(describing:)) ?? "")")
        #expect(result.coverage["refusedResponses"] == bodies.count)
        #expect(result.trace.filter { $0.contains("→ refused: ") }.count == bodies.count)
        let replayed = try Simulator.replay(scenario.replayFile)
        #expect(replayed.failure == nil && replayed.traceHash == result.traceHash)
    }

    @Test("members given twice, an Int past 32 bits and numbers past a double's range are refused by both (the model read them before)")
    func edgesRefused() throws {
        let cases: [(operation: String, variables: [String: JSONValue], body: String)] = [
            ("CharacterHeader", Self.variables, #"{"data":{"character":{"id":"1","name":"a","name":"b","status":"Alive"}}}"#),
            ("CharacterHeader", Self.variables, #"{"data":{"character":null},"errors":[{"message":"a","message":"b"}]}"#),
            ("CharacterHeader", Self.variables, #"{"data":{"character":null},"errors":[{"message":"a","extensions":{"x":1e400}}]}"#),
            ("CharacterList", ["page": .int(1)], #"{"data":{"characters":{"info":{"count":2147483648,"next":null},"results":[]}}}"#),
            ("LocationResidents", Self.variables, #"{"data":{"location":{"id":"1","name":"Earth","dimension":"C-137","boundary":[[1e400]],"residents":[]}}}"#),
        ]
        for item in cases {
            var scenario = Scenario()
            scenario.respond(item.operation, variables: item.variables, with: item.body)
            let result = scenario.run()
            #expect(result.failure == nil, "\(item.body): \(result.failure.map(String.init(describing:)) ?? "")")
            #expect(result.coverage["refusedResponses"] == 1, "\(item.body)")
            let replayed = try Simulator.replay(scenario.replayFile)
            #expect(replayed.failure == nil && replayed.traceHash == result.traceHash)
        }
    }

    @Test("an Int written with a fraction or an exponent is the whole number its decimal text says, past 32 bits refused")
    func wholeNumbersByText() {
        for (written, count) in [("1.50e1", 15), ("3.0e0", 3), ("2147483647.0", 2_147_483_647), ("-0.0", 0), ("120e-1", 12)] {
            var scenario = Scenario()
            let page: [String: JSONValue] = ["page": .int(1)]
            scenario.respond("CharacterList", variables: page, with: #"{"data":{"characters":{"info":{"count":"# + written + #","next":null},"results":[]}}}"#)
            scenario.check("CharacterList", variables: page, expect: .available(from: .memory, data: .object(["characters": .object([
                "info": .object(["count": .int(count), "next": .null]), "results": .array([]),
            ])])))
            let result = scenario.run()
            #expect(result.failure == nil, "\(written): \(result.failure.map(String.init(describing:)) ?? "")")
        }
        for written in ["2147483648.0", "1.5", "1e400", "15e-1"] {
            var scenario = Scenario()
            scenario.respond("CharacterList", variables: ["page": .int(1)], with: #"{"data":{"characters":{"info":{"count":"# + written + #","next":null},"results":[]}}}"#)
            let result = scenario.run()
            #expect(result.failure == nil && result.coverage["refusedResponses"] == 1, "\(written): \(result.failure.map(String.init(describing:)) ?? "")")
        }
    }

    @Test("an error whose path holds a bad element, then a name, is read as an error of no field, by both")
    func badPathElement() {
        let body = #"{"data":{"character":{"id":"1","name":"Rick C-137","status":"Alive"}},"errors":[{"message":"m","path":[["x"],"character"]}]}"#
        var scenario = Scenario()
        scenario.respond("CharacterHeader", variables: Self.variables, with: body)
        let renamed: JSONValue = .object(["character": .object([
            "id": .string("1"), "name": .string("Rick C-137"), "status": .string("Alive"),
        ])])
        scenario.check("CharacterHeader", variables: Self.variables, expect: .available(from: .memory, data: renamed))
        let result = scenario.run()
        #expect(result.failure == nil, "\(result.failure.map(String.init(describing:)) ?? "")")
        #expect(result.coverage["refusedResponses"] == 0)
        #if BATON_MUTANTS
        let file = try? ReplayFile.parse(scenario.replayFile)
        let mutated = file.map { Simulation.replay($0.events, seed: $0.seed, options: .init(events: $0.events.count, mutant: .badPathElementStopsReading)) }
        #expect(mutated?.failure?.invariant == "ingest-accepts-server-response")
        #endif
    }

    @Test("a null no error names: the model refuses it as the store does (it read it as it stood before seed 5 found that)")
    func unnamedNull() {
        var scenario = Scenario()
        scenario.respond("CharacterHeader", variables: Self.variables, with: #"{"data":{"character":{"id":null,"name":"Rick","status":"Alive"}}}"#)
        #expect(scenario.run().failure == nil)
    }

    @Test("a __typename the schema does not list for an interface: the record takes it, and reads what applies to every type the field can be")
    func typeOutsideTheSchema() {
        // RepositoryHeader selects owner { __typename ...ActorAvatar } with ActorAvatar on Actor
        // (login, avatarUrl) and, inside it, ... on User { id name }, ... on Bot { id }.
        let body = #"{"data":{"repository":{"id":"R1","name":"baton","nameWithOwner":"a/baton","description":null,"stargazerCount":3,"#
            + #""owner":{"__typename":"Mannequin","login":"m","avatarUrl":"https://example.com/m","id":"U1","name":"Mannequin"}}}}"#
        var scenario = Scenario(in: .github)
        let variables: [String: JSONValue] = ["owner": .string("a"), "name": .string("baton")]
        scenario.respond("RepositoryHeader", variables: variables, with: body)
        let owner: JSONValue = .object(["__typename": .string("Mannequin"), "login": .string("m"), "avatarUrl": .string("https://example.com/m")])
        scenario.check("RepositoryHeader", variables: variables, expect: .available(from: .memory, data: .object(["repository": .object([
            "id": .string("R1"), "name": .string("baton"), "nameWithOwner": .string("a/baton"), "description": .null,
            "stargazerCount": .int(3), "owner": owner,
        ])])))
        let result = scenario.run()
        // Seeds 65524, 66096 and 67127 of GitHub's world found the model reading nothing of such
        // an owner (no fragment applied), and seed 65216 the model refusing it outright.
        #expect(result.failure == nil, "\(result.failure.map(String.init(describing:)) ?? "")")
    }

    @Test("campaign seeds garble about one response in 32, and run clean")
    func campaign() {
        var refused = 0
        var garbled = 0
        for seed: UInt64 in 0..<6 {
            let outcome = Simulation.run(seed: seed, options: .init(events: 200))
            #expect(outcome.failure == nil, "seed \(seed): \(outcome.failure.map(String.init(describing:)) ?? "")")
            refused += outcome.coverage.refusedResponses
            garbled += outcome.trace.filter { $0.hasPrefix("  network: the response ") }.count
        }
        #expect(garbled > 0 && refused > 0 && refused <= garbled)
    }
}
