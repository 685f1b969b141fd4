import Dispatch
import Synchronization

/// An image that opens off the main actor: made when the app builds its environment, usable by the
/// store at once.
///
/// Commits made before the file is open are kept and handed to the image, in order, the moment it
/// opens; the availability check waits for the open (the decision record's "the main actor waits
/// for the open" case, measured in BENCHMARKS.md as the launch figure). The commits kept obey the
/// writer's bound (``WriterLimits``) as the writer's own queue does: past it they are dropped and
/// the image empties itself at its first drain. A file that cannot be opened leaves the store
/// running without an image: reads miss and batches are dropped.
public final class OpeningImage: StoreImage {
    private enum Phase {
        case opening
        case open(Image)
        case failed(ImageError)
    }

    private struct State {
        var phase = Phase.opening
        /// The commits kept while the phase is `opening`.
        var buffer = OpeningBuffer()
    }

    private let state = Mutex(State())
    private let done = DispatchGroup()
    /// The bound the kept commits obey, the writer's.
    private let limits: WriterLimits
    /// A known bug switched back on (tests and the simulator only; ignored without `BATON_MUTANTS`).
    private let mutant: Mutant?
    /// Where an erase before the open leaves its mark (``EraseMark``).
    private let eraseMark: EraseMark.Place?

    /// Starts opening `path` on `queue`.
    public convenience init(path: String, appVersion: String, queue: DispatchQueue = .global(qos: .userInitiated)) {
        self.init(queue: queue, eraseMark: EraseMark.Place(path: path, vfs: nil)) { () throws(ImageError) -> Image in
            try Image.open(path: path, appVersion: appVersion)
        }
    }

    /// Starts `open` on `queue` (the seam tests use).
    package convenience init(
        queue: DispatchQueue, limits: WriterLimits = WriterLimits(), eraseMark: EraseMark.Place? = nil,
        open: @escaping @Sendable () throws(ImageError) -> Image
    ) {
        self.init(start: { job in queue.async(execute: job) }, limits: limits, eraseMark: eraseMark, open: open)
    }

    /// Hands the open's work to `start`, which runs it when it chooses (the simulator's seam: it
    /// runs the open at a moment its seed picks, with commits buffered before it). Until the work
    /// has run, ``wait()`` and ``read(_:)`` block. `limits` must be the opened image's writer's;
    /// `eraseMark` is where an erase before the open leaves its mark (nil: none is left).
    package init(
        start: (@escaping @Sendable () -> Void) -> Void, limits: WriterLimits = WriterLimits(), mutant: Mutant? = nil,
        eraseMark: EraseMark.Place? = nil, open: @escaping @Sendable () throws(ImageError) -> Image
    ) {
        self.limits = limits
        self.mutant = mutant
        self.eraseMark = eraseMark
        done.enter()
        start { [self] in
            let result: Result<Image, ImageError>
            do throws(ImageError) {
                result = .success(try open())
            } catch {
                result = .failure(error)
            }
            state.withLock { state in
                switch result {
                case .success(let image):
                    if state.buffer.erased { image.writer.erase() }
                    if state.buffer.overflows > 0 { image.writer.overflowedBeforeOpen(times: state.buffer.overflows) }
                    for batch in state.buffer.batches { image.enqueue(batch) }
                    state.phase = .open(image)
                case .failure(let error):
                    state.phase = .failed(error)
                }
                state.buffer = OpeningBuffer()
            }
            done.leave()
        }
    }

    /// An image dropped before its open ran (a seam that never runs the work) leaves its group
    /// balanced: Darwin's libdispatch traps on a group freed while entered.
    deinit {
        let waiting = state.withLock { state in
            if case .opening = state.phase { return true }
            return false
        }
        if waiting { done.leave() }
    }

    /// Waits for the open; the image, or `nil` when it failed (see ``openError``).
    public func wait() -> Image? {
        done.wait()
        return state.withLock { state in
            if case .open(let image) = state.phase { return image }
            return nil
        }
    }

    /// Why the open failed, once it has.
    public var openError: ImageError? {
        state.withLock { state in
            if case .failed(let error) = state.phase { return error }
            return nil
        }
    }

    public func enqueue(_ batch: WriteBatch) {
        let image: Image? = state.withLock { state in
            switch state.phase {
            case .opening:
                if mutant.isOn(.openingKeepsLastCommit) { state.buffer = OpeningBuffer() }
                let limit = mutant.isOn(.openingBufferUnbounded) ? Int.max : limits.maxQueuedItems
                state.buffer.append(batch, limit: limit)
                return nil
            case .open(let image):
                return image
            case .failed:
                return nil
            }
        }
        image?.enqueue(batch)
    }

    /// Before the open: the erase's mark is left beside the file (``EraseMark``), what is kept is
    /// dropped, and the image is erased the moment it opens, before the commits kept after this
    /// call reach it; an open that then fails leaves the mark for the next launch's open. `false`
    /// when the mark could not be written. After the open: the image's erase. After an open that
    /// failed: `false`, the file is left as it is.
    @discardableResult
    public func erase() -> Bool {
        let opening: Bool = state.withLock { state in
            if case .opening = state.phase { return true }
            return false
        }
        // The mark first, outside the lock (it waits for a sync): an open that finishes meanwhile
        // finds it, or the image it opened takes the erase below and writes it again.
        var marked = true
        if opening, let eraseMark, !mutant.isOn(.eraseUnmarked) { marked = EraseMark.write(eraseMark) != .failed }
        let opened: Image? = state.withLock { state in
            switch state.phase {
            case .opening:
                state.buffer = OpeningBuffer()
                state.buffer.erased = true
                return nil
            case .open(let image):
                return image
            case .failed:
                return nil
            }
        }
        // Through the open's group, which the sanitizer sees (the Mutex it does not): the open
        // has finished once its phase says so, so this does not wait.
        if opened != nil, let image = wait() { return image.erase() }
        return marked && openError == nil
    }

    public func pendingKeys() -> Set<RecordKey> {
        let (image, buffered): (Image?, [WriteBatch]) = state.withLock { state in
            switch state.phase {
            case .opening: (nil, state.buffer.batches)
            case .open(let image): (image, [])
            case .failed: (nil, [])
            }
        }
        if let image { return image.pendingKeys() }
        var keys = Set<RecordKey>()
        if mutant.isOn(.openingHidesBufferedKeys) { return keys }
        for batch in buffered {
            for snapshot in batch.snapshots { keys.insert(snapshot.key) }
            if !batch.rootFields.isEmpty { keys.insert(.queryRoot) }
        }
        return keys
    }

    public func read<T>(_ body: (any ImageReadTransaction) -> T) -> T? {
        wait()?.read(body)
    }
}

/// The commits an ``OpeningImage`` keeps until its image opens, bounded as the writer's queue is.
struct OpeningBuffer {
    var batches: [WriteBatch] = []
    /// Items in `batches`, counted as the writer counts them.
    var items = 0
    /// Times the bound was passed: the kept commits were dropped, and the image must empty itself.
    var overflows = 0
    /// The store was erased: the image is erased when it opens, before the kept commits reach it.
    var erased = false

    /// Keeps `batch`, unless the items kept would pass `limit`: then everything kept is dropped
    /// first (and `batch` too, when it alone passes it), as the writer's queue does.
    mutating func append(_ batch: WriteBatch, limit: Int) {
        guard !batch.isEmpty else { return }
        let count = batch.itemCount
        if items + count > limit {
            batches.removeAll()
            items = 0
            overflows += 1
            if count > limit { return }
        }
        batches.append(batch)
        items += count
    }
}
