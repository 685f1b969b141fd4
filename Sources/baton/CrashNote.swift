import Foundation

/// The line a campaign leaves on standard error should its process die of a fault while a seed
/// runs (a trap in the store or the simulator, a bad memory access): which seed, and the command
/// that reruns it. Without it such a death left an exit status and no seed at all.
///
/// The line is written into a buffer before each seed, so the signal handler only has to call
/// `write`, which is safe there; then the signal's default action ends the process. The handler
/// takes the place of the Swift runtime's backtracer in a campaign; the rerun the line names
/// (`sim run`, which installs none) prints the backtrace.
enum CrashNote {
    private static let capacity = 4096
    nonisolated(unsafe) private static let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    nonisolated(unsafe) private static var length = 0

    /// Catches the signals a fault raises: SIGILL (Swift's traps), SIGTRAP, SIGABRT, SIGSEGV,
    /// SIGBUS and SIGFPE.
    static func install() {
        for number in [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE] {
            signal(number, crashNoteHandler)
        }
    }

    /// The line to write if the process dies now (cut to the buffer's size).
    static func set(_ line: String) {
        length = 0
        let bytes = Array((line + "\n").utf8.prefix(capacity))
        bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: $0.count) }
        length = bytes.count
    }

    /// The line for a death while the regressions folder replays, before any seed.
    static let duringRegressions = "baton: the process died while replaying the regressions folder; no report was written; "
        + "run the seeds with --regressions none, and each file with sim replay, to find it"

    /// Nothing to write: a job of `--jobs`, whose parent reports the seed its death interrupted.
    static func clear() {
        length = 0
    }

    /// Writes the line; called only from the signal handler.
    fileprivate static func writeOut() {
        var written = 0
        while written < length {
            let result = write(2, buffer + written, length - written)
            if result <= 0 { return }
            written += result
        }
    }
}

/// Writes the campaign's crash note, then lets the signal end the process as it would have.
private func crashNoteHandler(_ number: Int32) {
    CrashNote.writeOut()
    signal(number, SIG_DFL)
    raise(number)
}
