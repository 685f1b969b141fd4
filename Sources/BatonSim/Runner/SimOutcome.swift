import Baton

/// A broken invariant: which, where, and what was seen.
package struct InvariantViolation: Error, Hashable, Sendable, CustomStringConvertible {
    /// The invariant's name (stable: shrinking keeps only candidates that break the same one).
    package var invariant: String
    /// What was seen, on one line (differences included): what JSON reports and files keep.
    package var detail: String
    /// The index of the event after which it broke.
    package var eventIndex: Int
    /// What was seen without the differences, when ``differences`` lists them (else ``detail``).
    package var headline: String?
    /// One line per differing cell, row or value, `Key.cell: expected … ≠ actual …`, for the
    /// invariants that compare records, rows or data; empty for the others.
    package var differences: [String] = []
    /// The failing event's trace line (`#N summary → outcome`), when the run noted one.
    package var event: String?

    package var description: String { "\(invariant) after event #\(eventIndex): \(detail)" }

    /// The violation's first line as people read it: the invariant, the event and the headline.
    package var summary: String { "\(invariant) after event #\(eventIndex): \(headline ?? detail)" }
}

/// Crash points a run went through, by kind.
package struct CrashCounts: Hashable, Sendable {
    package var kill = 0
    package var powerLoss = 0
    package var quit = 0
    package var drainPartway = 0
    package var faults = 0
    package var corruptions = 0
    /// Processes that died while they opened the image (``SimEvent/openCrash(operations:powerLossSeed:build:)``).
    package var openCrashes = 0
    /// Quits that died inside their last drain or close (``SimEvent/quitCrash(operations:powerLossSeed:)``).
    package var quitCrashes = 0

    package var total: Int { kill + powerLoss + quit + drainPartway + corruptions + openCrashes + quitCrashes }

    package static func + (a: CrashCounts, b: CrashCounts) -> CrashCounts {
        CrashCounts(kill: a.kill + b.kill, powerLoss: a.powerLoss + b.powerLoss, quit: a.quit + b.quit,
                    drainPartway: a.drainPartway + b.drainPartway, faults: a.faults + b.faults,
                    corruptions: a.corruptions + b.corruptions, openCrashes: a.openCrashes + b.openCrashes,
                    quitCrashes: a.quitCrashes + b.quitCrashes)
    }
}

/// What one run did.
package struct SimOutcome: Sendable {
    package var seed: UInt64?
    package var schedule: [ScheduledEvent]
    package var failure: InvariantViolation?
    package var trace: [String]
    package var traceHash: String
    package var crashes: CrashCounts
    package var statesChecked: Int
    package var eventsRun: Int
    /// The run's timeline, when the options asked for one.
    package var timeline: Timeline?
    /// The paths the store's rules took in this run (the reference model's counters and the
    /// disk's torn writes).
    package var coverage: Coverage
    /// Every expectation that failed, when the run kept going past them (``Simulation/Options/keepGoing``).
    package var expectationFailures: [InvariantViolation] = []
    /// The disk's writes, syncs and truncations before each event and after the last, when the
    /// options asked for them (``Simulation/Options/countsOperations``): the sweep places its
    /// faults by them.
    package var operations: [DiskOperationCount] = []
    /// The writer's bound on queued items the run had, when not production's.
    package var writerBound: Int?
    /// The store's settings the run had, when not production's.
    package var store: StoreSettings?
    /// The CPU time the run spent inside the store and its image, when the options asked
    /// (``Simulation/Options/timesStoreWork``).
    package var storeCPUSeconds: Double?
}

/// How many writes, syncs, truncations, opens and deletions the disk did so far (failed ones not
/// counted).
package struct DiskOperationCount: Sendable, Hashable {
    package var writes: UInt64
    package var syncs: UInt64
    package var truncates: UInt64
    package var opens: UInt64
    package var deletes: UInt64

    init(_ counters: SimulatedDisk.Counters) {
        writes = counters.writes
        syncs = counters.syncs
        truncates = counters.truncates
        opens = counters.opens
        deletes = counters.deletes
    }

    /// The count of one kind of operation (`write`, `sync`, `truncate`, `open` or `delete`).
    package subscript(kind: String) -> UInt64 {
        switch kind {
        case "sync": syncs
        case "truncate": truncates
        case "open": opens
        case "delete": deletes
        default: writes
        }
    }
}
