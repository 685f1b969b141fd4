import Baton
import Foundation

/// `baton image write | read | dump | stats`: the image from the command line.
@MainActor
enum ImageCommand {
    /// The application version the CLI writes images as (an image of another version is wiped).
    static let appVersion = "baton-cli-1"

    static func run(_ words: [String]) throws -> Int32 {
        guard let verb = words.first else { throw CLIError.usage("baton image write|read|dump|stats") }
        let rest = Array(words.dropFirst())
        switch verb {
        case "write": return try write(rest)
        case "read": return try read(rest)
        case "dump": return try dump(rest)
        case "stats": return try stats(rest)
        default: throw CLIError.usage("unknown image command \(verb)")
        }
    }

    private static func open(_ path: String) throws -> Image {
        do {
            return try Image.open(path: path, appVersion: appVersion)
        } catch {
            throw CLIError.failed("\(path): \(error)")
        }
    }

    private static func write(_ words: [String]) throws -> Int32 {
        var arguments = try Arguments(words, flagNames: [])
        let path = try arguments.required("image")
        let input = try OperationInput(&arguments)
        let responsePath = try arguments.required("response")
        try arguments.finish()
        let changeSet = try input.changeSet(responsePath: responsePath)
        let image = try open(path)
        if image.opening == .foreign {
            image.close()
            throw CLIError.failed("\(path) is a SQLite database that is not an image: left untouched")
        }
        let store = Store(image: image, configuration: .init(collectsAutomatically: false))
        store.commit(changeSet)
        image.close()
        if let error = image.writer.lastError {
            throw CLIError.failed("\(path): the writer failed: \(error)")
        }
        printError("wrote \(changeSet.records.count) records to \(path) (generation \(image.generation))")
        return 0
    }

    private static func read(_ words: [String]) throws -> Int32 {
        var arguments = try Arguments(words, flagNames: [])
        let path = try arguments.required("image")
        let input = try OperationInput(&arguments)
        try arguments.finish()
        guard FileManager.default.fileExists(atPath: path) else { throw CLIError.failed("\(path): no such file") }
        let image = try open(path)
        defer { image.close() }
        let store = Store(image: image, configuration: .init(collectsAutomatically: false))
        let answer = store.check(input.plan, variables: input.variables)
        guard case .available(let freshness, let fetchTime, let source) = answer else {
            printError("missing: the image does not hold everything \(input.plan.name ?? "the operation") selects")
            return 2
        }
        print(prettyJSON(.object(["data": store.read(input.plan, variables: input.variables).data])))
        printError("available (\(freshness), from \(source)\(fetchTime.map { ", fetched at \($0)" } ?? ""))")
        return 0
    }

    private static func inspect(_ words: [String]) throws -> Image {
        var arguments = try Arguments(words, flagNames: [])
        let path = try arguments.required("image")
        try arguments.finish()
        guard FileManager.default.fileExists(atPath: path) else { throw CLIError.failed("\(path): no such file") }
        do {
            return try Image.inspect(path: path)
        } catch {
            throw CLIError.failed("\(path): \(error)")
        }
    }

    private static func dump(_ words: [String]) throws -> Int32 {
        let image = try inspect(words)
        defer { image.close() }
        if image.opening == .foreign { throw CLIError.failed("\(image.path) is a SQLite database that is not an image") }
        var records: [(RecordKey, RecordData)] = []
        var damaged: [String] = []
        for row in image.dumpRecords() {
            switch row.record {
            case .deleted(let typename)?:
                records.append((row.key, RecordData(typename: typename, deleted: true)))
            case .present(let typename, let cells)?:
                var data = RecordData(typename: typename)
                for named in cells { data.cells[SlotID.named(named.storageKey)] = named.cell }
                records.append((row.key, data))
            case nil:
                damaged.append(row.key.rawValue)
            }
        }
        let rootRows = image.dumpRootFields()
        if !rootRows.isEmpty {
            var root = RecordData(typename: "Query")
            for row in rootRows {
                if let cell = row.cell { root.cells[SlotID.named(row.field)] = cell } else { damaged.append("client:root." + row.field) }
            }
            records.append((.queryRoot, root))
        }
        print(RecordSourcePrinter.render(records), terminator: "")
        if !damaged.isEmpty { printError("\(damaged.count) rows fail their checksum (a miss for the check): " + damaged.prefix(10).joined(separator: ", ")) }
        return 0
    }

    private static func stats(_ words: [String]) throws -> Int32 {
        let image = try inspect(words)
        defer { image.close() }
        guard let stats = image.stats() else { throw CLIError.failed("\(image.path): not readable as an image") }
        print("generation \(stats.generation)")
        print("records \(stats.records) (\(stats.deletedRecords) deleted, \(stats.damagedRecords) damaged)")
        print("root fields \(stats.rootFields), fetch times \(stats.fetches), names \(stats.names)")
        print("file \(stats.fileBytes) bytes (\(stats.pageCount) pages of \(stats.pageSize))" + (stats.walBytes.map { ", WAL \($0) bytes" } ?? ""))
        print("records by the launch that last used them:")
        for entry in stats.usedHistogram {
            print("  launch \(entry.used): \(entry.records)")
        }
        return 0
    }
}
