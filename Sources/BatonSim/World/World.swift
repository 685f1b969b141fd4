import Baton

/// A world the simulator runs: an SDL schema, the app's executable operations, and settings.
///
/// The server, its executor and the reference model read only this: the parser's syntax (the
/// schema's types and fields, each operation's selections and fragments), never a plan, a
/// storage key or anything else the store computes.
package struct World: Sendable {
    /// A short name for traces and reports (`rickandmorty`).
    package let name: String
    /// The schema as parsed from SDL.
    package let schema: Schema
    /// The operations, sorted by name; names are unique in a world.
    package let operations: [WorldOperation]
    package let settings: WorldSettings

    package init(name: String, schema: Schema, operations: [WorldOperation], settings: WorldSettings) {
        self.name = name
        self.schema = schema
        self.operations = operations.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        self.settings = settings
    }

    /// The operation called `name`.
    package func operation(named name: String) -> WorldOperation? {
        operations.first { $0.name == name }
    }
}

/// One named operation of a world, with the fragments of the document it came from.
package struct WorldOperation: Sendable {
    package let name: String
    package let kind: OperationKind
    /// The operation as parsed.
    package let syntax: Document.Operation
    /// Every fragment of the operation's document, by name.
    package let fragments: [String: Document.Fragment]
    /// The text of the document the operation came from (the runner builds the store's plan from it).
    package let documentText: String
    /// Where it came from (a file path, or a name given in a test), for error messages.
    package let source: String

    package init(
        name: String, kind: OperationKind, syntax: Document.Operation, fragments: [String: Document.Fragment],
        documentText: String, source: String
    ) {
        self.name = name
        self.kind = kind
        self.syntax = syntax
        self.fragments = fragments
        self.documentText = documentText
        self.source = source
    }
}

/// What a world may say about how its seeds run (sizes, rates, which event kinds); every field
/// has a default, and the swarm draws within these bounds per seed.
package struct WorldSettings: Sendable, Hashable {
    /// Entities per object type with an id, drawn per seed within this range.
    package var entitiesPerType: ClosedRange<Int> = 2...7
    /// How many versions a server value cycles through, drawn per seed (few: many equal writes).
    package var valueVersions: ClosedRange<Int> = 1...4
    /// Items in a list field (and a connection's nodes), drawn per seed within this range.
    package var listLength: ClosedRange<Int> = 0...5
    /// Chances the swarm picks from for a nullable field to answer with an error.
    package var errorRates: [Double] = [0, 0.05, 0.2]
    /// Chances the swarm picks from for a nullable field to answer `null`.
    package var nullRates: [Double] = [0, 0.1, 0.3]
    /// Operations that only ever run as checks and retains, never answered (none by default).
    package var unansweredOperations: [String] = []

    package init() {}
}
