import Baton

/// What a run did, event by event, in lanes a person can look at: the process (launches, kills,
/// power losses), the main actor (commits, checks, collections), the writer (drains and what they
/// wrote) and the disk (pending against durable bytes per file); with each record's history.
///
/// The runner records one; ``TimelinePage`` renders it as a self-contained HTML page.
package struct Timeline: Sendable {
    /// The lanes of the page, top to bottom.
    package enum Lane: String, CaseIterable, Sendable {
        case process, main, writer, disk
    }

    /// One event of the run as the page shows it.
    package struct Event: Sendable {
        package var index: Int
        package var lane: Lane
        /// The event's kind as the replay format names it (`response`, `drain`, …).
        package var kind: String
        /// One line: the event and what it did.
        package var summary: String
        /// More lines, shown when the event is selected: the event's trace lines (the server's
        /// edits before it, a launch it needed, the event itself) and what the disk did.
        package var details: [String]
        /// The records the event touched: their memory, queued write, row or model state changed,
        /// or a check read their row.
        package var keys: [String]
        /// The disk after the event.
        package var files: [FileState]
        /// What the disk did during the event.
        package var disk: DiskActivity
        /// The response the event delivered (a response, an optimistic response or an answer), as
        /// ``ResponseDisplay`` shows it; `nil` for other events.
        package var response: String?

        package init(index: Int, lane: Lane, kind: String, summary: String, details: [String] = [], keys: [String] = [],
                     files: [FileState] = [], disk: DiskActivity = DiskActivity(), response: String? = nil) {
            self.index = index
            self.lane = lane
            self.kind = kind
            self.summary = summary
            self.details = details
            self.keys = keys
            self.files = files
            self.disk = disk
            self.response = response
        }
    }

    /// What the simulated disk did during one event, from its counters.
    package struct DiskActivity: Sendable, Hashable {
        package var writes = 0
        package var bytesWritten = 0
        package var syncs = 0
        /// Faults the disk injected (an armed write, sync or read failed).
        package var faults = 0
        /// At a power loss: pending writes kept whole, lost whole, or torn.
        package var kept = 0
        package var dropped = 0
        package var torn = 0

        package init(writes: Int = 0, bytesWritten: Int = 0, syncs: Int = 0, faults: Int = 0, kept: Int = 0, dropped: Int = 0, torn: Int = 0) {
            self.writes = writes
            self.bytesWritten = bytesWritten
            self.syncs = syncs
            self.faults = faults
            self.kept = kept
            self.dropped = dropped
            self.torn = torn
        }

        /// One line for the event's details, or nil when the disk did nothing.
        package var line: String? {
            var parts: [String] = []
            if writes > 0 { parts.append("\(writes) writes (\(bytesWritten) bytes)") }
            if syncs > 0 { parts.append("\(syncs) syncs") }
            if faults > 0 { parts.append("\(faults) faults injected") }
            if kept + dropped + torn > 0 { parts.append("power loss: \(kept) pending writes kept, \(dropped) dropped, \(torn) torn") }
            return parts.isEmpty ? nil : "disk: " + parts.joined(separator: ", ")
        }
    }

    /// One file of the simulated disk after an event.
    package struct FileState: Sendable, Hashable {
        package var name: String
        /// What a reader sees (durable bytes with pending writes applied).
        package var size: Int
        /// What surely survives a power loss.
        package var durableSize: Int
        /// Writes and truncations not yet synced.
        package var pendingOperations: Int
    }

    /// One record after an event that touched it.
    package struct KeyState: Sendable, Hashable {
        package var eventIndex: Int
        /// The record in memory (store), in the writer's queue, in the image, and in the model's
        /// memory; `nil` where there is none.
        package var memory: String?
        package var queue: String?
        package var image: String?
        package var model: String?
        /// The row the model expects in the image (`nil`: no row).
        package var modelImage: String?
        /// Each cell where memory differs from the model's memory, or the image from the model's
        /// image, one per line.
        package var differences: [String]

        package init(eventIndex: Int, memory: String? = nil, queue: String? = nil, image: String? = nil, model: String? = nil,
                     modelImage: String? = nil, differences: [String] = []) {
            self.eventIndex = eventIndex
            self.memory = memory
            self.queue = queue
            self.image = image
            self.model = model
            self.modelImage = modelImage
            self.differences = differences
        }

        /// The same states, whatever the event.
        func sameState(as other: KeyState) -> Bool {
            memory == other.memory && queue == other.queue && image == other.image && model == other.model && modelImage == other.modelImage
        }
    }

    /// The failure the run ended with.
    package struct Failure: Sendable {
        package var eventIndex: Int
        package var invariant: String
        /// What broke, without the differences.
        package var headline: String
        /// Each differing cell, one per line (see ``InvariantViolation/differences``).
        package var differences: [String]
        /// The record the failure names, when it names one.
        package var key: String?

        package init(eventIndex: Int, invariant: String, headline: String, differences: [String] = [], key: String? = nil) {
            self.eventIndex = eventIndex
            self.invariant = invariant
            self.headline = headline
            self.differences = differences
            self.key = key
        }
    }

    package var title: String
    package var events: [Event] = []
    package var failure: Failure?
    /// Each record's history, by key (compared by its bytes: two spellings are two records).
    package var histories: [OracleText: [KeyState]] = [:]

    package init(title: String) {
        self.title = title
    }
}
