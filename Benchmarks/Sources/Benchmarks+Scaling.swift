import Baton
import BatonSim
import Foundation

/// How the costs grow: hydration, ingest, collection and the simulator at three sizes each.
extension Benchmarks {
    func scaling(_ input: BenchInput) throws {
        for rows in [100, 1_000, 10_000] { try hydrationScaling(rows: rows) }
        for times in [1, 4, 16] { try ingestScaling(input, times: times) }
        for records in [5_000, 50_000, 500_000] { try collectionScaling(records: records) }
    }

    /// Hydration of a generated graph of `rows` rows against the raw select of the same rows.
    func hydrationScaling(rows: Int) throws {
        let graph = try GraphFixture(records: rows)
        let path = directory + "/graph-\(rows).image"
        do {
            let image = try Self.openImage(path)
            Self.store(image: image).commit(graph.changeSet)
            image.close()
        }
        let image = try Self.openImage(path)
        defer { image.close() }
        let recorder = WalkRecorder(image)
        guard Self.store(image: recorder).check(graph.plan, variables: graph.variables).isAvailable else {
            throw BenchError("the graph's check missed")
        }
        let reader = try RawSQLite.Reader(path: path, reads: recorder.reads)
        var store: Store?
        var answer = Availability.missing
        let samples = try interleave([
            Contender("hydration", prepare: { store = Self.store(image: image) }, finish: { self.kept.append(store!) }) {
                answer = store!.check(graph.plan, variables: graph.variables)
            },
            Contender("raw select") { _ = try reader.run() },
        ], repetitions: repetitions)
        kept.removeAll()
        guard case .available(_, _, .image) = answer else { throw BenchError("hydration of the graph answered \(answer)") }
        let point = ScalingPoint(
            table: "Hydration of a generated graph (items and their owners, one root)", size: graph.recordCount,
            unit: "row", measure: samples[0], floorName: "raw select in walk order", floor: samples[1])
        report.scaling.append(point)
        print("hydration of \(graph.recordCount) rows: \(Report.micro(point.perUnitMin)) µs per row, \(Report.ratio(point.ratioMin ?? 0)) the raw select")
    }

    /// Ingest of the input repeated `times` times against the byte scan of the same bytes.
    func ingestScaling(_ input: BenchInput, times: Int) throws {
        let bytes = try Replicate.response(input.response, times: times)
        var tally = ByteScan.Tally()
        let samples = try interleave([
            Contender("ingest", prepare: { input.plan.forgetShapes() }) {
                _ = try Ingest.normalize(plan: input.plan, variables: input.variables, response: bytes)
            },
            Contender("byte scan") { tally = ByteScan.scan(bytes) },
        ], repetitions: repetitions)
        guard tally.strings > 0 else { throw BenchError("the byte scan found no strings") }
        let point = ScalingPoint(
            table: "Ingest of the input's longest list repeated 1×, 4×, 16× (ids suffixed per copy; keys re-sorted at every size)",
            size: bytes.count / 1024, unit: "KiB", measure: samples[0], floorName: "byte scan", floor: samples[1])
        report.scaling.append(point)
        print("ingest of \(times)× (\(bytes.count / 1024) KiB): \(Report.micro(point.perUnitMin)) µs per KiB, \(Report.ratio(point.ratioMin ?? 0)) the byte scan")
    }

    /// A one-root collection pass over `records` records against an integer-id mark of the graph.
    func collectionScaling(records: Int) throws {
        let graph = try GraphFixture(records: records)
        let integers = graph.integerGraph()
        let store = Self.store()
        store.commit(graph.changeSet)
        let token = store.retain(graph.plan, variables: graph.variables)
        defer { store.release(token) }
        var result: CollectionResult?
        var reached = 0
        let samples = try interleave([
            Contender("collection") { result = store.collect() },
            Contender("integer mark") { reached = integers.mark() },
        ], repetitions: repetitions)
        guard result?.kept == graph.recordCount + 1, reached == graph.recordCount + 1 else {
            throw BenchError("the collection kept \(String(describing: result)), the mark reached \(reached)")
        }
        let point = ScalingPoint(
            table: "One-root collection over a generated graph (a pass that sweeps nothing)", size: graph.recordCount,
            unit: "record", measure: samples[0], floorName: "integer-id mark", floor: samples[1])
        report.scaling.append(point)
        print("collection over \(graph.recordCount) records: \(Report.micro(point.perUnitMin)) µs per record")
    }

    /// Simulator events per CPU-second in this one process, at 50, 200 and 1,000 events per seed;
    /// beside each, the ceiling the store's own work sets: the events per CPU-second of the time
    /// spent inside the store and its image alone, as if the simulator's server, model and checks
    /// cost nothing.
    func simulator() throws {
        for events in [50, 200, 1_000] {
            let seeds = UInt64(max(4, 8_000 / events))
            var run = 0
            var failures = 0
            var storeSeconds = 0.0
            var options = Simulation.Options(events: events)
            options.timesStoreWork = true
            let start = processCPUSeconds()
            for seed in 0..<seeds {
                let outcome = Simulation.run(seed: seed, options: options)
                run += outcome.eventsRun
                storeSeconds += outcome.storeCPUSeconds ?? 0
                if outcome.failure != nil { failures += 1 }
            }
            let seconds = processCPUSeconds() - start
            let figure = Figure(
                name: "simulator, \(events) events per seed (\(seeds) seeds\(failures > 0 ? ", \(failures) failed" : ""))",
                value: Double(run) / seconds, unit: "events per CPU-second", target: events == 200 ? "≥ 20,000" : nil)
            let ceiling = Figure(
                name: "the store's own work in those runs (\(Report.percent(storeSeconds / seconds)) of their CPU time)",
                value: Double(run) / storeSeconds, unit: "events per CPU-second", target: nil)
            report.figures.append(figure)
            report.figures.append(ceiling)
            print("\(figure.name): \(Int(figure.value)) events per CPU-second; \(ceiling.name): \(Int(ceiling.value))")
        }
    }
}
