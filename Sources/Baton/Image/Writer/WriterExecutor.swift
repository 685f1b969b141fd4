import Dispatch
import Synchronization

/// Decides when the writer drains: the seam between production and the simulator.
package protocol WriterExecutor: Sendable {
    /// The writer has work (a batch was queued, or the check read rows to stamp): arrange for
    /// `writer.drain()` to run, now or later. Called on the caller's thread; must return at once.
    func writerHasWork(_ writer: ImageWriter)

    /// A drain has taken its work into flight (``ImageWriter/pendingKeys()`` still counts it) and
    /// is about to write it. Called on the drain's thread, holding the image's lock; production's
    /// executors do nothing here. The simulator's holds the drain at this point while the main
    /// actor goes on, as a real background drain lets it.
    func drainTookWork(_ writer: ImageWriter)
}

extension WriterExecutor {
    package func drainTookWork(_ writer: ImageWriter) {}
}

/// Production: drains on a serial background queue, retrying failed drains with a backoff.
///
/// After a failure the next attempt waits 10 ms, doubling up to 5 s; new work does not cut a
/// backoff short (it is drained with the retry). A drain that leaves an erase's checkpoint owed
/// (it failed) is retried the same way, so the erased pages leave the WAL without waiting for
/// the app's next commit.
package final class BackgroundWriterExecutor: WriterExecutor {
    private let queue: DispatchQueue
    /// True while a drain is queued or a retry is scheduled.
    private let scheduled = Mutex(false)

    package init(label: String = "baton.image.writer") {
        queue = DispatchQueue(label: label, qos: .utility)
    }

    package func writerHasWork(_ writer: ImageWriter) {
        let alreadyScheduled = scheduled.withLock { scheduled in
            defer { scheduled = true }
            return scheduled
        }
        guard !alreadyScheduled else { return }
        queue.async { self.run(writer, failures: 0) }
    }

    private func run(_ writer: ImageWriter, failures: Int) {
        scheduled.withLock { $0 = false }
        let result = writer.drain()
        let retries: Bool
        switch result {
        case .failed: retries = true
        case .committed, .nothingToDo: retries = writer.owesEraseCheckpoint
        case .stopped, .unavailable: retries = false
        }
        if retries {
            let alreadyScheduled = scheduled.withLock { scheduled in
                defer { scheduled = true }
                return scheduled
            }
            if alreadyScheduled { return }  // new work queued a run that will retry
            let delay = min(10 << min(failures, 16), 5_000)
            queue.asyncAfter(deadline: .now() + .milliseconds(delay)) {
                self.run(writer, failures: failures + 1)
            }
        }
    }

    /// Waits until every drain queued so far has run (for tests and for a clean quit).
    package func waitUntilIdle() {
        queue.sync {}
    }
}

/// A writer that drains only when asked: the simulator's and tests' executor. Open an image with
/// it (``Image/open(path:appVersion:executor:)``) and call ``Image/drainNow()`` where the writer
/// should land.
public struct ManualWriterExecutor: WriterExecutor {
    public init() {}
    package func writerHasWork(_ writer: ImageWriter) {}
}
