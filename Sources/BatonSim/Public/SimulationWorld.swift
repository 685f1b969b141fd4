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
    public init(name: String = "app", schema: String, operations: [String: String], addTypename: Bool = false) throws(SimulationWorldError) {
        let sources = operations.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { (source: $0, text: operations[$0]!) }
        var settings = WorldSettings()
        settings.addTypename = addTypename
        self = try Self.checked { try World.make(name: name, schema: schema, operations: sources, settings: settings) }
    }

    /// A world that both the server and the store can serve (the store's own plan builder
    /// accepts every operation too).
    private static func checked(_ make: () throws -> World) throws(SimulationWorldError) -> SimulationWorld {
        do {
            let world = try make()
            _ = try WorldPlans(world: world)
            return SimulationWorld(world)
        } catch let error as WorldError {
            throw SimulationWorldError(description: error.description)
        } catch {
            throw SimulationWorldError(description: "\(error)")
        }
    }
}

/// A world the simulator cannot serve, with where the problem is (`file:line:column: message`).
public struct SimulationWorldError: Error, Sendable, CustomStringConvertible {
    public let description: String
}
