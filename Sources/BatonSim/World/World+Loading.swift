import Baton
import Foundation

extension World {
    /// Reads a world folder: `schema.graphql` (or `schema.graphqls`, or `schema.json`, an
    /// introspection result) and an optional `world.json`
    /// of settings at its top, every other `*.graphqls` file in it or in its subfolders as more
    /// of the schema (type extensions and directives, as Apollo Kotlin keeps them in
    /// `extra.graphqls`), and every other `*.graphql` file as operations (as an app keeps them
    /// by screen or by package), each kind in the order of their paths from the folder. Hidden
    /// folders and files (`.git`, `.build`) and linked folders are passed over.
    ///
    /// - Throws: ``WorldError`` naming the file, line and column of the first problem, before any
    ///   seed runs: a missing schema, syntax, an operation that does not validate, a type the
    ///   server cannot generate, a mutation it cannot interpret, an unknown setting.
    package static func load(directory: String) throws -> World {
        let folder = URL(fileURLWithPath: directory)
        let files: [String]
        do {
            files = try Self.files(in: folder.path)
        } catch {
            throw WorldError(source: directory, line: 1, column: 1, message: "cannot list the world's folder")
        }
        func read(_ file: String) throws -> String {
            let path = folder.appendingPathComponent(file).path
            guard let data = FileManager.default.contents(atPath: path) else {
                throw WorldError(source: path, line: 1, column: 1, message: "cannot read the file")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw WorldError(source: path, line: 1, column: 1, message: "the file is not UTF-8")
            }
            return text
        }
        // SDL, or an introspection result as Apollo's and Relay's tools save it.
        let schemaFiles = files.filter { $0 == "schema.graphql" || $0 == "schema.graphqls" || $0 == "schema.json" }
        guard schemaFiles.count == 1 else {
            let message = schemaFiles.isEmpty
                ? "the world has no schema.graphql, schema.graphqls or schema.json"
                : "the world has " + schemaFiles.joined(separator: " and ") + "; keep one"
            throw WorldError(source: directory, line: 1, column: 1, message: message)
        }
        let schemaPath = folder.appendingPathComponent(schemaFiles[0]).path
        // A subfolder's own `schema.graphqls` is another copy of a schema, not more of this one.
        let extensions = try files.filter { $0.hasSuffix(".graphqls") && $0 != "schema.graphqls" && !$0.hasSuffix("/schema.graphqls") }.map {
            (source: folder.appendingPathComponent($0).path, text: try read($0))
        }
        // `.gql` too: many projects name their documents so (release-drafter's, for one).
        let operationFiles = files.filter {
            ($0.hasSuffix(".graphql") || $0.hasSuffix(".gql")) && !schemaFiles.contains($0) && !$0.hasSuffix("/schema.graphql")
        }
        let operations = try operationFiles.map { (source: folder.appendingPathComponent($0).path, text: try read($0)) }
        let settingsText = files.contains("world.json") ? try read("world.json") : nil
        let settingsSource = folder.appendingPathComponent("world.json").path
        return try assemble(
            name: folder.lastPathComponent, schema: try read(schemaFiles[0]), schemaSource: schemaPath, schemaExtensions: extensions,
            operations: operations,
            addTypename: try settingsText.map { try WorldSettings.addsTypename($0, source: settingsSource) } ?? false,
            settings: { schema, names in
                guard let settingsText else { return WorldSettings() }
                return try WorldSettings.parse(
                    settingsText, source: settingsSource, schema: schema, operationNames: names,
                    readResponse: { path in
                        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
                        return FileManager.default.contents(atPath: url.path).flatMap { String(data: $0, encoding: .utf8) }
                    })
            })
    }

    /// The files under `root`, as paths from it (`screens/Issue.graphql`), sorted by their bytes:
    /// the same order on every machine, whatever order the file system lists them in.
    private static func files(in root: String) throws -> [String] {
        var found: [String] = []
        var folders = [""]
        while let relative = folders.popLast() {
            let path = relative.isEmpty ? root : root + "/" + relative
            for name in try FileManager.default.contentsOfDirectory(atPath: path) where !name.hasPrefix(".") {
                let entry = relative.isEmpty ? name : relative + "/" + name
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: root + "/" + entry, isDirectory: &isFolder) else { continue }
                // A linked folder is not entered: a link back up would never end.
                let isLink = (try? FileManager.default.destinationOfSymbolicLink(atPath: root + "/" + entry)) != nil
                if !isFolder.boolValue { found.append(entry) } else if !isLink { folders.append(entry) }
            }
        }
        return found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Builds a world from text, for users' tests and ours: `operations` are (source, text) pairs,
    /// the source naming the text in error messages.
    ///
    /// - Throws: ``WorldError`` as ``load(directory:)`` does.
    /// `schemaExtensions` are more SDL in texts of their own (type extensions, directives), read
    /// after `schema` as part of it.
    package static func make(
        name: String, schema: String, operations: [(source: String, text: String)], settings: WorldSettings = WorldSettings(),
        schemaSource: String = "schema.graphql", schemaExtensions: [(source: String, text: String)] = []
    ) throws -> World {
        try assemble(
            name: name, schema: schema, schemaSource: schemaSource, schemaExtensions: schemaExtensions, operations: operations,
            addTypename: settings.addTypename,
            settings: { schema, names in
                for name in settings.unansweredOperations where !names.contains(name) {
                    throw WorldError(source: name, line: 1, column: 1, message: "unansweredOperations names \"\(name)\", which is no operation of the world")
                }
                for type in settings.entities.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
                where WorldTypes.idKind(of: type, in: schema) == nil {
                    throw WorldError(source: schemaSource, line: 1, column: 1, message: "the settings give a count for \"\(type)\", which is not an object type with an id")
                }
                return settings
            })
    }

