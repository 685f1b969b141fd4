import Baton
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The child of `baton stress`: the real store over the real image, opened as an app opens it
/// (``OpeningImage``, the production background writer), committing a workload's responses as
/// fast as it can until the parent kills it.
///
/// It reports on standard output, one line each, written with one `write(2)` so a kill never
/// leaves half a line:
/// - `opened G`: the image opened at generation G;
/// - `committed I`: `Store.commit` of step I returned;
/// - `drained I`: a drain committed everything steps 0…I handed the writer (after step I's commit
///   returned, the writer had committed a drain and had nothing queued or in flight);
/// - `idle`: every step committed and drained; the child then waits to be killed;
/// - `failed MESSAGE`: the child cannot go on (it exits 1).
package enum StressChild {
    /// The application version the stress child writes its image as.
    package static let appVersion = "baton-stress-1"

    /// Runs the child: opens `imagePath` (its writer checkpointing at `checkpointPages`), commits
    /// `workload`, reports, then waits forever.
    @MainActor
    package static func run(
        world: World, workload: StressWorkload, imagePath: String, mutant: Mutant?,
        checkpointPages: Int = ImageSchema.defaultCheckpointPages
    ) -> Never {
        let reporter = StressLineWriter()
        let plans: WorldPlans
        do {
            plans = try WorldPlans(world: world, mutant: mutant)
        } catch {
            reporter.fail("the world's plans do not build: \(error)")
        }
        var configuration = ImageConfiguration(checkpointPages: checkpointPages)
        #if BATON_MUTANTS
        configuration.mutant = mutant.flatMap(ImageMutant.init(mutant:))
        #endif
        let openConfiguration = configuration
        let opening = OpeningImage(
            queue: DispatchQueue.global(qos: .userInitiated), eraseMark: EraseMark.Place(path: imagePath, vfs: nil)
        ) { () throws(ImageError) -> Image in
            try Image.open(path: imagePath, appVersion: appVersion, configuration: openConfiguration)
        }
        let clock = StressClock()
        let store = Store(image: opening, clock: clock, configuration: .init(collectsAutomatically: false, mutant: mutant))
        let progress = StressProgress()
        let monitor = Thread { watchDrains(opening: opening, progress: progress, reporter: reporter) }
        monitor.start()

        for (index, step) in workload.steps.enumerated() {
            if step.isErase {
                store.erase()
                progress.returned(index)
                reporter.line("committed \(index)")
                if step.pauseMicroseconds > 0 { usleep(UInt32(step.pauseMicroseconds)) }
                continue
            }
            guard let plan = plans.plan(step.operation) else { reporter.fail("step \(index): no operation \(step.operation)") }
            let changeSet: ChangeSet
            do {
                changeSet = try Ingest.normalize(plan: plan, variables: try plan.variables(step.variables), response: step.response, mutant: mutant)
            } catch {
                reporter.fail("step \(index): \(step.operation) does not ingest: \(error)")
            }
            clock.set(step.now)
            store.commit(changeSet)
            progress.returned(index)
            reporter.line("committed \(index)")
            if step.pauseMicroseconds > 0 { usleep(UInt32(step.pauseMicroseconds)) }
        }
        progress.finished(workload.steps.count - 1)
        while true { sleep(60) }
    }

    /// The drain monitor: once the image is open, reports `opened`, then polls the writer and
    /// reports how far the drains have reached, and `idle` once the last step is drained.
    private static func watchDrains(opening: OpeningImage, progress: StressProgress, reporter: StressLineWriter) {
        guard let image = opening.wait() else {
            reporter.fail("the image did not open: \(opening.openError.map { "\($0)" } ?? "unknown")")
        }
        reporter.line("opened \(image.generation) \(image.opening)")
        var reported = -1
        while true {
            // Read how far commits returned before looking at the writer: a batch handed over
            // before `returned` was read is drained when nothing is queued or in flight after,
            // once a drain has committed at all (before that, steps that handed the writer
            // nothing leave it empty with the launch's eviction still to come).
            let (returned, last) = progress.read()
            let status = image.writer.status
            if status.pendingItems == 0, status.queuedBatches == 0, !status.wipePending, status.lastError == nil {
                if status.commits > 0, returned > reported {
                    reporter.line("drained \(returned)")
                    reported = returned
                }
                if let last, returned == last {
                    reporter.line("idle")
                    return
                }
            }
            usleep(300)
        }
    }
}

/// The child's clock: the fetch time of the step being committed (the seam the simulator swaps
/// too), so the parent knows every fetch time the image may hold.
final class StressClock: StoreClock {
    private let time = Mutex(0.0)

    func set(_ now: Double) {
        time.withLock { $0 = now }
    }

    func now() -> Double {
        time.withLock { $0 }
    }
}

/// How far the child's commits got, shared with the drain monitor.
final class StressProgress: Sendable {
    private let state = Mutex<(returned: Int, last: Int?)>((-1, nil))

    func returned(_ index: Int) {
        state.withLock { $0.returned = index }
    }

    func finished(_ last: Int) {
        state.withLock { $0.last = last }
    }

    func read() -> (returned: Int, last: Int?) {
        state.withLock { $0 }
    }
}

/// Writes the child's report lines to standard output, each with one `write(2)`.
final class StressLineWriter: Sendable {
    private let lock = Mutex(())

    func line(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        lock.withLock { _ in
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
                if written <= 0 { return }
                offset += written
            }
        }
    }

    func fail(_ message: String) -> Never {
        line("failed " + message.split(whereSeparator: \.isNewline).joined(separator: " / "))
        exit(1)
    }
}
