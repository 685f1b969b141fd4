import Baton
import BatonSim
import Foundation

/// The command line: `--iterations N`, `--json FILE`, `--skip-slow`, `--profile NAME N`, and a
/// real response with `--response FILE --schema SDL --document GRAPHQL [--variables JSON]`.
struct Options {
    var iterations = 31
    var jsonPath: String?
    var skipSlow = false
    /// Sections to run (all when empty).
    var only: Set<String> = []
    var profile: (name: String, rounds: Int)?
    var response: String?
    var schema: String?
    var document: String?
    var variables: String?

    static let usage = """
    usage: BatonBenchmarks [--iterations N] [--json FILE] [--skip-slow] [--only SECTION,…] [--profile NAME ROUNDS]
                           [--response FILE --schema SDL --document GRAPHQL [--variables JSON]]
    sections: \(Benchmarks.sections.joined(separator: ", "))
    profiles: \(Benchmarks.profiles.joined(separator: ", "))
    """

    init(_ arguments: [String]) throws {
        var index = 0
        func value(_ flag: String) throws -> String {
            index += 1
            guard index < arguments.count else { throw BenchError("\(flag) needs a value") }
            return arguments[index]
        }
        func count(_ flag: String) throws -> Int {
            let text = try value(flag)
            guard let number = Int(text), number > 0 else { throw BenchError("\(flag) needs a positive number, not \(text)") }
            return number
        }
        while index < arguments.count {
            let flag = arguments[index]
            switch flag {
            case "--iterations": iterations = try count(flag)
            case "--json": jsonPath = try value(flag)
            case "--skip-slow": skipSlow = true
            case "--only":
                only = Set(try value(flag).split(separator: ",").map(String.init))
                if let unknown = only.subtracting(Benchmarks.sections).sorted().first { throw BenchError("unknown section \(unknown)") }
            case "--profile":
                let name = try value(flag)
                guard Benchmarks.profiles.contains(name) else { throw BenchError("unknown profile \(name)") }
                profile = (name, try count(flag))
            case "--response": response = try value(flag)
            case "--schema": schema = try value(flag)
            case "--document": document = try value(flag)
            case "--variables": variables = try value(flag)
            case "--help", "-h": throw BenchError(Self.usage)
            default: throw BenchError("unknown option \(flag)")
            }
            index += 1
        }
        let given = [response, schema, document].compactMap { $0 }.count
        if given != 0 && given != 3 { throw BenchError("--response, --schema and --document go together") }
    }
}

/// What the benchmarks normalize: the generated Rick-and-Morty-shaped page, or a real response.
struct BenchInput {
    let label: String
    let plan: Plan
    let variables: Variables
    let response: [UInt8]

    static func load(_ options: Options) throws -> BenchInput {
        if let responsePath = options.response, let schemaPath = options.schema, let documentPath = options.document {
            let schema = try Schema.parse(try String(contentsOfFile: schemaPath, encoding: .utf8))
            let plan = try Plan.build(document: try String(contentsOfFile: documentPath, encoding: .utf8), schema: schema)
            var provided: [String: JSONValue] = [:]
            if let text = options.variables {
                guard case .object(let object) = try JSONValue.parse(text) else { throw BenchError("--variables must be a JSON object") }
                provided = object.dictionary
            }
            guard let data = FileManager.default.contents(atPath: responsePath) else { throw BenchError("cannot read \(responsePath)") }
            let name = (responsePath as NSString).lastPathComponent
            return BenchInput(label: name, plan: plan, variables: try plan.variables(provided), response: [UInt8](data))
        }
        let schema = try Schema.parse(CharacterPageFixture.schema)
        let plan = try Plan.build(document: CharacterPageFixture.document, schema: schema)
        return BenchInput(label: "generated character page (CharacterPageFixture)", plan: plan,
                          variables: try plan.variables(["page": .int(1)]), response: Array(CharacterPageFixture.response().utf8))
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
