import Baton
import Synchronization

/// The simulation's clock: starts at a fixed instant and moves only when an event says so.
package final class SimClock: StoreClock {
    private let seconds: Mutex<Double>

    package init(start: Double = 1_700_000_000) {
        seconds = Mutex(start)
    }

    package func now() -> Double {
        seconds.withLock { $0 }
    }

    package func advance(_ delta: Double) {
        seconds.withLock { $0 += delta }
    }
}

/// The store's image as the simulator hands it over: the real image, with a log of what the
/// store enqueued and of which rows the check read (the model needs both), and nothing else.
package final class RecordingImage: StoreImage {
    package let image: Image
    private let log = Mutex(Log())

    package struct Log: Sendable {
        package var batches: [WriteBatch] = []
        package var touches = ReferenceModel.Touches()
    }

    package init(_ image: Image) {
        self.image = image
    }

    package func enqueue(_ batch: WriteBatch) {
        log.withLock { $0.batches.append(batch) }
        image.enqueue(batch)
    }

    package func pendingKeys() -> Set<RecordKey> {
        image.pendingKeys()
    }

    package func read<T>(_ body: (any ImageReadTransaction) -> T) -> T? {
        image.read { transaction in
            body(RecordingTransaction(inner: transaction, owner: self))
        }
    }

    /// Everything logged since the last call.
    package func takeLog() -> Log {
        log.withLock { log in
            defer { log = Log() }
            return log
        }
    }

    fileprivate func touched(_ change: (inout ReferenceModel.Touches) -> Void) {
        log.withLock { change(&$0.touches) }
    }
}

/// A read transaction that notes every row that answered.
private struct RecordingTransaction: ImageReadTransaction {
    let inner: any ImageReadTransaction
    let owner: RecordingImage

    func record(_ key: RecordKey) -> ImageRowLookup {
        let answer = inner.record(key)
        if answer.record != nil { owner.touched { $0.records.insert(key) } }
        return answer
    }

    func rootField(_ storageKey: String) -> Cell? {
        let answer = inner.rootField(storageKey)
        if answer != nil { owner.touched { $0.rootFields.insert(storageKey) } }
        return answer
    }

    func fetchTime(_ operation: OperationIdentity) -> Double? {
        let answer = inner.fetchTime(operation)
        if answer != nil { owner.touched { $0.fetches.insert(operation) } }
        return answer
    }
}
