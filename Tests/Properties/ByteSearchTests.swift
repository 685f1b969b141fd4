import BatonSim
import Testing

/// The simulator's byte search (the erase's and the rot's), against a plain loop over every offset.
@Suite("Byte search: memchr and memcmp against every offset")
struct ByteSearchTests {
    /// Every offset at or after `start` where `needle` lies whole in `haystack`, the slow way.
    static func offsets(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> [Int] {
        guard start <= haystack.count - needle.count else { return [] }
        return (start...(haystack.count - needle.count)).filter { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    @Test("the first offset is the slow search's, from any start, for needles at the ends, repeated and absent")
    func againstEveryOffset() {
        let haystack = Array("aabaabaaab-aab".utf8)
        let needles = ["aab", "b", "ab-a", "aaab", "ba", "-", "aab-aabx", "x", "aabaabaaab-aab"].map { Array($0.utf8) }
        for needle in needles {
            for start in 0...haystack.count {
                #expect(
                    ByteSearch.firstOffset(of: needle[...], in: haystack, from: start) == Self.offsets(of: needle, in: haystack, from: start).first,
                    "\(String(decoding: needle, as: UTF8.self)) from \(start)")
            }
        }
        #expect(ByteSearch.firstOffset(of: [][...], in: haystack, from: 3) == 3)
        #expect(ByteSearch.firstOffset(of: Array("a".utf8)[...], in: [], from: 0) == nil)
    }

    @Test("the only occurrence is found once, and nothing when there are two")
    func onlyOccurrence() {
        let haystack = Array("xyz-abc-xyz".utf8)
        #expect(Simulation.onlyOccurrence(of: Array("abc".utf8), in: haystack) == 4)
        #expect(Simulation.onlyOccurrence(of: Array("xyz".utf8), in: haystack) == nil)
        #expect(Simulation.onlyOccurrence(of: Array("q".utf8), in: haystack) == nil)
    }
}
