import BatonSim
import Dispatch
import Foundation
import Synchronization

/// SIGINT and SIGTERM as a request to stop. The first one lets a campaign finish the seed in
/// flight, print its summary, write its report and clean up; a second one stops at once, after
/// the cleanup registered with ``onSecondSignal(_:)`` (killing the jobs, removing their folder).
final class StopSignals: Sendable {
    private let first = Atomic<Int32>(0)
    private let received = Atomic<Int>(0)
    private let cleanup = Mutex<(@Sendable () -> Void)?>(nil)
    /// Kept only so the sources live as long as this object; never touched after `init`.
    nonisolated(unsafe) private let sources: [any DispatchSourceSignal]

    /// Catches `signals`; `ignored` signals are ignored outright (a job ignores the terminal's
    /// SIGINT: its parent decides when it stops).
    init(catching signals: [Int32], ignoring ignored: [Int32] = []) {
        for number in ignored { signal(number, SIG_IGN) }
        let queue = DispatchQueue(label: "baton.stop-signals")
        var sources: [any DispatchSourceSignal] = []
        for number in signals {
            signal(number, SIG_IGN)
            sources.append(DispatchSource.makeSignalSource(signal: number, queue: queue))
        }
        self.sources = sources
        for (number, source) in zip(signals, sources) {
            source.setEventHandler { [self] in self.receive(number) }
            source.resume()
        }
    }

    private func receive(_ number: Int32) {
        _ = first.compareExchange(expected: 0, desired: number, ordering: .sequentiallyConsistent)
        if received.add(1, ordering: .sequentiallyConsistent).newValue >= 2 {
            cleanup.withLock { $0 }?()
            _exit(128 + number)
        }
    }

    /// The signal that asked to stop, if one did.
    var signalNumber: Int32? {
        let number = first.load(ordering: .sequentiallyConsistent)
        return number == 0 ? nil : number
    }

    /// The stop reason for a campaign, once a signal arrived.
    var reason: Campaign.StopReason? {
        signalNumber.map { .signal(Self.name($0)) }
    }

    /// What to do before a second signal ends the process.
    func onSecondSignal(_ action: @escaping @Sendable () -> Void) {
        cleanup.withLock { $0 = action }
    }

    /// `SIGINT`, `SIGTERM` …
    static func name(_ number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(number)"
        }
    }
}
