import Baton
import BatonSim
import Dispatch
import Foundation
import Synchronization

/// `baton image write | read | dump | stats`: the image from the command line.
@MainActor
enum ImageCommand {
    /// The application version the CLI writes images as (an image of another version is wiped).
    static let appVersion = "baton-cli-1"

    static func run(_ words: [String]) throws -> Int32 {
        guard let verb = words.first else { throw CLIError.usage("baton image write|read|dump|stats|sweep|race") }
        let rest = Array(words.dropFirst())
        switch verb {
        case "write": return try write(rest)
        case "read": return try read(rest)
        case "dump": return try dump(rest)
        case "stats": return try stats(rest)
        case "race": return try race(rest)
        case "sweep": return try sweep(rest)
        default: throw CLIError.usage("unknown image command \(verb)")
        }
    }

    /// How long `write` and `read` wait for another process that has the image open.
    static let otherProcessWaitMilliseconds = 30_000

    /// Opens the image as the app would, except that it waits longer for another process and
    /// never deletes a file it was pointed at by mistake: a database that is not an image, and a
    /// file that is not a SQLite database at all, are left untouched and are an error here. A
    /// damaged image of ours, or one in a row format this build does not read, is deleted and
    /// started again as the app would, when `startsDamagedAgain` (`write`); `read` refuses it.
    private static func open(_ path: String, startsDamagedAgain: Bool) throws -> Image {
        try refuseFolder(path)
        let reason: ImageDiscardReason?
        do {
            reason = try Image.discardReason(path: path)
        } catch {
            throw CLIError.failed("\(path): \(error)")
        }
        switch reason {
        case .notADatabase?:
            throw CLIError.failed("\(path) is not a SQLite database, so not an image: left untouched (an image whose first page was overwritten looks the same: delete it to start again)")
        case let reason? where !startsDamagedAgain:
            throw CLIError.failed("\(path) is \(describe(reason)): the app would delete it and start again; left untouched (`baton image write` starts it again)")
        default:
            break
        }
        let image: Image
        do {
            image = try Image.open(
                path: path, appVersion: appVersion,
                configuration: ImageConfiguration(lockWaitMilliseconds: otherProcessWaitMilliseconds))
        } catch {
            throw CLIError.failed("\(path): \(error)")
        }
        if image.opening == .foreign {
            image.close()
            throw CLIError.failed(foreignMessage(path))
        }
        if case .recreated(let reason) = image.opening {
            printError("note: \(path) was \(describe(reason)): deleted and started again, as the app would")
        }
        return image
    }

    /// What a file the open would delete is, in words.
    private static func describe(_ reason: ImageDiscardReason) -> String {
        switch reason {
        case .notADatabase: "not a SQLite database"
        case .corrupt: "a damaged image"
        case .otherRowFormat: "an image in \(reason)"
        }
    }

    private static func foreignMessage(_ path: String) -> String {
        "\(path) is a SQLite database that is not an image: left untouched"
    }

    private static func write(_ words: [String]) throws -> Int32 {
        var arguments = try Arguments(words, flagNames: [])
        let path = try arguments.required("image")
        let input = try OperationInput(&arguments)
        let responsePath = try arguments.required("response")
        try arguments.finish()
        let changeSet = try input.changeSet(responsePath: responsePath)
        let image = try open(path, startsDamagedAgain: true)
        let store = Store(image: image, configuration: .init(collectsAutomatically: false))
        // An app's screen checks before its response lands, so memory holds what the image does
        // for the operation; without that, a page `after` the end cursor the image holds would
        // find no connection to join and be dropped.
        _ = store.check(input.plan, variables: input.variables)
        PagesNotJoined.report(store.commit(changeSet))
        UnplacedErrors.report(changeSet.unplacedErrors)
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
        let image = try open(path, startsDamagedAgain: false)
        defer { image.close() }
        let store = Store(image: image, configuration: .init(collectsAutomatically: false))
        let answer = store.check(input.plan, variables: input.variables)
        guard case .available(let freshness, let fetchTime, let source) = answer else {
            printError("missing: the image does not hold everything \(input.plan.name ?? "the operation") selects")
            return 2
        }
        print(prettyJSON(store.read(input.plan, variables: input.variables).response))
        printError("available (\(freshness), from \(source)\(fetchTime.map { ", fetched at \($0)" } ?? ""))")
        return 0
    }

