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

/// One lookup the store made in the image during a check, with what it found.
package enum ImageLookupRecord: Hashable, Sendable, CustomStringConvertible {
    case record(RecordKey, ImageRowLookup)
    case rootField(String, found: Bool)
    case fetch(OperationIdentity, found: Bool)

    package var description: String {
        switch self {
        case .record(let key, let lookup):
            let what: String
            switch lookup {
            case .found(.deleted): what = "deleted"
            case .found(.present): what = "present"
            case .absent: what = "absent"
            case .unreadable: what = "unreadable"
            }
            return "record \(key) (\(what))"
        case .rootField(let field, let found): return "root \(field) (\(found ? "present" : "absent"))"
        case .fetch(let operation, let found): return "fetch \(operation.rawValue) (\(found ? "present" : "absent"))"
        }
    }
}

/// The store's image as the simulator hands it over: the real image, logging every lookup the
/// check makes (the reference model predicts them), and nothing else.
package final class RecordingImage: StoreImage {
    package let image: Image
    private let log = Mutex<[ImageLookupRecord]>([])

    package init(_ image: Image) {
        self.image = image
    }

    package func enqueue(_ batch: WriteBatch) {
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

    /// Every lookup since the last call, in order.
    package func takeLookups() -> [ImageLookupRecord] {
        log.withLock { log in
            defer { log = [] }
            return log
        }
    }

    fileprivate func note(_ lookup: ImageLookupRecord) {
        log.withLock { $0.append(lookup) }
    }
}

/// A read transaction that notes every lookup and its answer.
private struct RecordingTransaction: ImageReadTransaction {
    let inner: any ImageReadTransaction
    let owner: RecordingImage

    func record(_ key: RecordKey) -> ImageRowLookup {
        let answer = inner.record(key)
        owner.note(.record(key, answer))
        return answer
    }

    func rootField(_ storageKey: String) -> Cell? {
        let answer = inner.rootField(storageKey)
        owner.note(.rootField(storageKey, found: answer != nil))
        return answer
    }

    func fetchTime(_ operation: OperationIdentity) -> Double? {
        let answer = inner.fetchTime(operation)
        owner.note(.fetch(operation, found: answer != nil))
        return answer
    }
}
