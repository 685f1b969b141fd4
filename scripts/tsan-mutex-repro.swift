// Why scripts/tsan-suppressions.txt exists, in a few lines (Swift 6.3.1, Linux):
//
//   swiftc -sanitize=thread -g scripts/tsan-mutex-repro.swift -o /tmp/repro && /tmp/repro
//     → "WARNING: ThreadSanitizer: Swift access race" inside withLock: a false positive, since
//       Synchronization.Mutex's futex lock is invisible to TSan.
//   TSAN_OPTIONS=suppressions=$PWD/scripts/tsan-suppressions.txt /tmp/repro
//     → clean.
//   TSAN_OPTIONS=suppressions=$PWD/scripts/tsan-suppressions.txt /tmp/repro unguarded
//     → still reports the real race on `unguarded`.
import Dispatch
import Synchronization

final class Box: Sendable {
    let values = Mutex<[Int]>([])
}

nonisolated(unsafe) var unguarded = 0
let racesForReal = CommandLine.arguments.contains("unguarded")
let box = Box()
let group = DispatchGroup()
for thread in 0..<4 {
    DispatchQueue.global().async(group: group) {
        for index in 0..<20_000 {
            box.values.withLock { $0.append(index + thread) }
            box.values.withLock { if $0.count > 10 { $0 = [] } }
            if racesForReal { unguarded += 1 }
        }
    }
}
group.wait()
print("done")
