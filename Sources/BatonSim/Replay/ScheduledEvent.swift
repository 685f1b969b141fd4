import Baton

/// An event of a schedule with what a scenario expects after it.
package struct ScheduledEvent: Hashable, Sendable {
    package var event: SimEvent
    package var expect: Expectation?

    package init(_ event: SimEvent, expect: Expectation? = nil) {
        self.event = event
        self.expect = expect
    }
}
