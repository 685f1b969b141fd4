/// How an image is opened beyond its path: the writer's executor and limits, and the test seams.
package struct ImageConfiguration: Sendable {
    /// When the writer drains (production: a background queue; the simulator: by hand).
    package var executor: any WriterExecutor
    /// Faults to inject into this image's SQLite calls (tests); `nil` in production.
    package var faults: FaultInjector?
    /// How much work may wait for the writer before the image gives up its contents.
    package var limits: WriterLimits
    /// `PRAGMA busy_timeout`: how long to wait on a lock another process holds.
    package var busyTimeoutMilliseconds: Int
    /// How long opening waits for another process that has the image open (``ImageFileLock``).
    package var lockWaitMilliseconds: Int
    /// How many pages the WAL may hold before the writer checkpoints it into the file (SQLite's
    /// default, 1,000, in production; the simulator draws small ones so its worlds reach it).
    package var checkpointPages: Int

    #if BATON_MUTANTS
    /// A bug class to reintroduce in this image (debug builds only).
    package var mutant: ImageMutant?
    #endif

    package init(
        executor: any WriterExecutor = BackgroundWriterExecutor(),
        faults: FaultInjector? = nil,
        limits: WriterLimits = WriterLimits(),
        busyTimeoutMilliseconds: Int = ImageSchema.defaultBusyTimeoutMilliseconds,
        lockWaitMilliseconds: Int = ImageSchema.defaultLockWaitMilliseconds,
        checkpointPages: Int = ImageSchema.defaultCheckpointPages
    ) {
        self.executor = executor
        self.faults = faults
        self.limits = limits
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.lockWaitMilliseconds = lockWaitMilliseconds
        self.checkpointPages = checkpointPages
    }

    /// The rules this configuration asks for.
    var rules: ImageRules {
        #if BATON_MUTANTS
        ImageRules(mutant: mutant)
        #else
        ImageRules.production
        #endif
    }
}

/// The bound on work waiting for the writer.
///
/// Below the bound nothing a commit handed over is ever dropped: a drain that fails puts its work
/// back and the writer retries. When queued work (snapshots, root fields and fetch times, counted
/// together, including a drain's work in flight) would exceed ``maxQueuedItems``, the writer drops
/// all of it and the image empties itself at the next drain that commits; until then every read
/// misses. What is lost is only what the image held: the store's memory still has it, and a later
/// commit writes it again. The status reports each overflow.
package struct WriterLimits: Sendable, Hashable {
    /// The most items (snapshots + root fields + fetch times) that may wait for the writer.
    package var maxQueuedItems: Int

    package init(maxQueuedItems: Int = 200_000) {
        self.maxQueuedItems = maxQueuedItems
    }
}
