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
            return "record \(Legible.text(key)) (\(what))"
        case .rootField(let field, let found): return "root \(Legible.text(field)) (\(found ? "present" : "absent"))"
        case .fetch(let operation, let found): return "fetch \(operation.rawValue) (\(found ? "present" : "absent"))"
        }
    }
}

/// The open of a launch's `OpeningImage`, held until the simulator says it is done.
///
/// Production starts the open on a queue; the simulator takes the work instead, opens the image
/// itself over the simulated disk (retried and checked as every launch is), then runs the work
/// with that image, at a moment of the schedule: production's handover of the buffered commits
/// runs, in the order it does.
final class HeldOpen: Sendable {
    private let work = Mutex<(@Sendable () -> Void)?>(nil)
    private let result = Mutex<Result<Image, ImageError>?>(nil)

    /// `OpeningImage`'s seam: keeps the open's work.
    func hold(_ work: @escaping @Sendable () -> Void) {
        self.work.withLock { $0 = work }
    }

    /// True until the held work has run.
    var isHeld: Bool { work.withLock { $0 != nil } }

    /// The open `OpeningImage` runs inside its work: the image the simulator opened.
    func open() throws(ImageError) -> Image {
        guard let result = result.withLock({ $0 }) else { preconditionFailure("the held open ran before the simulator opened the image") }
        return try result.get()
    }

    /// Runs the held work with `image`; the `OpeningImage` is open when this returns.
    func finish(with image: Image) {
        run(.success(image))
    }

    /// The simulator's open failed with `error`: the held work runs with it, and the
    /// `OpeningImage` leaves the store without an image.
    func fail(with error: ImageError) {
        run(.failure(error))
    }

    /// The process died before its open: the held work runs with an open that failed without
    /// touching the disk, so the `OpeningImage` is done waiting and nothing reaches the
    /// file.
    func abandon() {
        run(.failure(.inUse(path: Simulation.imagePath)))
    }

    private func run(_ outcome: Result<Image, ImageError>) {
        result.withLock { $0 = outcome }
        let work = work.withLock { held in
            defer { held = nil }
            return held
        }
        work?()
    }
}

/// The store's image as the simulator hands it over: the real image, logging every lookup the
/// check makes (the reference model predicts them), and nothing else.
///
/// With a disk at hand it also notes, from the disk's own count of injected faults, during which
/// lookups the disk failed a read: the model learns where the disk failed, never what the store
/// made of it.
package final class RecordingImage: StoreImage {
    /// The image the store's calls go on to (the simulator's: production's `OpeningImage`).
    private let image: any StoreImage
    private let log = Mutex<[ImageLookupRecord]>([])
    /// Positions in `log` of the lookups during which the disk failed a read.
    private let faulted = Mutex<Set<Int>>([])
    /// Faults the disk injected during a read transaction but outside any lookup.
    private let faultsOutsideLookups = Mutex(0)
    /// The disk's count of injected faults (`nil`: not watched).
    private let faultCount: (@Sendable () -> UInt64)?
    /// Runs once, right before the next lookup of a record's row (a read fault arms itself there).
    private let beforeRecordLookup = Mutex<(@Sendable () -> Void)?>(nil)

    package init(_ image: any StoreImage, faultCount: (@Sendable () -> UInt64)? = nil) {
        self.image = image
        self.faultCount = faultCount
    }

    package func enqueue(_ batch: WriteBatch) {
        image.enqueue(batch)
    }

    package func erase() -> Bool {
        image.erase()
    }

    package func pendingKeys() -> Set<RecordKey> {
        image.pendingKeys()
    }

    package func read<T>(_ body: (any ImageReadTransaction) -> T) -> T? {
        let before = faultCount?()
        var inLookups: UInt64 = 0
        let result = image.read { transaction in
            let recording = RecordingTransaction(inner: transaction, owner: self)
            let answer = body(recording)
            inLookups = recording.faults.count
            return answer
        }
        if let before, let after = faultCount?(), after - before > inLookups {
            faultsOutsideLookups.withLock { $0 += Int(after - before - inLookups) }
        }
        return result
    }

    /// Every lookup since the last call, in order.
    package func takeLookups() -> [ImageLookupRecord] {
        log.withLock { log in
            defer { log = [] }
            return log
        }
    }

    /// Runs `action` once, right before the next lookup of a record's row; `nil` takes it back.
    package func beforeNextRecordLookup(_ action: (@Sendable () -> Void)?) {
        beforeRecordLookup.withLock { $0 = action }
    }

    fileprivate func recordLookupStarts() {
        let action = beforeRecordLookup.withLock { hook in
            defer { hook = nil }
            return hook
        }
        action?()
    }

    /// Every lookup since the last ``takeLookups()``, in order, left in place.
    package func peekLookups() -> [ImageLookupRecord] {
        log.withLock { $0 }
    }

    /// The positions, among the lookups ``takeLookups()`` returns next, of those during which the
    /// disk failed a read, and how many faults fired in a read transaction outside any lookup;
    /// both start again.
    package func takeFaults() -> (lookups: Set<Int>, outside: Int) {
        let lookups = faulted.withLock { set in
            defer { set = [] }
            return set
        }
        let outside = faultsOutsideLookups.withLock { count in
            defer { count = 0 }
            return count
        }
        return (lookups, outside)
    }

    fileprivate func note(_ lookup: ImageLookupRecord, faultsBefore: UInt64?) {
        let position = log.withLock { log in
            log.append(lookup)
            return log.count - 1
        }
        if let faultsBefore, let now = faultCount?(), now > faultsBefore {
            faulted.withLock { _ = $0.insert(position) }
        }
    }

    fileprivate func faults() -> UInt64? {
        faultCount?()
    }
}

