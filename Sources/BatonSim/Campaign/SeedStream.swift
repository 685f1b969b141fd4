/// One slice of a campaign: the `index`-th (from 0) of `count` interleaved slices of its seeds.
package struct Shard: Hashable, Sendable, CustomStringConvertible {
    package let index: Int
    package let count: Int

    /// The whole campaign, one slice.
    package static let whole = Shard(validIndex: 0, count: 1)

    /// Nil unless `0 ≤ index < count`.
    package init?(index: Int, count: Int) {
        guard count >= 1, index >= 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    private init(validIndex: Int, count: Int) {
        index = validIndex
        self.count = count
    }

    /// This slice cut into `parts` slices, one per job: together they run exactly its seeds.
    package func split(into parts: Int) -> [Shard] {
        (0..<max(parts, 1)).map { part in Shard(validIndex: index + count * part, count: count * max(parts, 1)) }
    }

    /// `I/N`, counting from 1 as `--shard` does.
    package var description: String { "\(index + 1)/\(count)" }
}

/// The seeds one shard of a campaign runs, produced one at a time: a range `first...last`, or
/// every seed from `first` on when `last` is nil. Nothing is ever listed, so a range of a billion
/// seeds costs what a range of ten does.
package struct SeedStream: Hashable, Sendable, CustomStringConvertible {
    package var first: UInt64
    /// The last seed of the range, or nil for an open-ended stream.
    package var last: UInt64?
    package var shard: Shard

    package init(first: UInt64, last: UInt64?, shard: Shard = .whole) {
        self.first = first
        self.last = last
        self.shard = shard
    }

    /// The same seeds, another shard.
    package func sharded(_ shard: Shard) -> SeedStream {
        SeedStream(first: first, last: last, shard: shard)
    }

    /// How many seeds this shard runs; nil for an open-ended stream (or one too long to count).
    package var count: UInt64? {
        guard let last else { return nil }
        let span = last - first
        let step = UInt64(shard.count), offset = UInt64(shard.index)
        guard offset <= span else { return 0 }
        let (total, overflow) = ((span - offset) / step).addingReportingOverflow(1)
        return overflow ? nil : total
    }

    /// The seed at `position` in this shard's order, or nil past the end.
    package func seed(at position: UInt64) -> UInt64? {
        let (stride, o1) = position.multipliedReportingOverflow(by: UInt64(shard.count))
        let (offset, o2) = stride.addingReportingOverflow(UInt64(shard.index))
        let (seed, o3) = first.addingReportingOverflow(offset)
        guard !o1, !o2, !o3 else { return nil }
        if let last, seed > last { return nil }
        return seed
    }

    /// `A..B` or `A..`, as `--seeds` takes it.
    package var description: String { "\(first).." + (last.map { "\($0)" } ?? "") }
}
