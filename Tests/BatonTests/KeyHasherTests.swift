import Testing
@testable import Baton

/// The record table's hash is taken in pieces (a type's `Type:` kept per shape, then an id), and
/// in one piece (a whole key): both must give the same hash, wherever the text is split.
@Suite("Ingest's key hash")
struct KeyHasherTests {
    @Test("a text taken in two pieces hashes as the whole text, for every split and every length up to 40 bytes")
    func splitsAgree() {
        var generator = GraphQLFixtures.Random(seed: 7)
        for length in 0...40 {
            let text = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let whole = text.withUnsafeBytes { RecordTable.hash($0) }
            for split in 0...length {
                var start = KeyHasher()
                text[..<split].withUnsafeBytes { start.combine($0) }
                let pieces = text[split...].withUnsafeBytes { RecordTable.hash($0, from: start) }
                #expect(pieces == whole, "length \(length), split at \(split)")
            }
        }
        #expect(RecordTable.hash("Character:1") == Array("Character:1".utf8).withUnsafeBytes { RecordTable.hash($0) })
    }

    @Test("keys that differ in one byte, in length alone, or by trailing zero bytes hash apart")
    func keysDiffer() {
        let keys = ["", "a", "a\u{0}", "a\u{0}\u{0}", "Character:1", "Character:2", "Character:10", "Character:01",
                    "client:root:repository(name:\"a\",owner:\"b\"):issues(first:100):edges:1:node",
                    "client:root:repository(name:\"a\",owner:\"b\"):issues(first:100):edges:2:node",
                    "12345678", "123456780", "1234567\u{0}"]
        let hashes = keys.map { RecordTable.hash($0) }
        #expect(Set(hashes).count == keys.count)
    }
}
