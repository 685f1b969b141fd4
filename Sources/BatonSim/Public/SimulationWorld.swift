import Baton

/// A world to simulate: an app's SDL schema, its GraphQL operations (with `@connection` and
/// `@deleteRecord` where the app uses them), and optional settings.
///
/// BatonSim generates a server for the world from the schema's types, answers the operations by
/// executing them, and checks the real store and image against an independent model of what they
/// received. A world that cannot be served (an operation that does not validate, a type the
/// server cannot generate, a mutation it cannot interpret) is an error naming the file, line and
/// column, before any seed runs.
///
/// ```swift
/// let world = try SimulationWorld(schema: schemaText, operations: ["Screen.graphql": screenText])
/// let result = Simulator.run(seed: 42, in: world)
/// #expect(result.failure == nil, "\(result.failure!)")
/// ```
public struct SimulationWorld: Sendable {
    let world: World

    init(_ world: World) {
        self.world = world
    }

    /// The world's name (its folder's name, or the one given).
    public var name: String { world.name }

    /// The names of its operations, sorted.
    public var operationNames: [String] { world.operations.map(\.name) }

    /// The built-in Rick and Morty app: the simulator's default world.
    public static var rickAndMorty: SimulationWorld { SimulationWorld(World.standard) }

    /// The built-in GitHub-shaped app: repositories, issues and comments, connections with
    /// filters, an interface, a union, custom scalars, mutations that edit and delete.
    public static var github: SimulationWorld { SimulationWorld(World.builtIn("github")!) }

    /// A world from a folder: `schema.graphql` (or `.graphqls`) and an optional `world.json` of
    /// settings at its top, and every other `*.graphql` file in it or its subfolders as operations.
    ///
    /// - Throws: ``SimulationWorldError`` naming the file, line and column of the first problem.
    public static func load(directory: String) throws(SimulationWorldError) -> SimulationWorld {
        try checked { try World.load(directory: directory) }
    }

    /// A world from text: the schema's SDL and the operations' documents by source name (the
    /// name error messages use, such as a file name). With `addTypename` the documents run as
    /// Apollo's code generators send them, `__typename` in every selection set but an
    /// operation's own (`world.json`'s `addTypename`).
    ///
    /// - Throws: ``SimulationWorldError`` naming the source, line and column of the first problem.
    ///
    /// `recorded` are responses the app's real server once sent: the seeds deliver one now and
    /// then among the generated server's answers (`world.json`'s `recorded`).
    public init(
        name: String = "app", schema: String, operations: [String: String], addTypename: Bool = false, recorded: [Recording] = []
    ) throws(SimulationWorldError) {
        let sources = operations.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { (source: $0, text: operations[$0]!) }
        var settings = WorldSettings()
        settings.addTypename = addTypename
        settings.recorded = recorded.map { RecordedResponse(operation: $0.operation, variables: $0.variables, source: $0.name, text: $0.text) }
        self = try Self.checked { try World.make(name: name, schema: schema, operations: sources, settings: settings) }
    }

    /// A world that both the server and the store can serve (the store's own plan builder
    /// accepts every operation too).
    private static func checked(_ make: () throws -> World) throws(SimulationWorldError) -> SimulationWorld {
        do {
            let world = try make()
            try world.requireRunnable()
            return SimulationWorld(world)
        } catch let error as WorldError {
            throw SimulationWorldError(description: error.description)
        } catch {
            throw SimulationWorldError(description: "\(error)")
        }
    }
}

extension SimulationWorld {
    /// A response the app's real server once sent (saved by the app, a proxy or a test), to run
    /// among the generated server's answers: the store and the model each read it on their own,
    /// with every crash, fault and garbling a seed draws around it.
    public struct Recording: Sendable, Hashable {
        /// The operation it answers.
        public var operation: String
        /// The variables it was sent with.
        public var variables: [String: JSONValue]
        /// A name for the trace (its file's name, say).
        public var name: String
        /// The response's text as received.
        public var text: String

        public init(operation: String, variables: [String: JSONValue] = [:], name: String, text: String) {
            self.operation = operation
            self.variables = variables
            self.name = name
            self.text = text
        }
    }
}

/// A world the simulator cannot serve, with where the problem is (`file:line:column: message`).
public struct SimulationWorldError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and where: `file:line:column: message`.
    public let description: String
}
