import Baton
import BatonSim
import Foundation

/// The suite: sections that each add comparisons, figures or scaling points to one report.
@MainActor
final class Benchmarks {
    nonisolated static let sections = ["ingest", "commit", "writer", "checks", "simulator", "scaling"]
    nonisolated static let profiles = ["ingest", "commit", "commit-image", "drain", "hydration", "hydration-cold", "hydration-1k", "hydration-10k", "check", "read-back", "collection", "collection-500k", "collection-first"]

    let options: Options
    var report = Report()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-bench-\(getpid())").path
    /// Stores kept alive until their loop ends, so that no timing pays a store's creation or deinit.
    var kept: [Store] = []

    init(options: Options) {
        self.options = options
    }

    var repetitions: Int { options.iterations }

    /// A store as the benchmarks use it: no automatic collection.
    static func store(image: (any StoreImage)? = nil) -> Store {
        Store(image: image, configuration: .init(collectsAutomatically: false))
    }

    /// An image whose writer drains only when told.
    static func openImage(_ path: String) throws -> Image {
        try Image.open(path: path, appVersion: "bench", configuration: ImageConfiguration(executor: ManualWriterExecutor()))
    }

    static func removeImage(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-walcopy"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// A fresh copy of the image at `source` (and its WAL, when it has one) at `target`.
    static func copyImage(_ source: String, to target: String) throws {
        removeImage(target)
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: source + suffix) {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: target + suffix)
        }
    }

    func run() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        report.command = (["BatonBenchmarks"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
        report.machine = MachineInfo.describe()
        report.loadBefore = MachineInfo.load()
        report.repetitions = repetitions
        let input = try BenchInput.load(options)
        report.input = "\(input.label), \(input.response.count) bytes"
        print("input: \(report.input); \(repetitions) repetitions; release build: \(!Mutants.available); load \(report.loadBefore)")

        let changeSet = try Ingest.normalize(plan: input.plan, variables: input.variables, response: input.response)
        let page = try PageImage(input: input, changeSet: changeSet, directory: directory)
        if let profile = options.profile {
            try self.profile(profile.name, rounds: profile.rounds, input: input, changeSet: changeSet, page: page)
            return
        }
        func runs(_ section: String) -> Bool { options.only.isEmpty || options.only.contains(section) }
        if runs("ingest") { try ingest(input) }
        if runs("commit") { try commits(changeSet) }
        if runs("writer") { try writer(changeSet, page: page) }
        if runs("checks") { try checks(input, page: page) }
        figures(input, page: page)
        if !options.skipSlow {
            if runs("simulator") { try simulator() }
            if runs("scaling") { try scaling(input) }
        }
        report.loadAfter = MachineInfo.load()
        print("")
        print(report.render())
        if let path = options.jsonPath {
            try report.json().write(to: URL(fileURLWithPath: path))
            print("JSON written to \(path)")
        }
    }

    /// Adds a comparison and prints it at once (a long run shows its progress).
    func add(_ comparison: Comparison) {
        report.comparisons.append(comparison)
        var line = "\(comparison.name): \(Report.ms(comparison.measure.min)) / \(Report.ms(comparison.measure.median)) ms"
        if let floor = comparison.floor, let ratio = comparison.ratioMin {
            line += " against \(comparison.floorName) \(Report.ms(floor.min)) / \(Report.ms(floor.median)) ms: \(Report.ratio(ratio))"
            if let paired = comparison.ratioPaired { line += " (paired \(Report.ratio(paired)))" }
        }
        print(line)
    }
}

/// The input's image, written once: the file the checks read, a copy for cold opens, the rows a
/// drain wrote (the writer's floor), and the reads the check makes, in its order.
@MainActor
struct PageImage {
    let path: String
    let coldPath: String
    /// The image as a killed process leaves it: the files copied while the process held them,
    /// its drain still in the WAL (no checkpoint at close).
    let killedPath: String
    let contents: RawSQLite.Contents
    let reads: [RawSQLite.Read]
    let fileBytes: Int

    var recordReads: Int { reads.filter { $0.table == "records" }.count }

    init(input: BenchInput, changeSet: ChangeSet, directory: String) throws {
        path = directory + "/page.image"
        coldPath = directory + "/cold.image"
        killedPath = directory + "/killed.image"
        do {
            let image = try Benchmarks.openImage(path)
            Benchmarks.store(image: image).commit(changeSet)
            guard image.drainNow() else { throw BenchError("the drain did not commit") }
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
                try FileManager.default.copyItem(atPath: path + suffix, toPath: killedPath + suffix)
            }
            image.close()
        }
        contents = try RawSQLite.contents(of: path)
        fileBytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        do {
            let image = try Benchmarks.openImage(path)
            let recorder = WalkRecorder(image)
            let answer = Benchmarks.store(image: recorder).check(input.plan, variables: input.variables)
            guard answer.isAvailable else { throw BenchError("the hydrating check answered \(answer)") }
            reads = recorder.reads
            image.close()
        }
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: coldPath + suffix)
        }
    }
}
