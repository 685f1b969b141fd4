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
        /// More lines, shown when the event is selected.
        package var details: [String]
        /// The records the event touched (written, read, swept, checked).
        package var keys: [String]
        /// The disk after the event.
        package var files: [FileState]

        package init(index: Int, lane: Lane, kind: String, summary: String, details: [String] = [], keys: [String] = [], files: [FileState] = []) {
            self.index = index
            self.lane = lane
            self.kind = kind
            self.summary = summary
            self.details = details
            self.keys = keys
            self.files = files
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
    package struct KeyState: Sendable {
        package var eventIndex: Int
        /// The record in memory (store), in the writer's queue, in the image, and in the model;
        /// `nil` where there is none.
        package var memory: String?
        package var queue: String?
        package var image: String?
        package var model: String?

        package init(eventIndex: Int, memory: String? = nil, queue: String? = nil, image: String? = nil, model: String? = nil) {
            self.eventIndex = eventIndex
            self.memory = memory
            self.queue = queue
            self.image = image
            self.model = model
        }
    }

    /// The failure the run ended with.
    package struct Failure: Sendable {
        package var eventIndex: Int
        package var invariant: String
        package var detail: String
        /// The record the failure names, when it names one.
        package var key: String?
    }

    package var title: String
    package var events: [Event] = []
    package var failure: Failure?
    /// Each record's history, by key.
    package var histories: [String: [KeyState]] = [:]

    package init(title: String) {
        self.title = title
    }
}
