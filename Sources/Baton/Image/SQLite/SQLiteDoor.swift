import CSQLite

/// The kinds of SQLite calls that return a result code, as the fault injector counts them.
package enum SQLiteCall: String, Sendable, Hashable, CaseIterable {
    /// `sqlite3_open_v2`.
    case open
    /// `sqlite3_prepare_v3`.
    case prepare
    /// `sqlite3_step`.
    case step
    /// `sqlite3_exec`: transaction control (`BEGIN`, `COMMIT`, `ROLLBACK`) and schema scripts.
    case exec
    /// `sqlite3_bind_*`.
    case bind
    /// A VFS's `xDelete`, when a file that cannot be read is deleted.
    case delete
}

/// The one door every `sqlite3_*` call goes through, so a test can make a call fail.
///
/// Calls that return a result code go through ``result(_:_:)``, which asks the fault injector
/// first; calls that return values (columns, messages) go through ``value(_:)``. Closing and
/// finalizing are never faulted: a handle is always released.
package struct SQLiteDoor: Sendable {
    /// The injector consulted before every code-returning call, `nil` in production.
    package let faults: FaultInjector?

    package init(faults: FaultInjector? = nil) {
        self.faults = faults
    }

    /// Makes a code-returning call, unless a fault armed for `call` answers in its place.
    @inline(__always)
    package func result(_ call: SQLiteCall, _ body: () -> Int32) -> Int32 {
        if let faults, let code = faults.intercept(call) { return code }
        return body()
    }

    /// Makes a call that returns a value rather than a result code.
    @inline(__always)
    package func value<T>(_ body: () -> T) -> T {
        body()
    }

    /// The door for calls made without a connection (constant lookups such as `sqlite3_errstr`).
    @inline(__always)
    package static func plain<T>(_ body: () -> T) -> T {
        body()
    }

    /// True when the last code-returning call through this door was answered by an injected fault.
    package var lastCallWasInjected: Bool { faults?.lastCallWasInjected ?? false }
}
