import Baton
import Foundation

/// `--profile NAME ROUNDS`: one measure looped for a profiler (`perf record`, callgrind).
extension Benchmarks {
    func profile(_ name: String, rounds: Int, input: BenchInput, changeSet: ChangeSet, page: PageImage) throws {
        /// Keeps at most a few stores alive, as a long loop must not hold them all.
        func keep(_ store: Store) {
            kept.append(store)
            if kept.count > 20 { kept.removeAll() }
        }
        switch name {
        case "ingest":
            // Shapes built anew each round, as the ingest the target's row times.
            try profileLoop(name, rounds: rounds) {
                input.plan.forgetShapes()
                _ = try Ingest.normalize(plan: input.plan, variables: input.variables, response: input.response)
            }
        case "commit":
            try profileLoop(name, rounds: rounds) {
                let store = Self.store()
                store.commit(changeSet)
                keep(store)
            }
        case "commit-image":
            let image = try Self.openImage(directory + "/queued.image")
            defer { image.close() }
            try profileLoop(name, rounds: rounds, prepare: { image.writer.drain() }) {
                let store = Self.store(image: image)
                store.commit(changeSet)
                keep(store)
            }
        case "drain":
            let path = directory + "/drain.image"
            var image: Image?
            try profileLoop(name, rounds: rounds, prepare: {
                image?.close()
                Self.removeImage(path)
                image = try Self.openImage(path)
                let store = Self.store(image: image)
                store.commit(changeSet)
                keep(store)
            }) { image!.writer.drain() }
            image?.close()
        case "hydration":
            let image = try Self.openImage(page.path)
            defer { image.close() }
            try profileLoop(name, rounds: rounds) {
                let store = Self.store(image: image)
                _ = store.check(input.plan, variables: input.variables)
                keep(store)
            }
        case "hydration-cold":
            // The first check on a freshly opened image (opened outside the timing), as the cold
            // measure of the checks section takes it.
            var image: Image?
            var store: Store?
            try profileLoop(name, rounds: rounds, prepare: {
                image?.close()
                image = try Self.openImage(page.coldPath)
                store = Self.store(image: image)
            }) {
                _ = store!.check(input.plan, variables: input.variables)
                keep(store!)
            }
            image?.close()
        case "hydration-1k", "hydration-10k":
            let graph = try GraphFixture(records: name == "hydration-1k" ? 1_000 : 10_000)
            let path = directory + "/graph.image"
            do {
                let image = try Self.openImage(path)
                Self.store(image: image).commit(graph.changeSet)
                image.close()
            }
            let image = try Self.openImage(path)
            defer { image.close() }
            try profileLoop(name, rounds: rounds) {
                let store = Self.store(image: image)
                _ = store.check(graph.plan, variables: graph.variables)
                keep(store)
            }
        case "check":
            let image = try Self.openImage(page.path)
            defer { image.close() }
            let store = Self.store(image: image)
            _ = store.check(input.plan, variables: input.variables)
            try profileLoop(name, rounds: rounds) { _ = store.check(input.plan, variables: input.variables) }
        case "read-back":
            let image = try Self.openImage(page.path)
            defer { image.close() }
            let store = Self.store(image: image)
            guard store.check(input.plan, variables: input.variables).isAvailable else { throw BenchError("the check missed") }
            try profileLoop(name, rounds: rounds) { _ = store.read(input.plan, variables: input.variables) }
        case "collection", "collection-500k":
            let graph = try GraphFixture(records: name == "collection" ? 50_000 : 500_000)
            let store = Self.store()
            store.commit(graph.changeSet)
            let token = store.retain(graph.plan, variables: graph.variables)
            // Between passes, the same graph's integer mark runs (as in the scaling table), so each
            // pass starts with caches another walk used.
            let integers = graph.integerGraph()
            try profileLoop(name, rounds: rounds, prepare: { _ = integers.mark() }) { store.collect() }
            store.release(token)
        case "collection-first":
            let graph = try GraphFixture(records: 50_000)
            var store = Self.store()
            try profileLoop(name, rounds: rounds, prepare: {
                keep(store)
                store = Self.store()
                store.commit(graph.changeSet)
                _ = store.retain(graph.plan, variables: graph.variables)
            }) { store.collect() }
        default:
            throw BenchError("unknown profile \(name)")
        }
    }
}
