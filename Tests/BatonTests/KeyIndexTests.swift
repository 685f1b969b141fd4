@testable import Baton
import Testing

@Suite("Memory's key index")
struct KeyIndexTests {
    @Test("Keys keep their ids through growth; unknown keys have none; bytes decide equality")
    func idsThroughGrowth() {
        var index = KeyIndex()
        var keys: [RecordKey] = []
        func intern(_ key: RecordKey) -> Int32 {
            let found = index.claim(key, next: Int32(keys.count), in: keys)
            if found >= 0 { return found }
            keys.append(key)
            return Int32(keys.count - 1)
        }
        for number in 0..<5_000 {
            #expect(intern(RecordKey("Character:\(number)")) == Int32(number))
        }
        // Met again: the same id, nothing added.
        for number in stride(from: 0, to: 5_000, by: 7) {
            #expect(intern(RecordKey("Character:\(number)")) == Int32(number))
            #expect(index.id(of: RecordKey("Character:\(number)"), in: keys) == Int32(number))
        }
        #expect(keys.count == 5_000)
        #expect(index.id(of: RecordKey("Character:5000"), in: keys) == nil)
        #expect(index.id(of: RecordKey("Episode:1"), in: keys) == nil)
        // Canonically equivalent texts are two keys.
        let composed = intern(RecordKey("Character:\u{E9}"))
        let decomposed = intern(RecordKey("Character:e\u{301}"))
        #expect(composed != decomposed)
        #expect(index.id(of: RecordKey("Character:e\u{301}"), in: keys) == decomposed)
        // A reservation keeps what the table holds.
        index.reserveCapacity(50_000)
        #expect(index.id(of: RecordKey("Character:4999"), in: keys) == 4_999)
        #expect(index.id(of: RecordKey("Character:\u{E9}"), in: keys) == composed)
    }

    @Test("An empty index finds nothing")
    func emptyIndex() {
        #expect(KeyIndex().id(of: RecordKey("client:root"), in: []) == nil)
    }
}
