import Baton
import BatonSim
import CSQLite
import Foundation

/// Baton's benchmarks: each figure beside a floor measured in the same run.
///
/// Run in release: `swift run -c release BatonBenchmarks [--iterations N] [--response FILE --schema SDL --document GRAPHQL --variables JSON]`.
/// `--skip-slow` leaves out collection and the simulator; `--profile-hydration N` and
/// `--profile-check N` loop one measurement N times for a profiler (`perf record`).
@MainActor
struct Benchmarks {
    var iterations = 30
    var rows: [Row] = []
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-bench-\(getpid())").path

    mutating func run() throws {
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let input = try BenchInput.load(CommandLine.arguments)
        print("input: \(input.label), \(input.response.count) bytes; \(iterations) iterations; release build: \(!Mutants.available)")

        // Ingest against Foundation's parser of the same bytes.
        let parse = try measure(iterations: iterations) { _ = try JSONSerialization.jsonObject(with: Data(input.response)) }
        var changeSet: ChangeSet?
        let ingest = try measure(iterations: iterations) { changeSet = try Ingest.normalize(plan: input.plan, variables: input.variables, response: input.response) }
        let records = changeSet!.records.count
        rows.append(Row(name: "ingest: response → change set (\(records) records)", samples: ingest, floor: ("JSONSerialization parse", parse)))

        // Commit into an empty store, without and with an image behind it.
        let commit = measure(iterations: iterations) {
            let store = Store(configuration: .init(collectsAutomatically: false))
            store.commit(changeSet!)
        }
        let copy = measure(iterations: iterations) {
            var dictionary: [RecordKey: RecordChange] = [:]
            for change in changeSet!.records { dictionary[change.key] = change }
            _ = dictionary.count
        }
        rows.append(Row(name: "commit into an empty store", samples: commit, floor: ("a dictionary of the change set's records", copy)))
        // The main actor's share of keeping an image: the same commit with an open image behind it
        // (snapshots built and queued; the writer drains outside the timing).
        let queuedPath = directory + "/queued.image"
        let queued = try Image.open(path: queuedPath, appVersion: "bench", configuration: ImageConfiguration(executor: ManualWriterExecutor()))
        var commitWithImage: [Double] = []
        var kept: [Store] = []
        for round in 0...iterations {
            let store = Store(image: queued, configuration: .init(collectsAutomatically: false))
            let start = DispatchTime.now().uptimeNanoseconds
            store.commit(changeSet!)
            if round > 0 { commitWithImage.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000) }
            kept.append(store)
            _ = queued.writer.drain()
        }
        kept.removeAll()
        queued.close()
        rows.append(Row(name: "commit with an image behind it (snapshots queued)", samples: commitWithImage.sorted(), floor: ("commit alone", commit)))

