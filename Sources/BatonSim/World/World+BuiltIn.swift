import Baton

extension World {
    /// The names of the worlds compiled into BatonSim (`Fixtures/worlds/` as it was built).
    package static var builtInNames: [String] {
        BuiltInWorldFiles.worlds.map(\.name)
    }

    /// The world the simulator runs when none is named: the Rick and Morty app.
    package static let defaultName = "rickandmorty"

    /// A world compiled into BatonSim, by name; `nil` for a name it does not have.
    ///
    /// The built-in worlds are validated by the tests, so building one never fails; a failure here
    /// is a broken build and traps.
    package static func builtIn(_ name: String) -> World? {
        builtInCache.withLock { cache in
            if let world = cache[name] { return world }
            guard let entry = BuiltInWorldFiles.worlds.first(where: { $0.name == name }) else { return nil }
            let world: World
            do {
                world = try fromFiles(name: name, folder: "Fixtures/worlds/" + name, files: entry.files)
            } catch {
                fatalError("the built-in world \(name) does not build: \(error)")
            }
            cache[name] = world
            return world
        }
    }

    /// The built-in default world.
    package static var standard: World { builtIn(defaultName)! }

    /// A world from a folder's files as (file name, text) pairs, named as they would be on disk
    /// under `folder` in error messages: `schema.graphql(s)`, operations, and `world.json`.
    static func fromFiles(name: String, folder: String, files: [(name: String, text: String)]) throws -> World {
        let sorted = files.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        let schemas = sorted.filter { $0.name == "schema.graphql" || $0.name == "schema.graphqls" }
        guard schemas.count == 1 else {
            throw WorldError(source: folder, line: 1, column: 1, message: "the world needs exactly one schema.graphql or schema.graphqls")
        }
        let operations = sorted.filter { $0.name.hasSuffix(".graphql") && $0.name != schemas[0].name }
            .map { (source: folder + "/" + $0.name, text: $0.text) }
        let settings = sorted.first { $0.name == "world.json" }
        return try assemble(
            name: name, schema: schemas[0].text, schemaSource: folder + "/" + schemas[0].name, schemaExtensions: [], operations: operations,
            addTypename: try settings.map { try WorldSettings.addsTypename($0.text, source: folder + "/world.json") } ?? false,
            settings: { schema, names in
                guard let settings else { return WorldSettings() }
                return try WorldSettings.parse(settings.text, source: folder + "/world.json", schema: schema, operationNames: names)
            })
    }
}

import Synchronization

private let builtInCache = Mutex<[String: World]>([:])
