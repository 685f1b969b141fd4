import Baton
import Synchronization

/// An image that notes every row the check asks for, in the order it asks: the order the
/// hydration floor reads the same rows in.
final class WalkRecorder: StoreImage {
    private let image: Image
    private let log = Mutex<[RawSQLite.Read]>([])

    init(_ image: Image) {
        self.image = image
    }

    /// The reads noted so far, first asked first, each row once.
    var reads: [RawSQLite.Read] {
        log.withLock { reads in
            var seen = Set<RawSQLite.Read>()
            return reads.filter { seen.insert($0).inserted }
        }
    }

    func enqueue(_ batch: WriteBatch) { image.enqueue(batch) }
    func erase() -> Bool { image.erase() }
    func pendingKeys() -> Set<RecordKey> { image.pendingKeys() }

    func read<T>(_ body: (any ImageReadTransaction) -> T) -> T? {
        image.read { transaction in body(Transaction(inner: transaction, recorder: self)) }
    }

    fileprivate func note(_ table: String, _ key: String) {
        log.withLock { $0.append(RawSQLite.Read(table: table, key: key)) }
    }

    private struct Transaction: ImageReadTransaction {
        let inner: any ImageReadTransaction
        let recorder: WalkRecorder

        func record(_ key: RecordKey) -> ImageRowLookup {
            recorder.note("records", key.rawValue)
            return inner.record(key)
        }

        func rootField(_ storageKey: String) -> Cell? {
            recorder.note("root", storageKey)
            return inner.rootField(storageKey)
        }

        func fetchTime(_ operation: OperationIdentity) -> Double? {
            recorder.note("fetches", operation.rawValue)
            return inner.fetchTime(operation)
        }
    }
}
