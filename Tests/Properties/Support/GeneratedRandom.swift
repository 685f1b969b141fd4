/// The generator's own pseudo-random stream: SplitMix64, with every derived draw written out here.
///
/// Nothing uses the standard library's random APIs (their algorithms may change between Swift
/// versions) or the iteration order of dictionaries and sets, so a seed gives the same operation
/// and response in every process, on every platform.
struct GenRandom {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits (SplitMix64, Steele, Lea and Flood 2014).
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A stream of its own, seeded from this one: draws made from it do not shift this stream.
    mutating func split() -> GenRandom {
        GenRandom(seed: next())
    }

    /// An integer in `0..<bound` (`bound` > 0); the tiny modulo bias does not matter here.
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "below(\(bound))")
        return Int(next() % UInt64(bound))
    }

    /// An integer in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// True `percent` times in a hundred.
    mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }

    /// One element of a non-empty array.
    mutating func pick<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }

    /// An index chosen with the given weights (non-negative, not all zero).
    mutating func weighted(_ weights: [Int]) -> Int {
        let total = weights.reduce(0, +)
        precondition(total > 0, "weights must not all be zero")
        var roll = below(total)
        for (index, weight) in weights.enumerated() {
            if roll < weight { return index }
            roll -= weight
        }
        return weights.count - 1
    }

    /// The items in a random order (Fisher–Yates, drawn from this stream).
    mutating func shuffled<T>(_ items: [T]) -> [T] {
        var out = items
        var i = out.count - 1
        while i > 0 {
            let j = below(i + 1)
            out.swapAt(i, j)
            i -= 1
        }
        return out
    }
}
