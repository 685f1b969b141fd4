import Baton
import BatonSim
import Testing

/// Apollo spells `@connection`'s identifying arguments `filter:`, Relay `filters:`. Both mean the
/// same to the store, to the world's checks and to the model, and a field may not give both.
@Suite("Worlds: Apollo's @connection(filter:)")
struct ApolloConnectionFilterTests {
    static let schema = """
        type Query { feed(kind: String, tag: String, first: Int, after: String): FeedConnection! }
        type FeedConnection { edges: [FeedEdge!]!, pageInfo: PageInfo! }
        type FeedEdge { cursor: String!, node: Post! }
        type Post { id: ID!, text: String }
        type PageInfo { endCursor: String, hasNextPage: Boolean! }
        """

    static func operation(_ argument: String) -> String {
        """
        query Feed($kind: String, $tag: String, $first: Int, $after: String) {
          feed(kind: $kind, tag: $tag, first: $first, after: $after) @connection(key: "Feed"\(argument)) {
            edges { cursor node { id text } }
            pageInfo { endCursor hasNextPage }
          }
        }
        """
    }

    static func world(_ argument: String) throws -> World {
        try World.make(name: "feed", schema: schema, operations: [(source: "Feed.graphql", text: operation(argument))])
    }

    @Test("the store's plan takes filter: as filters:, and names the slot by the filtered arguments alone")
    func planReadsFilter() throws {
        let schema = try Schema.parse(Self.schema)
        let variables = ["kind": JSONValue.string("news"), "tag": .string("x"), "first": .int(2)]
        var slots: [String?] = []
        for argument in [#", filter: ["kind"]"#, #", filters: ["kind"]"#, ""] {
            let plan = try Plan.build(document: Self.operation(argument), schema: schema, operationName: "Feed")
            guard case .field(let feed)? = plan.selections.selections.first else {
                Issue.record("unexpected plan")
                return
            }
            slots.append(feed.connectionStorageKey(try plan.variables(variables)))
        }
        #expect(slots == [#"__Feed_connection(kind:"news")"#, #"__Feed_connection(kind:"news")"#, #"__Feed_connection(kind:"news",tag:"x")"#])
    }

    @Test("giving both, or a filter that is no argument, is refused by the store and by the world", arguments: [
        (#", filters: ["kind"], filter: ["tag"]"#, "@connection takes filters or filter (Apollo's name for it), not both"),
        (#", filter: ["nope"]"#, #"@connection filter "nope" is not an argument"#),
    ])
    func refused(argument: String, message: String) throws {
        let schema = try Schema.parse(Self.schema)
        #expect {
            try Plan.build(document: Self.operation(argument), schema: schema, operationName: "Feed")
        } throws: { error in
            "\(error)".contains(message)
        }
        #expect {
            try Self.world(argument)
        } throws: { error in
            (error as? WorldError)?.description.contains(message) == true
        }
    }

    @MainActor
    @Test("seeds run clean with filter:, exactly as with filters:, and differently from no filter at all")
    func seedsAgree() throws {
        let apollo = try Self.world(#", filter: ["kind"]"#)
        let relay = try Self.world(#", filters: ["kind"]"#)
        let unfiltered = try Self.world("")
        // The model reads the directive on its own: the connection's key from its own syntax.
        guard case .field(let feed)? = apollo.operation(named: "Feed")?.syntax.selections.first else {
            Issue.record("unexpected syntax")
            return
        }
        #expect(OracleConnectionDirective(feed.directives) == OracleConnectionDirective(key: "Feed", filters: ["kind"]))
        var differs = false
        for seed: UInt64 in 0..<4 {
            let options = { (world: World) in Simulation.Options(events: 150, world: world) }
            let a = Simulation.run(seed: seed, options: options(apollo))
            let r = Simulation.run(seed: seed, options: options(relay))
            let u = Simulation.run(seed: seed, options: options(unfiltered))
            #expect(a.failure == nil, "seed \(seed): \(a.failure.map(String.init(describing:)) ?? "")")
            #expect(a.traceHash == r.traceHash, "seed \(seed)")
            if a.traceHash != u.traceHash { differs = true }
        }
        #expect(differs, "a filter: that the store ignored would key the connection by both arguments")
    }
}
