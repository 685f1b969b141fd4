import Baton

/// What a hand-written scenario expects after an event.
package struct Expectation: Hashable, Sendable {
    /// For a check: `available`, `missing`, `fresh` or `stale` (the last two imply available).
    package var availability: String?
    /// For a check: `memory` or `image`.
    package var source: String?
    /// For a check: the data read back afterwards.
    package var data: JSONValue?
    /// Rows of the image (read through SQL): key → the cells it must hold (record-source values),
    /// or null when the row must be absent.
    package var image: [String: JSONValue]?

    package init(availability: String? = nil, source: String? = nil, data: JSONValue? = nil, image: [String: JSONValue]? = nil) {
        self.availability = availability
        self.source = source
        self.data = data
        self.image = image
    }
}

/// An event of a schedule with what a scenario expects after it.
package struct ScheduledEvent: Hashable, Sendable {
    package var event: SimEvent
    package var expect: Expectation?

    package init(_ event: SimEvent, expect: Expectation? = nil) {
        self.event = event
        self.expect = expect
    }
}
