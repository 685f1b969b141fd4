import BatonSim
import Foundation

/// The world a simulator command runs in: `--world NAME|DIR` (a built-in world by name, or a
/// folder: schema, operations, optional world.json), or `--schema FILE[,FILE…] --operations
/// FILE[,FILE…]` (with `--add-typename` and `--unanswered NAME[,NAME…]`, a folder's world.json
/// settings) for a quick start; the built-in Rick and Morty world when none is named.
struct WorldOption {
    let world: World
    /// The words that name the same world to a child process (`--jobs`).
    let words: [String]

    /// The default world.
    static let standard = WorldOption(world: .standard, words: [])

    /// The world options that take no value, for a command's ``Arguments``.
    static let flagNames: Set<String> = ["add-typename"]

    /// Reads the world options from `arguments`; a world that cannot be served is an input error
    /// naming the file, line and column, before any seed runs.
    static func parse(_ arguments: inout Arguments) throws -> WorldOption {
        let name = arguments.option("world")
        let schema = arguments.option("schema")
        let operations = arguments.option("operations")
        let addTypename = arguments.flag("add-typename")
        let unanswered = arguments.option("unanswered")
        if addTypename, schema == nil || operations == nil {
            throw CLIError.usage(name == nil
                ? "--add-typename goes with --schema FILE --operations FILE[,FILE…]"
                : "--add-typename goes with --schema and --operations; a world folder says \"addTypename\": true in its world.json")
        }
        if unanswered != nil, schema == nil || operations == nil {
            throw CLIError.usage(name == nil
                ? "--unanswered goes with --schema FILE --operations FILE[,FILE…]"
                : "--unanswered goes with --schema and --operations; a world folder lists \"unansweredOperations\" in its world.json")
        }
        let unansweredNames = unanswered.map { $0.split(separator: ",").map(String.init) } ?? []
        if unanswered != nil, unansweredNames.isEmpty {
            throw CLIError.usage("--unanswered takes one or more operation names, separated by commas")
        }
        switch (name, schema, operations) {
        case (nil, nil, nil):
            return .standard
        case (let name?, nil, nil):
            if let world = World.builtIn(name) { return WorldOption(world: world, words: ["--world", name]) }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: name, isDirectory: &isFolder), isFolder.boolValue else {
                throw CLIError.usage("--world takes a built-in world (\(World.builtInNames.joined(separator: ", "))) or a folder, and \(name) is neither")
            }
            let world = try load { try World.load(directory: name) }
            return WorldOption(world: world, words: ["--world", name])
        case (nil, let schema?, let operations?):
            let files = operations.split(separator: ",").map(String.init)
            guard !files.isEmpty else { throw CLIError.usage("--operations takes one or more files, separated by commas") }
            // The first file is the schema; any others are more of it (type extensions, directives).
            let schemaFiles = schema.split(separator: ",").map(String.init)
            guard let schemaFile = schemaFiles.first else { throw CLIError.usage("--schema takes a file (and any files that extend it, separated by commas)") }
            let schemaText = try readSource(schemaFile)
            let extensions = try schemaFiles.dropFirst().map { (source: $0, text: try readSource($0)) }
            let texts = try files.map { (source: $0, text: try readSource($0)) }
            var settings = WorldSettings()
            settings.addTypename = addTypename
            settings.unansweredOperations = unansweredNames
            let world = try load {
                try World.make(name: ((schemaFile as NSString).deletingLastPathComponent as NSString).lastPathComponent.nonEmpty ?? "app",
                               schema: schemaText, operations: texts, settings: settings,
                               schemaSource: schemaFile, schemaExtensions: extensions)
            }
            return WorldOption(
                world: world,
                words: ["--schema", schema, "--operations", operations] + (addTypename ? ["--add-typename"] : [])
                    + (unanswered.map { ["--unanswered", $0] } ?? []))
        case (nil, _?, nil):
            throw CLIError.usage("--schema needs --operations FILE[,FILE…] (the app's operations)")
        case (nil, nil, _?):
            throw CLIError.usage("--operations needs --schema FILE (the app's schema)")
        default:
            throw CLIError.usage("name the world either with --world or with --schema and --operations, not both")
        }
    }

    /// A world, checked as far as the store's own plan builder too.
    private static func load(_ body: () throws -> World) throws -> World {
        do {
            let world = try body()
            try world.requireRunnable()
            return world
        } catch let error as WorldError {
            throw CLIError.input("\(error)")
        }
    }
}

private extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
