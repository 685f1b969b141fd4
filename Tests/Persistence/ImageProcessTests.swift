import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Baton

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Another process's hold on an image, played by this one: `flock` locks belong to an open file
/// description, so a descriptor of our own conflicts with the image's as another process's would.
final class OtherProcessLock {
    private var descriptor: Int32

    init(image path: String) throws {
        descriptor = open(ImageFileLock.lockPath(forImage: path), O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0, flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { throw ImageTestFailure("cannot take the lock") }
    }

    /// The lock, taken once it is free within `seconds`. A test that spawns processes (this suite's
    /// writer race, the CLI tests) forks: until the child execs, it shares every descriptor, the
    /// image's lock too (`O_CLOEXEC` closes it only at exec), so a lock just given up can stay
    /// held for a moment by a child of another test. Given up means free once that moment passes.
    static func whenFree(image path: String, seconds: Double = 5) throws -> OtherProcessLock {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        while true {
            do {
                return try OtherProcessLock(image: path)
            } catch where DispatchTime.now().uptimeNanoseconds < deadline {
                usleep(5_000)
            }
        }
    }

    func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}

/// Issue 9, broken promise 3: two processes on one image. One image per file per process holds
/// across processes: a second process waits for the first, and past the wait runs without the
/// image; creation, the schema and the generations are one process's at a time.
@Suite("Two processes on one image")
struct ImageProcessTests {
    @Test("while another process has the image, an open waits for it, then opens the file it left")
    func openWaitsForTheOtherProcess() throws {
        let directory = try ImageTestDirectory()
        let path = directory.path()
        let other = try OtherProcessLock(image: path)
        let opened = Mutex<(Image?, Double)>((nil, 0))
        let done = DispatchSemaphore(value: 0)
        let started = DispatchTime.now().uptimeNanoseconds
        DispatchQueue.global().async {
            let image = try? openTestImage(path, lockWaitMilliseconds: 10_000)
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
            opened.withLock { $0 = (image, elapsed) }
            done.signal()
        }
        usleep(300_000)
        #expect(opened.withLock { $0.0 } == nil, "the open did not wait for the other process")
        #expect(!FileManager.default.fileExists(atPath: path), "the file was created under the other process's lock")
        other.release()
        done.wait()
        let (image, elapsed) = opened.withLock { $0 }
        let waited = try #require(image)
        #expect(elapsed >= 250)
        #expect(waited.opening == .created)
        waited.close()
    }

    @Test("past the wait, the open throws inUse and an OpeningImage leaves the store without an image")
    func pastTheWait() throws {
        let directory = try ImageTestDirectory()
        let path = directory.path()
        let first = try openTestImage(path)
        first.enqueue(WriteBatch(snapshots: [snapshot("User:1", "User", ["name": .string("A")], hydrated: true)]))
        try first.drainCommitted()
        first.close()
        let other = try OtherProcessLock.whenFree(image: path)
        #expect(throws: ImageError.inUse(path: path)) { try openTestImage(path, lockWaitMilliseconds: 50) }
        let opening = OpeningImage(queue: DispatchQueue(label: "open")) { () throws(ImageError) -> Image in
            try Image.open(
                path: path, appVersion: "1.0",
                configuration: ImageConfiguration(executor: ManualWriterExecutor(), lockWaitMilliseconds: 50))
        }
        #expect(opening.wait() == nil)
        #expect(opening.openError == .inUse(path: path))
        other.release()
        let again = try openTestImage(path)
        #expect(again.generation == 2)
        #expect(cellsOf(again.readRecord("User:1")) == ["name": .string("A")])
        again.close()
    }

    @Test("the lock is held for the image's life and given up by close, by abandon, and when the image is dropped")
    func lockLifetime() throws {
        let directory = try ImageTestDirectory()
        let path = directory.path()
        let image = try openTestImage(path)
        #expect(throws: ImageTestFailure.self) { try OtherProcessLock(image: path) }
        image.close()
        try OtherProcessLock.whenFree(image: path).release()
        let abandoned = try openTestImage(path)
        abandoned.abandon()
        try OtherProcessLock.whenFree(image: path).release()
        do { _ = try openTestImage(path).generation }
        try OtherProcessLock.whenFree(image: path).release()
    }

    @Test("pairs of baton image write processes started together: both succeed, nothing lost or aged out")
    func concurrentWriters() throws {
        let executable = try #require(BatonProcess.executable, "the baton executable is built beside the tests")
        let directory = try ImageTestDirectory()
        let outcome = ImageWriterRace.run(executable: executable, directory: directory.url.path, pairs: 4)
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        #expect(outcome.clean == 4)
    }
}
