import Dispatch
import Synchronization

/// An image that opens off the main actor: made when the app builds its environment, usable by the
/// store at once.
///
/// Commits made before the file is open are kept and handed to the image, in order, the moment it
/// opens; the availability check waits for the open (the decision record's "the main actor waits
/// for the open" case, measured in BENCHMARKS.md as the launch figure). A file that cannot be
/// opened leaves the store running without an image: reads miss and batches are dropped.
public final class OpeningImage: StoreImage {
    private enum Phase {
        case opening(buffered: [WriteBatch])
        case open(Image)
        case failed(ImageError)
    }

    private let phase = Mutex(Phase.opening(buffered: []))
    private let done = DispatchGroup()

    /// Starts opening `path` on `queue`.
    public convenience init(path: String, appVersion: String, queue: DispatchQueue = .global(qos: .userInitiated)) {
        self.init(queue: queue) { () throws(ImageError) -> Image in
            try Image.open(path: path, appVersion: appVersion)
        }
    }

    /// Starts `open` on `queue` (the seam tests and the simulator use).
    package init(queue: DispatchQueue, open: @escaping @Sendable () throws(ImageError) -> Image) {
        done.enter()
        queue.async { [self] in
            let result: Result<Image, ImageError>
            do throws(ImageError) {
                result = .success(try open())
            } catch {
                result = .failure(error)
            }
            phase.withLock { phase in
                switch result {
                case .success(let image):
                    if case .opening(let buffered) = phase {
                        for batch in buffered { image.enqueue(batch) }
                    }
                    phase = .open(image)
                case .failure(let error):
                    phase = .failed(error)
                }
            }
            done.leave()
        }
    }

    /// Waits for the open; the image, or `nil` when it failed (see ``openError``).
    public func wait() -> Image? {
        done.wait()
        return phase.withLock { phase in
            if case .open(let image) = phase { return image }
            return nil
        }
    }

    /// Why the open failed, once it has.
    public var openError: ImageError? {
        phase.withLock { phase in
            if case .failed(let error) = phase { return error }
            return nil
        }
    }

    public func enqueue(_ batch: WriteBatch) {
        let image: Image? = phase.withLock { phase in
            switch phase {
            case .opening(var buffered):
                buffered.append(batch)
                phase = .opening(buffered: buffered)
                return nil
            case .open(let image):
                return image
            case .failed:
                return nil
            }
        }
        image?.enqueue(batch)
    }

    public func pendingKeys() -> Set<RecordKey> {
        let (image, buffered): (Image?, [WriteBatch]) = phase.withLock { phase in
            switch phase {
            case .opening(let buffered): (nil, buffered)
            case .open(let image): (image, [])
            case .failed: (nil, [])
            }
        }
        if let image { return image.pendingKeys() }
        var keys = Set<RecordKey>()
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
