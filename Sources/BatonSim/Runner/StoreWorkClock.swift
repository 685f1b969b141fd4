#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Adds up the CPU time a run spends inside the store and its image (ingest, commits, checks,
/// collection, the writer's drains, opening and closing the image), so a benchmark can tell the
/// production code's share of a run's cost from the simulator's own (its server, model and
/// checks). Off unless ``Simulation/Options/timesStoreWork`` asks: it reads the thread's CPU
/// clock twice a call, and what it reads never steers the run.
struct StoreWorkClock {
    let enabled: Bool
    private(set) var seconds: Double = 0

    init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Runs `body`, adding its CPU time when enabled.
    mutating func time<T>(_ body: () throws -> T) rethrows -> T {
        guard enabled else { return try body() }
        let start = Self.threadCPUSeconds()
        defer { seconds += Self.threadCPUSeconds() - start }
        return try body()
    }

    /// Adds CPU time the store spent on another thread (a held drain's).
    mutating func add(_ other: Double) {
        if enabled { seconds += other }
    }

    static func threadCPUSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
