import Baton
import Foundation
import Observation
import Synchronization
import Testing

/// One generated case: an operation with its variables, and a response to it.
struct ReadBackCase: Sendable {
    let seed: UInt64
    let operation: GenOperation
    let response: GenResponse

    init(seed: UInt64) {
        self.seed = seed
        var builder = GenOperationBuilder(seed: seed)
        operation = builder.build()
        var responses = GenResponseBuilder(operation: operation, rng: builder.rng.split())
        response = responses.build()
    }

    /// Everything needed to reproduce the case by hand.
    var reproduction: String {
        """
        seed \(seed) (rerun alone: BATON_SEED=\(seed) swift test --filter ReadBack)
        --- operation ---
        \(operation.text)
        --- variables ---
        \(operation.variablesText)
        --- response ---
        \(response.text)
        """
    }
}

/// The seeds the properties run: `0..<500`; `BATON_SEED=<n>` runs that one alone, and
/// `BATON_SEED_COUNT=<n>` runs `0..<n` (for a longer hunt by hand).
enum ReadBackSeeds {
    static let defaultCount: UInt64 = 500

    static var all: [UInt64] {
        let environment = ProcessInfo.processInfo.environment
        if let text = environment["BATON_SEED"] {
            guard let seed = UInt64(text.trimmingCharacters(in: .whitespaces)) else {
                preconditionFailure("BATON_SEED must be a non-negative integer, not \(text)")
            }
            return [seed]
        }
        if let text = environment["BATON_SEED_COUNT"] {
            guard let count = UInt64(text.trimmingCharacters(in: .whitespaces)) else {
                preconditionFailure("BATON_SEED_COUNT must be a non-negative integer, not \(text)")
            }
            return Array(0..<count)
        }
        return Array(0..<defaultCount)
    }

    /// The cases of ``all``, generated once for every test that walks them.
    static let cases: [ReadBackCase] = all.map(ReadBackCase.init(seed:))

    /// Failures reported before a property stops (each names its seed).
    static let reportLimit = 5

    static let schema: Schema = {
        do { return try Schema.parse(GenSchema.shared.sdl) } catch { fatalError("generated schema: \(error)\n\(GenSchema.shared.sdl)") }
    }()
}

/// Collects which records notified.
final class ReadBackNotifications: Sendable {
    private let keys = Mutex<[String]>([])
    func note(_ key: String) { keys.withLock { $0.append(key) } }
    var all: [String] { keys.withLock { $0 } }
}

@MainActor
@Suite("Read-back property: commit, then read back, equals the response")
struct ReadBackPropertyTests {
    /// Plans, ingests and commits one case into a fresh store.
    private func commit(_ generated: ReadBackCase) throws -> (Store, Plan, Variables) {
        let plan = try Plan.build(
            document: generated.operation.text, schema: ReadBackSeeds.schema, operationName: generated.operation.name)
        guard case .object(let provided) = try JSONValue.parse(generated.operation.variablesText) else {
            throw ReadBackFailure("the variables are not an object")
        }
        let variables = try plan.variables(provided.dictionary)
        let changeSet = try Ingest.normalize(plan: plan, variables: variables, response: Array(generated.response.text.utf8))
        let store = Store()
        store.commit(changeSet)
        return (store, plan, variables)
    }

    /// The problems of one case, empty when the property holds.
    private func readBackProblems(_ generated: ReadBackCase) -> [String] {
        var problems: [String] = []
        do {
            let expected = generated.response.data.jsonValue
            let parsed = try JSONValue.parse(generated.response.text)
            if case .object(let top) = parsed, let data = top["data"] {
                if let difference = GenJSONCompare.difference(data, expected) {
                    problems.append("JSONValue.parse reads the response's data differently from what was written: \(difference)")
                }
            } else {
                problems.append("JSONValue.parse finds no data object in the response")
            }
            let (store, plan, variables) = try commit(generated)
            let read = store.read(plan, variables: variables)
            if !read.isComplete { problems.append("the read is not complete") }
            if let difference = GenJSONCompare.difference(read.data, expected) {
                problems.append("the read differs from the response: \(difference)\nread: \(CanonicalJSON.render(read.data))")
            }
            let availability = store.check(plan, variables: variables)
            if !availability.isAvailable { problems.append("the check answers \(availability)") }
            let keys = store.keys.map(\.rawValue).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            if keys != generated.response.recordKeys {
                let missing = generated.response.recordKeys.filter { !keys.contains($0) }
                let extra = keys.filter { !generated.response.recordKeys.contains($0) }
                problems.append("the store's record keys differ from the response's objects: missing \(missing), unexpected \(extra)")
            }
        } catch {
            problems.append("threw: \(error)")
        }
        return problems
    }

    @Test("committing a generated response, then reading its operation back, gives the response's data")
    func readBackEqualsResponse() {
        let start = ContinuousClock.now
        var reported = 0
        var checked = 0
        for generated in ReadBackSeeds.cases {
            checked += 1
            let problems = readBackProblems(generated)
            guard !problems.isEmpty else { continue }
            Issue.record(Comment(rawValue: problems.joined(separator: "\n") + "\n" + generated.reproduction))
            reported += 1
            if reported >= ReadBackSeeds.reportLimit { break }
        }
        print("read-back property: \(checked) seeds in \(ContinuousClock.now - start)")
    }

