/// The simulator's random source: SplitMix64, seeded, with a fixed algorithm so that a seed means
/// the same run on every machine and in every process.
///
/// Each subsystem draws from its own stream (``split(_:)``), so adding a draw in one place does not
/// shift the choices of another.
package struct SimRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// An independent stream for the subsystem `label`, derived from this generator's seed state.
    package func split(_ label: String) -> SimRandom {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in label.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        var mixer = SimRandom(seed: state ^ hash)
        return SimRandom(seed: mixer.next())
    }

    /// A whole number in `range`.
    package mutating func int(_ range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next() % span)
    }

    /// True with probability `p`.
    package mutating func chance(_ p: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < p
    }

    /// One element of a non-empty array.
    package mutating func pick<T>(_ items: [T]) -> T {
        items[int(0...(items.count - 1))]
    }

    /// An index drawn with the given weights (all zero: the first index).
    package mutating func weighted(_ weights: [Int]) -> Int {
        let total = weights.reduce(0, +)
        guard total > 0 else { return 0 }
        var roll = int(0...(total - 1))
        for (index, weight) in weights.enumerated() {
            if roll < weight { return index }
            roll -= weight
        }
        return weights.count - 1
    }
}

/// FNV-1a, 64 bits: the trace hash (stable across processes, unlike `Hasher`).
package struct TraceHasher: Sendable {
    package private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    package init() {}

    package mutating func combine(_ text: String) {
        // A native string's bytes are contiguous: hash them from the buffer (the same bytes in
        // the same order as walking its UTF-8 view, without the view's per-byte indexing).
        value = text.utf8.withContiguousStorageIfAvailable { Self.fold($0, into: value) }
            ?? Self.fold(text.utf8, into: value)
        value = Self.fold(CollectionOfOne(0x0A), into: value)
    }

    /// `hash` continued over `bytes`.
    @inline(__always)
    private static func fold(_ bytes: some Sequence<UInt8>, into hash: UInt64) -> UInt64 {
        var hash = hash
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    package var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