    /// Parses, validates and interprets everything, then builds the world. With `addTypename`
    /// every operation file first gets `__typename` in each selection set (``TypenameInsertion``),
    /// and a problem found in it is placed where the user's file has it.
    static func assemble(
        name: String, schema text: String, schemaSource: String, schemaExtensions: [(source: String, text: String)],
        operations texts: [(source: String, text: String)], addTypename: Bool, settings: (Schema, [String]) throws -> WorldSettings
    ) throws -> World {
        let schema = try parseSchema(text, source: schemaSource, extensions: schemaExtensions)
        guard addTypename else { return try assemble(name: name, schema: schema, operations: texts, settings: settings) }
        var insertions: [String: TypenameInsertion] = [:]
        let added = texts.map { source, text in
            let insertion = TypenameInsertion(text)
            insertions[source] = insertion
            return (source: source, text: insertion.text)
        }
        do {
            return try assemble(name: name, schema: schema, operations: added, settings: settings)
        } catch let error as WorldError {
            guard let insertion = insertions[error.source] else { throw error }
            throw WorldError(error.message, source: error.source, at: insertion.original(GraphQLLocation(line: error.line, column: error.column)))
        }
    }

    private static func assemble(
        name: String, schema: Schema, operations texts: [(source: String, text: String)],
        settings: (Schema, [String]) throws -> WorldSettings
    ) throws -> World {
        var documents: [(source: String, text: String, document: Document)] = []
        for (source, text) in texts {
            do {
                documents.append((source, text, try Document.parse(text)))
            } catch let error as GraphQLError {
                throw WorldError(error, source: source)
            }
        }
        // An operation may spread a fragment another file defines, as an app's code generator
        // reads its folder.
        let shared = try SharedFragments(documents)
        var operations: [WorldOperation] = []
        var names: [String: WorldOperation] = [:]
        var spread: Set<String> = []
        for (file, (source, text, document)) in documents.enumerated() {
            for syntax in document.operations {
                guard let operationName = syntax.name else {
                    throw WorldError("every operation of a world needs a name", source: source, at: syntax.location)
                }
                if let earlier = names[operationName] {
                    throw WorldError(
                        "operation \"\(operationName)\" is defined twice (first in \(earlier.source):\(earlier.syntax.location))",
                        source: source, at: syntax.location)
                }
                let resolved = try shared.resolve(syntax, file: file, source: source, text: text)
                spread.formUnion(resolved.spread)
                var validator = OperationValidator(
                    schema: schema, operation: syntax, fragments: resolved.fragments, source: source,
                    fragmentSources: resolved.sources)
                try validator.validate()
                try TypenameCheck(schema: schema, fragments: resolved.fragments, source: source, fragmentSources: resolved.sources)
                    .check(syntax)
                let operation = WorldOperation(
                    name: operationName, kind: syntax.kind, syntax: syntax, fragments: resolved.fragments,
                    documentText: resolved.documentText, source: source)
                names[operationName] = operation
                operations.append(operation)
            }
        }
        // A fragment no operation spreads is still compiled by an app's code generator: a typo
        // in it is refused here too (found trying Apollo's sample apps, 2026-12-07: an unused
        // fragment selecting a field the schema lacks loaded without a word).
        for (file, (source, _, _)) in documents.enumerated() {
            for name in shared.fragmentNames(inFile: file) where !spread.contains(name) {
                let resolved = try shared.resolveFragment(name, file: file, source: source)
                var validator = OperationValidator(
                    schema: schema, operation: nil, fragments: resolved.fragments, source: source, fragmentSources: resolved.sources)
                try validator.validateUnspread(name)
            }
        }
        let settings = try settings(schema, operations.map(\.name))
        // A mutation the server cannot interpret is refused unless the settings keep it out of
        // the schedule.
        for operation in operations where !settings.unansweredOperations.contains(operation.name) {
            _ = try MutationEdit.interpret(operation, schema: schema)
        }
        // A recorded response's variables are checked here, where the operations' declarations
        // are known: a value the store would refuse is the settings' mistake, not the store's.
        for recorded in settings.recorded {
            let place = recorded.listed ?? (recorded.source, GraphQLLocation(line: 1, column: 1))
            guard let operation = names[recorded.operation] else {
                throw WorldError("the world has no operation \"\(recorded.operation)\" for the recorded response \(recorded.source)", source: place.source, at: place.location)
            }
            if let problem = recorded.variablesProblem(declared: operation.syntax.variables, schema: schema) {
                throw WorldError("the variables of the recorded response \(recorded.source): " + problem, source: place.source, at: place.location)
            }
        }
        return World(name: name, schema: schema, operations: operations, settings: settings)
    }

    /// Throws unless seeds can run in the world: the store's own plan builder must accept every
    /// operation, and the schedule, which draws its responses, checks and retains from the
    /// queries the server answers, needs one (a world without may still be loaded, to replay a
    /// file or to test the server's mutations).
    package func requireRunnable() throws {
        _ = try WorldPlans(world: self)
        guard !operations.contains(where: { $0.kind == .query && !settings.unansweredOperations.contains($0.name) }) else { return }
        let message = operations.isEmpty
            ? "the world has no operations (*.graphql or *.gql files beside the schema, or in folders under it)"
            : "the world has no query the server answers (\(operations.count) operation\(operations.count == 1 ? "" : "s"), none a query outside unansweredOperations): seeds draw their responses, checks and retains from queries, so add one"
        throw WorldError(source: operations.first?.source ?? name, line: 1, column: 1, message: message)
    }
}