        // The writer: one drain of every snapshot, against raw SQLite inserting the same rows.
        let imagePath = directory + "/bench.image"
        var drains: [Double] = []
        for round in 0...iterations {
            let path = directory + "/drain-\(round).image"
            let image = try Image.open(path: path, appVersion: "bench", configuration: ImageConfiguration(executor: ManualWriterExecutor()))
            let store = Store(image: image, configuration: .init(collectsAutomatically: false))
            store.commit(changeSet!)
            let start = DispatchTime.now().uptimeNanoseconds
            _ = image.writer.drain()
            if round > 0 { drains.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000) }
            image.close()
            try? FileManager.default.removeItem(atPath: path)
        }
        do {
            let image = try Image.open(path: imagePath, appVersion: "bench", configuration: ImageConfiguration(executor: ManualWriterExecutor()))
            let store = Store(image: image, configuration: .init(collectsAutomatically: false))
            store.commit(changeSet!)
            image.close()
        }
        let rawRows = try RawSQLite.rows(of: imagePath)
        let rawWrite = try RawSQLite.writeSamples(rawRows, path: directory + "/raw.db", iterations: iterations)
        rows.append(Row(name: "writer: drain \(rawRows.count) snapshots in one transaction", samples: drains.sorted(), floor: ("raw SQLite insert of the same rows", rawWrite)))

        // Hydration: the check reads every row into an empty store, against raw SQLite reading them.
        let keys = rawRows.map(\.key)
        let rawRead = try RawSQLite.readSamples(imagePath, keys: keys, iterations: iterations)
        let image = try Image.open(path: imagePath, appVersion: "bench", configuration: ImageConfiguration(executor: ManualWriterExecutor()))
        var answer = Availability.missing
        var hydrate: [Double] = []
        for round in 0...iterations {
            let store = Store(image: image, configuration: .init(collectsAutomatically: false))
            let start = DispatchTime.now().uptimeNanoseconds
            answer = store.check(input.plan, variables: input.variables)
            if round > 0 { hydrate.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000) }
            kept.append(store)
        }
        kept.removeAll()
        hydrate.sort()
        guard answer.isAvailable else { throw BenchError("the hydrating check answered \(answer)") }
        rows.append(Row(name: "check: hydrate \(keys.count) rows into an empty store", samples: hydrate, floor: ("raw SQLite select of the same rows by key", rawRead)))
        if let index = CommandLine.arguments.firstIndex(of: "--profile-hydration"), index + 1 < CommandLine.arguments.count, let rounds = Int(CommandLine.arguments[index + 1]) {
            var samples: [Double] = []
            var alive: [Store] = []
            for _ in 0..<rounds {
                let store = Store(image: image, configuration: .init(collectsAutomatically: false))
                let start = DispatchTime.now().uptimeNanoseconds
                _ = store.check(input.plan, variables: input.variables)
                samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
                alive.append(store)
                if alive.count > 20 { alive.removeAll() }
            }
            samples.sort()
            print(String(format: "hydration: best %.3f ms, median %.3f ms over %d rounds", samples[0], samples[samples.count / 2], rounds))
            return
        }
        let warm = Store(image: image, configuration: .init(collectsAutomatically: false))
        _ = warm.check(input.plan, variables: input.variables)
        if let index = CommandLine.arguments.firstIndex(of: "--profile-check"), index + 1 < CommandLine.arguments.count, let rounds = Int(CommandLine.arguments[index + 1]) {
            let samples = measure(iterations: rounds) { _ = warm.check(input.plan, variables: input.variables) }
            print(String(format: "check in memory: best %.3f ms, median %.3f ms over %d rounds", samples[0], samples[samples.count / 2], rounds))
            return
        }
        let inMemory = measure(iterations: iterations) { _ = warm.check(input.plan, variables: input.variables) }
        rows.append(Row(name: "check: the same operation with the records in memory", samples: inMemory, floor: ("hydration", hydrate)))
        let readBack = measure(iterations: iterations) { _ = warm.read(input.plan, variables: input.variables) }
        rows.append(Row(name: "read back the operation as JSON from memory", samples: readBack, floor: ("check in memory", inMemory)))
        image.close()

        // Launch: open the image off the main actor's path, then the first check.
        var launch: [Double] = []
        for round in 0...iterations {
            let start = DispatchTime.now().uptimeNanoseconds
            let image = try Image.open(path: imagePath, appVersion: "bench", configuration: ImageConfiguration(executor: ManualWriterExecutor()))
            let store = Store(image: image, configuration: .init(collectsAutomatically: false))
            _ = store.check(input.plan, variables: input.variables)
            if round > 0 { launch.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000) }
            kept.append(store)
            image.close()
        }
        kept.removeAll()
        launch.sort()
        rows.append(Row(name: "launch: open the image, then the first check", samples: launch, floor: ("hydration alone", hydrate)))

        if CommandLine.arguments.contains("--skip-slow") {
            for row in rows { print(row.render()) }
            return
        }
        try collection()
        simulator()
        print("")
        for row in rows { print(row.render()) }
    }

    /// Collection over about 9,000 records marked from 10 roots, sweeping about 900.
    mutating func collection() throws {
        let schema = try Schema.parse(CharacterPageFixture.schema)
        let plan = try Plan.build(document: CharacterPageFixture.document, schema: schema)
        var changeSets: [(Variables, ChangeSet)] = []
        for page in 1...10 {
            let variables = try plan.variables(["page": .int(page)])
            let bytes = Array(CharacterPageFixture.response(page: page, disjoint: true).utf8)
            changeSets.append((variables, try Ingest.normalize(plan: plan, variables: variables, response: bytes)))
        }
        var recordsBefore = 0
        var swept = 0
        var samples: [Double] = []
        for _ in 0...max(5, iterations / 3) {
            let store = Store(configuration: .init(releaseBufferSize: 0, collectsAutomatically: false))
            var tokens: [RetainToken] = []
            for (variables, changeSet) in changeSets {
                store.commit(changeSet)
                tokens.append(store.retain(plan, variables: variables))
            }
            store.release(tokens[4])
            recordsBefore = store.keys.count
            let start = DispatchTime.now().uptimeNanoseconds
            swept = store.collect().swept
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
        }
        samples.removeFirst()
        rows.append(Row(name: "collection: \(recordsBefore) records, 10 roots, \(swept) swept", samples: samples.sorted(), floor: nil))
    }

    /// The simulator's own speed.
    mutating func simulator() {
        let seeds: UInt64 = 40
        var events = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for seed in 0..<seeds { events += Simulation.run(seed: seed, options: .init(events: 200)).eventsRun }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        print(String(format: "simulator: %d seeds, %d events in %.2f s: %.1f seeds/s, %.0f events/s (one core)", seeds, events, seconds, Double(seeds) / seconds, Double(events) / seconds))
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

var benchmarks = Benchmarks()
if let index = CommandLine.arguments.firstIndex(of: "--iterations"), index + 1 < CommandLine.arguments.count, let n = Int(CommandLine.arguments[index + 1]) {
    benchmarks.iterations = n
}
do {
    try benchmarks.run()
} catch {
    FileHandle.standardError.write(Data("benchmarks: \(error)\n".utf8))
    exit(1)
}
