import Baton

/// A world the simulator runs: an SDL schema, the app's executable operations, and settings.
///
/// The server, its executor and the reference model read only this: the parser's syntax (the
/// schema's types and fields, each operation's selections and fragments), never a plan, a
/// storage key or anything else the store computes. Build one with ``load(directory:)`` or
/// ``make(name:schema:operations:settings:schemaSource:)``, which check that it can be served.
package struct World: Sendable {
    /// A short name for traces and reports (`rickandmorty`).
    package let name: String
    /// The schema as parsed from SDL.
    package let schema: Schema
    /// The operations, sorted by name; names are unique in a world.
    package let operations: [WorldOperation]
    package let settings: WorldSettings
    /// What the server and the variable drawer know about the types and operations, worked out once.
    package let analysis: WorldAnalysis

    /// A world from parts already parsed. It does not check them: a world built this way that
    /// ``make(name:schema:operations:settings:schemaSource:)`` would reject answers what it cannot
    /// interpret with errors.
    package init(name: String, schema: Schema, operations: [WorldOperation], settings: WorldSettings) {
        self.name = name
        self.schema = schema
        self.operations = operations.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        self.settings = settings
        self.analysis = WorldAnalysis(schema: schema, operations: self.operations)
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