/// Faults a recording transaction saw fire inside its lookups.
private final class FaultTally: @unchecked Sendable {
    var count: UInt64 = 0
}

/// A read transaction that notes every lookup, its answer, and whether the disk failed a read
/// during it.
///
/// It hands the check slot rows when the image's session does (``SlotRowSource``), so the
/// simulator drives the hydration path production takes: until 2026-12-06 the wrapper had only
/// named rows, and every simulated hydration decoded rows the way no app's did.
private final class RecordingTransaction: ImageReadTransaction, SlotRowSource {
    let inner: any ImageReadTransaction
    /// `inner` as a source of slot rows (the image's own session is one).
    private let slotInner: (any SlotRowSource)?
    let owner: RecordingImage
    let faults = FaultTally()

    init(inner: any ImageReadTransaction, owner: RecordingImage) {
        self.inner = inner
        self.slotInner = inner as? any SlotRowSource
        self.owner = owner
    }

    private func noting<T>(_ lookup: () -> T, as record: (T) -> ImageLookupRecord) -> T {
        let before = owner.faults()
        let answer = lookup()
        if let before, let after = owner.faults() { faults.count += after - before }
        owner.note(record(answer), faultsBefore: before)
        return answer
    }

    func record(_ key: RecordKey) -> ImageRowLookup {
        owner.recordLookupStarts()
        return noting({ inner.record(key) }, as: { .record(key, $0) })
    }

    func slotRecord(_ key: RecordKey) -> SlotRowLookup {
        owner.recordLookupStarts()
        return noting({ slotInner?.slotRecord(key) ?? SlotRow.lookup(from: inner.record(key)) }, as: { .record(key, Self.found($0)) })
    }

    /// What a slot row lookup found, as the log keeps it: the answer's kind (its cells are not
    /// kept, as nothing reads them from the log).
    private static func found(_ lookup: SlotRowLookup) -> ImageRowLookup {
        switch lookup {
        case .found(let row): .found(row.deleted ? .deleted(typename: row.typename) : .present(typename: row.typename, cells: []))
        case .absent: .absent
        case .unreadable: .unreadable
        }
    }

    func rootField(_ storageKey: String) -> Cell? {
        noting({ inner.rootField(storageKey) }, as: { .rootField(storageKey, found: $0 != nil) })
    }

    func fetchTime(_ operation: OperationIdentity) -> Double? {
        noting({ inner.fetchTime(operation) }, as: { .fetch(operation, found: $0 != nil) })
    }
}
