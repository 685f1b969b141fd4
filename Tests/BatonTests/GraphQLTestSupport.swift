import Baton
import Testing

/// Shared fixtures for the GraphQL tests: a small schema written inline, and a text rendering of
/// plans that tests compare exactly.
enum GraphQLFixtures {
    static let sdl = """
        "Something with an id."
        interface Node { id: ID! }
        interface Named { name: String }
        "An interface that implements another."
        interface Being implements Node & Named { id: ID! name: String }
        type Character implements Being & Node & Named {
          id: ID!
          name: String
          status: Status
          age: Int
          height(unit: LengthUnit = METER): Float
          alive: Boolean
          metadata: JSON
          nicknames: [String]
          appearsIn: [[Episode!]]!
          friends(first: Int, after: String, last: Int, before: String, orderby: [String], filter: CharacterFilter): FriendsConnection!
          bestFriend: Character
        }
        type Droid implements Being & Node & Named { id: ID! name: String primaryFunction: String }
        type Planet implements Node { id: ID! diameter: Int }
        type Episode { title: String }
        union SearchResult = Character | Droid | Planet
        union Person = Character | Droid
        enum Status { ALIVE DEAD UNKNOWN }
        enum LengthUnit { METER FOOT }
        scalar JSON
        "Directives a client adds: the schema declares them, Baton lets them through."
        directive @live(when: JSON) on QUERY
        directive @defer(if: Boolean! = true, label: JSON) on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT
        directive @client on FIELD
        directive @nonreactive on FRAGMENT_SPREAD
        directive @argumentDefinitions(a: JSON) on FRAGMENT_DEFINITION
        directive @tag(name: String!) repeatable on FIELD | QUERY | VARIABLE_DEFINITION
        input CharacterFilter { name: String status: Status tags: [String] nested: CharacterFilter }
        type FriendsConnection { edges: [FriendEdge] nodes: [Character] pageInfo: PageInfo! }
        type FriendEdge { cursor: String! node: Character }
        type PageInfo { hasNextPage: Boolean! endCursor: String startCursor: String }
        type Query {
          hero: Character
          character(id: ID!): Character
          node(id: ID!): Node
          being: Being
          named: Named
          search(text: String!, first: Int): [SearchResult]
          person: Person
          characters(ids: [ID!], filter: CharacterFilter, page: Int, flags: [Boolean], ratio: Float, meta: JSON, status: Status): [Character]
          version: String
        }
        type Mutation {
          deleteCharacter(id: ID!): DeletePayload
        }
        type Subscription { heroChanged: Character }
        type DeletePayload {
          deletedId: ID
          deletedIds: [ID!]
          deletedName: String
          count: Int
          character: Character
        }
        """

    /// The schema above, parsed once.
    static let schema: Schema = {
        do { return try Schema.parse(sdl) } catch { fatalError("fixture schema: \(error)") }
    }()

    static func plan(_ document: String, operationName: String? = nil) throws -> Plan {
        try Plan.build(document: document, schema: schema, operationName: operationName)
    }

    /// The error `body` throws, as a ``GraphQLError`` (`nil` when it throws none).
    static func error(_ body: () throws -> Void) -> GraphQLError? {
        do {
            try body()
            return nil
        } catch let error as GraphQLError {
            return error
        } catch {
            Issue.record("unexpected error type: \(error)")
            return nil
        }
    }

    /// The value of `literal` written as an argument: `{ f(a: <literal>) }`.
    static func value(_ literal: String) throws -> GraphQLValue {
        let document = try Document.parse("{ f(a: " + literal + ") }")
        guard case .field(let field)? = document.operations.first?.selections.first,
              let argument = field.arguments.first
        else { throw GraphQLError("no argument", at: .start) }
        return argument.value
    }

    static func planError(_ document: String, operationName: String? = nil) -> String? {
        error { _ = try plan(document, operationName: operationName) }?.description
    }

    static func documentError(_ source: String) -> String? {
        error { _ = try Document.parse(source) }?.description
    }

    static func schemaError(_ sdl: String) -> String? {
        error { _ = try Schema.parse(sdl) }?.description
    }

    /// A plan as indented text, one selection per line:
    /// `name(a:1): kind Type[depth]` for fields, `... on A|B` or `...` for fragments,
    /// `@include($v)` / `@skip($v)` for conditions; children indented by two spaces.
    static func render(_ set: SelectionSet, variables: Variables = Variables(), indent: String = "") -> String {
        var out = ""
        for selection in set.selections {
            switch selection {
            case .field(let field):
                out += indent
                if field.responseKey != field.name { out += field.responseKey + ": " }
                out += field.storageKey(variables) + ": " + describe(field.type)
                if let connection = field.connection {
                    out += " @connection(" + connection.key
                    if let filters = connection.filters { out += " [" + filters.joined(separator: ",") + "]" }
                    out += ")"
                }
                if let delete = field.deleteRecord { out += " @deleteRecord(" + (delete.typename ?? "-") + ")" }
                out += "\n"
                if let selections = field.selections {
                    out += render(selections, variables: variables, indent: indent + "  ")
                }
            case .fragment(let possibleTypes, let set):
                out += indent + "..."
                if let possibleTypes {
                    out += " on " + possibleTypes.sorted().joined(separator: "|")
                }
                out += "\n" + render(set, variables: variables, indent: indent + "  ")
            case .condition(let variable, let include, let set):
                out += indent + (include ? "@include($" : "@skip($") + variable + ")\n"
                out += render(set, variables: variables, indent: indent + "  ")
            }
        }
        return out
    }

    static func describe(_ type: FieldType) -> String {
        let kind: String = switch type.kind {
        case .int: "int"
        case .float: "float"
        case .string: "string"
        case .boolean: "boolean"
        case .id: "id"
        case .customScalar: "custom"
        case .enumeration: "enum"
        case .object: "object"
        case .abstract: "abstract"
        }
        return kind + " " + type.namedType + (type.listDepth > 0 ? "[\(type.listDepth)]" : "")
    }

    /// The plan's lines as an array (easier to read in a failing `#expect`).
    static func lines(_ plan: Plan) -> [String] {
        render(plan.selections).split(separator: "\n").map(String.init)
    }

    /// A fixed-algorithm generator (SplitMix64): the same seed gives the same inputs in any process.
    struct Random: RandomNumberGenerator {
        private var state: UInt64

        init(seed: UInt64) {
            state = seed
        }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
