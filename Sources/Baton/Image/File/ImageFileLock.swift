import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock that makes "one image per file per process" hold across processes: an exclusive
/// `flock` on a file beside the image (`<image>-lock`), held from before the image is classified
/// until after its connection is closed.
///
/// A separate file, never deleted, so that the image's own files can be deleted and created again
/// under the lock, and so that no descriptor of the database file is ever closed behind SQLite's
/// back (closing any descriptor of a file drops every POSIX lock the process holds on it, SQLite's
/// included; `flock` locks and SQLite's `fcntl` locks do not interact). It is created only once
/// the path is known not to hold someone else's database. The kernel releases it when the process
/// ends, however it ends. Local file systems only: over NFS, Linux emulates `flock` with `fcntl`.
final class ImageFileLock: Sendable {
    private let descriptor: Int32
    private let released = Mutex(false)

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        release()
    }

    /// The lock file of the image at `path`.
    static func lockPath(forImage path: String) -> String {
        path + "-lock"
    }

    /// Takes the lock of the image at `path`, waiting up to `waitMilliseconds` for another process
    /// to give it up.
    ///
    /// - Throws: ``ImageError/inUse(path:)`` when the wait ends first;
    ///   ``ImageError/cannotCreateFile(path:errno:)`` when the lock file cannot be opened.
    static func acquire(imagePath path: String, waitMilliseconds: Int) throws(ImageError) -> ImageFileLock {
        let lockPath = lockPath(forImage: path)
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ImageError.cannotCreateFile(path: lockPath, errno: errno) }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(waitMilliseconds, 0)) * 1_000_000
        var pause: UInt32 = 1_000
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return ImageFileLock(descriptor: descriptor) }
            let code = errno
            if code == EINTR { continue }
            guard code == EWOULDBLOCK || code == EAGAIN else {
                close(descriptor)
                throw ImageError.cannotCreateFile(path: lockPath, errno: code)
            }
            guard DispatchTime.now().uptimeNanoseconds < deadline else {
                close(descriptor)
                throw ImageError.inUse(path: path)
            }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
    }

    /// Gives the lock up (closing its descriptor), once.
    func release() {
        let first = released.withLock { released in
            defer { released = true }
            return !released
        }
        if first { close(descriptor) }
    }
}
