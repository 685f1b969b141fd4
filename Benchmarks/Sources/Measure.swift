import Foundation
import Synchronization

/// Durations of one timed body, in milliseconds, sorted; and in the order they were taken.
struct Samples {
    let values: [Double]
    /// Repetition by repetition: the i-th of two contenders of one interleaved loop ran in the same round.
    let inOrder: [Double]
    /// The interleaved loop that took them (``interleave(_:repetitions:warmUp:)``), nil for others.
    let loop: Int?

    init(_ values: [Double], loop: Int? = nil) {
        self.values = values.sorted()
        inOrder = values
        self.loop = loop
    }

    /// The median over repetitions of this round's time over `floor`'s in the same round: a
    /// ratio that a drift of the machine's speed during the loop moves least. Nil unless both
    /// were taken by one loop.
    func pairedRatio(over floor: Samples) -> Double? {
        guard let loop, loop == floor.loop, inOrder.count == floor.inOrder.count, !inOrder.isEmpty else { return nil }
        let ratios = zip(inOrder, floor.inOrder).map { $0 / $1 }.sorted()
        return ratios[ratios.count / 2]
    }

    var min: Double { values.first ?? .nan }
    var median: Double { values.isEmpty ? .nan : values[values.count / 2] }
}

/// One body timed in an interleaved loop: `prepare` and `finish` run outside the timing, before
/// and after each timed `run`.
struct Contender {
    let name: String
    var prepare: () throws -> Void = {}
    let run: () throws -> Void
    var finish: () throws -> Void = {}

    init(_ name: String, prepare: @escaping () throws -> Void = {}, finish: @escaping () throws -> Void = {}, run: @escaping () throws -> Void) {
        self.name = name
        self.prepare = prepare
        self.run = run
        self.finish = finish
    }
}

/// The monotonic clock, in nanoseconds.
func now() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
}

/// The process's CPU time (every thread), in seconds.
func processCPUSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// Times every contender once per repetition, in a rotating order, so a measure and its floor
/// see the same machine moment for moment (a loaded machine moves them together).
///
/// One warm-up round runs first and is not kept. Returns the samples in contender order.
func interleave(_ contenders: [Contender], repetitions: Int, warmUp: Int = 1) throws -> [Samples] {
    var samples = Array(repeating: [Double](), count: contenders.count)
    for round in 0..<(warmUp + repetitions) {
        for offset in 0..<contenders.count {
            let index = (round + offset) % contenders.count
            let contender = contenders[index]
            try contender.prepare()
            let start = now()
            try contender.run()
            let elapsed = Double(now() - start) / 1_000_000
            try contender.finish()
            if round >= warmUp { samples[index].append(elapsed) }
        }
    }
    let loop = loopsRun.add(1, ordering: .relaxed).newValue
    return samples.map { Samples($0, loop: loop) }
}

/// How many interleaved loops ran, to tell their samples apart.
private let loopsRun = Atomic<Int>(0)

/// Runs `body` `rounds` times for a profiler and prints its own best and median.
func profileLoop(_ name: String, rounds: Int, prepare: () throws -> Void = {}, _ body: () throws -> Void) throws {
    var values: [Double] = []
    for _ in 0..<rounds {
        try prepare()
        let start = now()
        try body()
        values.append(Double(now() - start) / 1_000_000)
    }
    let samples = Samples(values)
    print(String(format: "%@: best %.3f ms, median %.3f ms over %d rounds", name, samples.min, samples.median, rounds))
}
