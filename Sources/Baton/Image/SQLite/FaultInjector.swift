import Synchronization

/// Makes chosen SQLite calls fail: the Nth call of a kind returns a chosen code without
/// reaching SQLite.
///
/// One injector belongs to one image (pass it in ``ImageConfiguration``), so tests running in
/// parallel never see each other's faults. Counting starts when a fault is armed: `nth: 1` is
/// the very next call of that kind.
package final class FaultInjector: Sendable {
    private struct Armed {
        var call: SQLiteCall
        /// The value of the call's counter at which the fault fires.
        var at: Int
        var code: SQLiteResultCode
    }

    private struct State {
        var counts: [SQLiteCall: Int] = [:]
        var armed: [Armed] = []
        var fired: [(SQLiteCall, SQLiteResultCode)] = []
        var lastCallWasInjected = false
    }

    private let state = Mutex(State())

    package init() {}

    /// Arms a fault: the `nth` call of `call` from now (1 = the next one) returns `code`.
    package func fail(_ call: SQLiteCall, nth: Int = 1, with code: SQLiteResultCode) {
        precondition(nth >= 1, "nth counts from 1")
        state.withLock { state in
            let at = state.counts[call, default: 0] + nth
            state.armed.append(Armed(call: call, at: at, code: code))
        }
    }

    /// Arms `count` consecutive failures of `call`, starting with the next one.
    package func failNext(_ call: SQLiteCall, times count: Int, with code: SQLiteResultCode) {
        for nth in 1...max(count, 1) { fail(call, nth: nth, with: code) }
    }

    /// Disarms every fault not yet fired.
    package func disarm() {
        state.withLock { $0.armed.removeAll() }
    }

    /// How many calls of `call` went through the door so far (faulted ones included).
    package func calls(of call: SQLiteCall) -> Int {
        state.withLock { $0.counts[call, default: 0] }
    }

    /// The faults that fired, in order.
    package var fired: [(call: SQLiteCall, code: SQLiteResultCode)] {
        state.withLock { $0.fired.map { (call: $0.0, code: $0.1) } }
    }

    /// How many armed faults have not fired yet.
    package var pending: Int {
        state.withLock { $0.armed.count }
    }

    var lastCallWasInjected: Bool {
        state.withLock { $0.lastCallWasInjected }
    }

    /// Counts the call; returns the code to answer with when a fault fires on it.
    func intercept(_ call: SQLiteCall) -> Int32? {
        state.withLock { state in
            let count = state.counts[call, default: 0] + 1
            state.counts[call] = count
            if let index = state.armed.firstIndex(where: { $0.call == call && $0.at == count }) {
                let fault = state.armed.remove(at: index)
                state.fired.append((call, fault.code))
                state.lastCallWasInjected = true
                return fault.code.rawValue
            }
            state.lastCallWasInjected = false
            return nil
        }
    }
}