    @Test("committing the same response twice notifies nothing and leaves the record source byte-identical")
    func secondCommitIsSilent() {
        var reported = 0
        for generated in ReadBackSeeds.cases {
            var problems: [String] = []
            do {
                let (store, plan, variables) = try commit(generated)
                let before = store.recordSource()
                let notifications = ReadBackNotifications()
                for key in store.keys {
                    guard let record = store.record(key), let data = store.data(of: key) else { continue }
                    let slots = Array(data.cells.keys)
                    let name = key.rawValue
                    withObservationTracking {
                        _ = record.typename
                        _ = record.isDeleted
                        _ = record.isLive
                        for slot in slots { _ = record.cell(slot) }
                    } onChange: {
                        notifications.note(name)
                    }
                }
                let again = try Ingest.normalize(plan: plan, variables: variables, response: Array(generated.response.text.utf8))
                store.commit(again)
                if !notifications.all.isEmpty {
                    problems.append("the second commit notified records \(notifications.all)")
                }
                let after = store.recordSource()
                if after != before {
                    problems.append("the record source changed:\n--- before ---\n\(before)--- after ---\n\(after)")
                }
            } catch {
                problems.append("threw: \(error)")
            }
            guard !problems.isEmpty else { continue }
            Issue.record(Comment(rawValue: problems.joined(separator: "\n") + "\n" + generated.reproduction))
            reported += 1
            if reported >= ReadBackSeeds.reportLimit { break }
        }
    }
}

struct ReadBackFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

@Suite("Read-back property: the generator")
struct ReadBackGeneratorTests {
    /// Every feature the properties claim to exercise occurs somewhere in the seed range.
    static let required = [
        "operation: mutation", "operation: anonymous", "operation: with named fragments",
        "operation: picked by name among several",
        "variable: absent, default used", "variable: absent, no default", "variable: explicit null",
        "variable: given over a default", "variable: input object value",
        "field: aliased", "field: merged from several selections", "field: sub-selections merged",
        "field: id dropped by a directive", "field: id under an alias",
        "inline fragment: on a type", "inline fragment: no type condition", "fragment spread",
        "directive: @include literal", "directive: @include variable", "directive: @skip literal", "directive: @skip variable",
        "argument: Int literal", "argument: Float literal", "argument: string literal", "argument: block string", "argument: block string on several lines",
        "argument: Boolean literal", "argument: null", "argument: enum literal", "argument: list", "argument: object",
        "argument: variable", "argument: variable nested in a list or object",
        "object: entity reached again", "object: path-keyed object reached again", "object: null id",
        "object: path key for a type with an id",
        "composite: null object", "composite: null list element", "composite: empty list",
        "composite: nested list of objects", "composite: object of an abstract type",
        "leaf: null", "leaf: null list element", "leaf: Boolean", "leaf: int", "leaf: double",
        "leaf: string needing escapes", "leaf: string with astral scalars", "leaf: string with non-ASCII",
        "leaf: empty list", "leaf: nested list", "leaf: JSON object",
    ]

    @Test("over the seed range, the generator produces every feature the properties rely on")
    func everyFeatureOccurs() {
        guard ProcessInfo.processInfo.environment["BATON_SEED"] == nil else { return }
        var stats = GenStats()
        for generated in ReadBackSeeds.cases {
            stats.add(generated.operation.features)
            stats.add(generated.response.stats)
        }
        for feature in ReadBackGeneratorTests.required {
            #expect(stats[feature] > 0, "the generator never produced \(feature)")
        }
        print("read-back generator over \(ReadBackSeeds.all.count) seeds:\n\(stats.report)")
    }

    /// The fingerprint of seeds `0..<50`: operation texts, variables and responses. It pins the
    /// generator's output across processes and platforms, so a seed named in a report means the
    /// same case everywhere. Changing the generator on purpose changes it: then update it here
    /// (seeds named in earlier reports then name other cases).
    static let fingerprint: UInt64 = 874_077_791_101_838_836

    @Test("the generator's output for seeds 0..<50 is pinned, the same in every process")
    func pinnedOutput() {
        guard ProcessInfo.processInfo.environment["BATON_SEED"] == nil else { return }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for seed in UInt64(0)..<50 {
            let generated = ReadBackCase(seed: seed)
            for text in [generated.operation.text, generated.operation.variablesText, generated.response.text] {
                for byte in text.utf8 + [0] {
                    hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                }
            }
        }
        #expect(hash == ReadBackGeneratorTests.fingerprint, "the generator's output changed: fingerprint \(hash)")
    }

    @Test("the generator is deterministic: the same seed gives the same case")
    func deterministic() {
        for seed in ReadBackSeeds.all.prefix(20) {
            let first = ReadBackCase(seed: seed)
            let second = ReadBackCase(seed: seed)
            #expect(first.operation.text == second.operation.text, "seed \(seed)")
            #expect(first.operation.variablesText == second.operation.variablesText, "seed \(seed)")
            #expect(first.response.text == second.response.text, "seed \(seed)")
        }
    }
}
