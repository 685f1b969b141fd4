import Baton
import Testing

private typealias F = GraphQLFixtures

/// Random and truncated inputs: every one must parse or throw a ``GraphQLError``, never trap.
@Suite("GraphQL robustness")
struct GraphQLFuzzTests {
    static let document = #"""
        # A document touching every construct.
        query Q($id: ID! = "1", $f: CharacterFilter = {name: "é\u00e9\u{1F600}", tags: ["a", "b"]}, $show: Boolean!) @live {
          hero @include(if: $show) { ...Fields name @skip(if: false) }
          node(id: $id) { __typename ... on Character { age height(unit: FOOT) } ... { id } }
          characters(filter: $f, page: -3, ratio: 1.5e-3, flags: [true, null]) {
            friends(first: 2, after: """cursor""") @connection(key: "K", filters: ["filter"]) { edges { cursor node { id } } pageInfo { endCursor } }
          }
        }
        fragment Fields on Character { id alias: name }
        """#

    static let schema = """
        "Doc" schema { query: Query }
        directive @d(a: [Int] = [1]) repeatable on FIELD | OBJECT
        interface Node { id: ID! }
        type Query implements Node @d { id: ID! "f" f(a: Int = 1, b: [[String!]]!): U }
        union U = | Query
        enum E { A B }
        input I { a: E = A, b: I }
        extend type Query { g: E }
        scalar S @specifiedBy(url: "x")
        """

    /// Parses `source` every way; any error must be a GraphQLError.
    private func exercise(_ source: String) {
        for attempt in [
            { _ = try Document.parse(source) },
            { _ = try Schema.parse(source) },
            { _ = try F.plan(source) },
        ] as [() throws -> Void] {
            do {
                try attempt()
            } catch is GraphQLError {
            } catch {
                Issue.record("non-GraphQL error \(error) for input \(Array(source.utf8))")
            }
        }
    }

    @Test("the sample document and schema are valid")
    func samplesAreValid() throws {
        _ = try F.plan(Self.document)
        _ = try Schema.parse(Self.schema)
    }

    @Test("every truncation of a valid document and schema is handled")
    func truncations() {
        for sample in [Self.document, Self.schema] {
            let bytes = Array(sample.utf8)
            for length in 0..<bytes.count {
                exercise(String(decoding: bytes[..<length], as: UTF8.self))
            }
        }
    }

    @Test("random bytes are handled", arguments: [1, 2, 3, 4] as [UInt64])
    func randomBytes(seed: UInt64) {
        var random = F.Random(seed: seed)
        let alphabet = Array("{}()[]:!$@.=|&\"\\#,\n\r\t aZ_09-eE+u".utf8)
        for _ in 0..<400 {
            let length = Int(random.next() % 80)
            var bytes: [UInt8] = []
            for _ in 0..<length {
                bytes.append(random.next() % 3 == 0 ? UInt8(truncatingIfNeeded: random.next()) : alphabet[Int(random.next() % UInt64(alphabet.count))])
            }
            exercise(String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test("random edits of a valid document are handled", arguments: [5, 6, 7] as [UInt64])
    func mutations(seed: UInt64) {
        var random = F.Random(seed: seed)
        let original = Array(Self.document.utf8)
        let pieces = Array("{}()[]:!$@...=|&\"\"\"\\u{#\n".utf8)
        for _ in 0..<300 {
            var bytes = original
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let index = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes[index] = pieces[Int(random.next() % UInt64(pieces.count))]
                case 1: bytes.remove(at: index)
                default: bytes.insert(pieces[Int(random.next() % UInt64(pieces.count))], at: index)
                }
            }
            exercise(String(decoding: bytes, as: UTF8.self))
        }
    }
}
