import Baton
import BatonSim
import Foundation

/// What the benchmarks normalize: the generated Rick-and-Morty-shaped page, or a real response
/// given with `--response FILE --schema SDL --document GRAPHQL [--variables JSON]`.
struct BenchInput {
    let label: String
    let plan: Plan
    let variables: Variables
    let response: [UInt8]

    static func load(_ arguments: [String]) throws -> BenchInput {
        func option(_ name: String) -> String? {
            guard let index = arguments.firstIndex(of: "--" + name), index + 1 < arguments.count else { return nil }
            return arguments[index + 1]
        }
        if let responsePath = option("response"), let schemaPath = option("schema"), let documentPath = option("document") {
            let schema = try Schema.parse(try String(contentsOfFile: schemaPath, encoding: .utf8))
            let plan = try Plan.build(document: try String(contentsOfFile: documentPath, encoding: .utf8), schema: schema)
            var provided: [String: JSONValue] = [:]
            if let text = option("variables"), case .object(let object) = try JSONValue.parse(text) { provided = object }
            guard let data = FileManager.default.contents(atPath: responsePath) else { throw BenchError("cannot read \(responsePath)") }
            return BenchInput(label: responsePath, plan: plan, variables: try plan.variables(provided), response: [UInt8](data))
        }
        let schema = try Schema.parse(CharacterPageFixture.schema)
        let plan = try Plan.build(document: CharacterPageFixture.document, schema: schema)
        return BenchInput(label: "generated character page (CharacterPageFixture)", plan: plan,
                          variables: try plan.variables(["page": .int(1)]), response: Array(CharacterPageFixture.response().utf8))
    }
}
