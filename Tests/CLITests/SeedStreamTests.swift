import BatonSim
import Testing

@Suite("Seed streams: nothing is listed")
struct SeedStreamTests {
    @Test("shards of a range run every seed once", arguments: [1, 2, 3, 7])
    func partition(count: Int) {
        var seen: [UInt64] = []
        for index in 0..<count {
            let stream = SeedStream(first: 100, last: 130, shard: Shard(index: index, count: count)!)
            var position: UInt64 = 0
            while let seed = stream.seed(at: position) {
                seen.append(seed)
                position += 1
            }
            #expect(stream.count == position)
        }
        #expect(seen.sorted() == Array(100...130))
    }

    @Test("a job's slices of a shard are the shard")
    func split() {
        let shard = Shard(index: 1, count: 3)!
        let parts = shard.split(into: 2)
        #expect(parts == [Shard(index: 1, count: 6)!, Shard(index: 4, count: 6)!])
        let whole = SeedStream(first: 0, last: 99, shard: shard)
        let fromParts = parts.flatMap { part -> [UInt64] in
            let stream = whole.sharded(part)
            return (0..<stream.count!).compactMap { stream.seed(at: $0) }
        }
        #expect(fromParts.sorted() == (0..<whole.count!).compactMap { whole.seed(at: $0) })
    }

    @Test("a range of billions, or every seed there is, costs nothing to count or to walk")
    func huge() {
        let billion = SeedStream(first: 0, last: 1_000_000_000, shard: Shard(index: 2, count: 7)!)
        #expect(billion.count == 142_857_143)
        #expect(billion.seed(at: 142_857_142) == 999_999_996)
        #expect(billion.seed(at: 142_857_143) == nil)
        let everything = SeedStream(first: 0, last: UInt64.max)
        #expect(everything.count == nil, "2^64 seeds do not fit a count")
        #expect(everything.seed(at: UInt64.max) == UInt64.max)
        let open = SeedStream(first: UInt64.max - 1, last: nil)
        #expect(open.seed(at: 1) == UInt64.max)
        #expect(open.seed(at: 2) == nil)
        #expect(open.count == nil)
    }

    @Test("--seeds spells it back")
    func description() {
        #expect(SeedStream(first: 3, last: 9).description == "3..9")
        #expect(SeedStream(first: 3, last: nil).description == "3..")
        #expect(Shard(index: 0, count: 4)!.description == "1/4")
        #expect(Shard(index: 4, count: 4) == nil)
    }
}