    /// An image is a plain file: a folder or a device at its path (`/dev/null`, which SQLite
    /// would take for an empty database and try to write) is named as such rather than left to
    /// SQLite. A path with nothing at it passes (`image write` makes the file).
    private static func refuseFolder(_ path: String) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return }
        if isFolder.boolValue { throw CLIError.failed("\(path): it is a folder, not an image file") }
        // The type of what the path names, links followed.
        let resolved = (path as NSString).resolvingSymlinksInPath
        let type = (try? FileManager.default.attributesOfItem(atPath: resolved))?[.type] as? FileAttributeType
        if let type, type != .typeRegular {
            throw CLIError.failed("\(path): it is \(Self.kind(of: type)), not an image file")
        }
    }

    private static func kind(of type: FileAttributeType) -> String {
        switch type {
        case .typeCharacterSpecial, .typeBlockSpecial: "a device"
        case .typeSocket: "a socket"
        default: "not a plain file"
        }
    }

    private static func inspect(_ words: [String]) throws -> Image {
        var arguments = try Arguments(words, flagNames: [])
        let path = try arguments.required("image")
        try arguments.finish()
        guard FileManager.default.fileExists(atPath: path) else { throw CLIError.failed("\(path): no such file") }
        try refuseFolder(path)
        do {
            let image = try Image.inspect(path: path)
            // Inspection writes nothing, so it cannot put a checkpoint's copy back: say so.
            if FileManager.default.fileExists(atPath: path + CheckpointCopy.suffix) {
                printError("note: \(path)\(CheckpointCopy.suffix) is beside the image: an open died inside its checkpoint, and the next open writes that copy back over the WAL; until then this shows the file as the crash left it")
            }
            if EraseMark.isBeside(path: path) {
                printError("note: \(path)\(EraseMark.suffix) is beside the image: the store was erased and its process ended before the erase reached the file; the next open erases every row shown here")
            }
            return image
        } catch .notAnImage(path: _, let reason) {
            throw CLIError.failed(ImageError.notAnImage(path: path, reason).description)
        } catch {
            throw CLIError.failed("\(path): \(error)")
        }
    }

    /// Prints every row that reads (the records in `normalize`'s shape); exit 3, with one line
    /// naming them, when rows fail their checks or SQLite cannot read part of a table.
    private static func dump(_ words: [String]) throws -> Int32 {
        let image = try inspect(words)
        defer { image.close() }
        if image.opening == .foreign { throw CLIError.failed(foreignMessage(image.path)) }
        guard let dump = image.dump() else { throw CLIError.failed("\(image.path): cannot be read") }
        var records: [(RecordKey, RecordData)] = []
        for row in dump.records {
            switch row.record {
            case .deleted(let typename)?:
                records.append((row.key, RecordData(typename: typename, deleted: true)))
            case .present(let typename, let cells)?:
                var data = RecordData(typename: typename)
                for named in cells { data.cells[SlotID.named(named.storageKey)] = named.cell }
                records.append((row.key, data))
            case nil:
                break
            }
        }
        let rootRows = dump.rootFields.filter { $0.cell != nil }
        if !rootRows.isEmpty {
            var root = RecordData(typename: "Query")
            for row in rootRows { root.cells[SlotID.named(row.field)] = row.cell }
            records.append((.queryRoot, root))
        }
        print(RecordSourcePrinter.render(records), terminator: "")
        let damaged = dump.damaged.map { (table: $0.table, count: $0.keys.count, keys: Optional($0.keys)) }
        return reportDamage(image.path, damaged: damaged, unreadable: dump.unreadable)
    }

    private static func stats(_ words: [String]) throws -> Int32 {
        let image = try inspect(words)
        defer { image.close() }
        if image.opening == .foreign { throw CLIError.failed(foreignMessage(image.path)) }
        guard let stats = image.stats() else { throw CLIError.failed("\(image.path): cannot be read") }
        print("generation \(stats.generation)")
        print("records \(stats.records) (\(stats.deletedRecords) deleted, \(stats.damagedRecords) damaged)")
        print("root fields \(stats.rootFields) (\(stats.damagedRootFields) damaged), fetch times \(stats.fetches) (\(stats.damagedFetches) damaged), names \(stats.names) (\(stats.damagedNames) damaged)")
        print("file \(stats.fileBytes) bytes (\(stats.pageCount) pages of \(stats.pageSize))" + (stats.walBytes.map { ", WAL \($0) bytes" } ?? ""))
        print("records by the launch that last used them:")
        for entry in stats.usedHistogram {
            print("  launch \(entry.used): \(entry.records)")
        }
        let damaged = [
            ("records", stats.damagedRecords), ("root fields", stats.damagedRootFields),
            ("fetch times", stats.damagedFetches), ("names", stats.damagedNames),
        ].filter { $0.1 > 0 }.map { (table: $0.0, count: $0.1, keys: [String]?.none) }
        return reportDamage(image.path, damaged: damaged, unreadable: stats.unreadable)
    }

    /// Exit 0 for a sound image; else one line on stderr naming the rows that fail their checks
    /// (which the check misses) and the stretches SQLite cannot read, and exit 3.
    private static func reportDamage(
        _ path: String, damaged: [(table: String, count: Int, keys: [String]?)], unreadable: [ImageUnreadableRange]
    ) -> Int32 {
        guard !damaged.isEmpty || !unreadable.isEmpty else { return 0 }
        var parts: [String] = []
        let count = damaged.reduce(0) { $0 + $1.count }
        if count > 0 {
            let tables = damaged.map { entry in
                guard let keys = entry.keys else { return "\(entry.count) \(entry.table)" }
                return entry.table + " " + keys.prefix(10).joined(separator: ", ")
                    + (keys.count > 10 ? " and \(keys.count - 10) more" : "")
            }
            parts.append("\(count) rows fail their checks (\(tables.joined(separator: "; ")))")
        }
        if !unreadable.isEmpty {
            parts.append("SQLite cannot read " + unreadable.map(\.description).joined(separator: "; "))
        }
        printError("\(path): " + parts.joined(separator: ", and ") + "; the check misses them")
        return 3
    }

    // MARK: Reliability runs

    /// `baton image race --pairs N [--directory DIR] [--baton PATH]`: pairs of `baton image write`
    /// processes (this executable, or the one at PATH) started together on one image; exit 1
    /// when any pair failed, lost or aged out a write.
    private static func race(_ words: [String]) throws -> Int32 {
        var arguments = try Arguments(words, flagNames: [])
        let pairs = try arguments.integer("pairs") ?? 200
        let directory = arguments.option("directory")
        let baton = arguments.option("baton")
        try arguments.finish()
        guard pairs > 0 else { throw CLIError.usage("--pairs takes a positive number") }
        guard let executable = baton.map({ URL(fileURLWithPath: $0) }) ?? Bundle.main.executableURL else {
            throw CLIError.failed("cannot find the baton executable to run; name it with --baton")
        }
        let base = try directory ?? temporaryDirectory("baton-race")
        let started = Date()
        let outcome = ImageWriterRace.run(executable: executable, directory: base, pairs: pairs) { done in
            if done % 20 == 0 || done == pairs { printError("race: \(done)/\(pairs) pairs") }
        }
        let seconds = Date().timeIntervalSince(started)
        for failure in outcome.failures.prefix(20) { print("FAILED \(failure)") }
        print("pairs \(outcome.pairs) (\(outcome.onExistingFiles) on existing files), clean \(outcome.clean), failed \(outcome.failures.count), \(String(format: "%.1f", seconds)) s")
        if outcome.failures.isEmpty, directory == nil { try? FileManager.default.removeItem(atPath: base) }
        return outcome.failures.isEmpty ? 0 : 1
    }

    /// A new directory under the system's temporary directory.
    private static func temporaryDirectory(_ prefix: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(getpid())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// `baton image sweep --damages N [--seed S] [--first I] [--trace] [--directory DIR]`: damages
    /// copies of real-shaped images and checks every answer, dump and later write against the
    /// undamaged truth; exit 1 on any wrong answer, and 4 when one damage takes over a minute.
    /// `--header` instead damages every byte of SQLite's header in turn (every bit, zeros, ones).
    private static func sweep(_ words: [String]) throws -> Int32 {
        var arguments = try Arguments(words, flagNames: ["trace", "header"])
        let damages = try arguments.integer("damages") ?? 10_000
        let seed = try arguments.integer("seed") ?? 1
        let first = try arguments.integer("first") ?? 0
        let trace = arguments.flag("trace")
        let header = arguments.flag("header")
        let directory = arguments.option("directory")
        try arguments.finish()
        guard damages > 0, first >= 0, seed >= 0 else { throw CLIError.usage("--damages, --first and --seed take whole numbers") }
        let base = try directory ?? temporaryDirectory("baton-sweep")
        let watchdog = Watchdog(limitSeconds: 60)
        let started = Date()
        let each = { (index: Int, description: String) in
            watchdog.started("damage \(index) (\(description))")
            if trace { printError("damage \(index): \(description)") }
            let done = index - first
            if !header, done > 0, done % 500 == 0 { printError("sweep: \(done)/\(damages) damages") }
        }
        let shapes = sweepShapes(seed: UInt64(seed))
        let outcome = header
            ? try ImageDamageSweep.runHeader(shapes: shapes, directory: base, each: each)
            : try ImageDamageSweep.run(seed: UInt64(seed), first: first, count: damages, shapes: shapes, directory: base, each: each)
        watchdog.stop()
        let seconds = Date().timeIntervalSince(started)
        for failure in outcome.failures.prefix(20) { print("WRONG \(failure)") }
        let range = header ? "every header byte" : "seed \(seed), \(first)..<\(first + damages)"
        print("damages \(outcome.damages) (\(range)), \(String(format: "%.1f", seconds)) s")
        print("kinds: " + outcome.kinds.keys.sorted().map { "\($0) \(outcome.kinds[$0]!)" }.joined(separator: ", "))
        print("opened: " + outcome.openings.keys.sorted().map { "\($0) \(outcome.openings[$0]!)" }.joined(separator: ", "))
        print("check answers: \(outcome.answersRight) right, \(outcome.answersMissed) missed")
        print("dumped rows: \(outcome.rowsRight) right, \(outcome.rowsMissed) missing or reported; \(outcome.dumpsReporting) dumps reported damage")
        print("writes after the damage: \(outcome.rewritesRight) read back right, \(outcome.rewritesMissed) missed by the next launch, \(outcome.rewritesRefused) refused (foreign), \(outcome.rewritesFailed) reported failed")
        print("wrong: \(outcome.failures.count)")
        if outcome.failures.isEmpty, directory == nil { try? FileManager.default.removeItem(atPath: base) }
        return outcome.failures.isEmpty ? 0 : 1
    }

    /// The sweep's images: two sizes of the shelf (union, lists, errors, path keys) and two of
    /// the generated character page.
    private static func sweepShapes(seed: UInt64) -> [ImageDamageShape] {
        [
            .shelf(size: 4, seed: seed), .shelf(size: 14, seed: seed &+ 1),
            characterPage(characters: 4, episodes: 6, castSize: 6), characterPage(characters: 20, episodes: 41, castSize: 40),
        ]
    }

    /// Pages of the generated character page, `characters × episodes × castSize` each.
    private static func characterPage(characters: Int, episodes: Int, castSize: Int) -> ImageDamageShape {
        .pages(
            name: "character page (\(characters)×\(episodes)×\(castSize))", schema: CharacterPageFixture.schema,
            document: CharacterPageFixture.document
        ) { page in
            CharacterPageFixture.response(page: page, characters: characters, episodes: episodes, castSize: castSize)
        }
    }
}

/// Ends the process when one step of a long run takes longer than a limit: a hang is a failure
/// with a name, never a run that never ends.
final class Watchdog {
    /// The step running and since when; read by the timer's queue.
    private final class Step: Sendable {
        let current = Mutex<(name: String, since: UInt64, stopped: Bool)>(("", 0, false))
    }

    private let step = Step()
    private let timer: DispatchSourceTimer

    init(limitSeconds: Int) {
        timer = DispatchSource.makeTimerSource(queue: .global())
        let limit = UInt64(limitSeconds) * 1_000_000_000
        timer.setEventHandler { [step] in
            let (name, since, stopped) = step.current.withLock { $0 }
            guard !stopped, since > 0, DispatchTime.now().uptimeNanoseconds - since > limit else { return }
            printError("baton: \(name) has run for over \(limitSeconds) s: a hang")
            exit(4)
        }
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.resume()
    }

    /// A new step starts now.
    func started(_ name: String) {
        step.current.withLock { $0 = (name, DispatchTime.now().uptimeNanoseconds, false) }
    }

    func stop() {
        step.current.withLock { $0.stopped = true }
        timer.cancel()
    }
}
