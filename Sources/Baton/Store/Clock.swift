import Foundation

/// Where fetch times and ages come from: seconds since 1970. The simulator injects its own.
public protocol StoreClock: Sendable {
    /// The current time in seconds since 1970-01-01 UTC.
    func now() -> Double
}

/// The wall clock, for production.
public struct SystemClock: StoreClock {
    public init() {}
    public func now() -> Double { Date().timeIntervalSince1970 }
}
