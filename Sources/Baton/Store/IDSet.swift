/// A set of record ids: what a walk marks, without hashing or allocating per record.
///
/// The first few ids live in a short list, so a walk that reaches a handful of records costs no
/// more than they do; past that, one bit per id memory has handed out (an id handed out later, a
/// link target met during the walk, grows the bits).
struct IDSet {
    private var few: [Int] = []
    private var words: [UInt64] = []
    private let capacity: Int

    private static let fewLimit = 32

    init(capacity: Int) {
        self.capacity = capacity
    }

    @inline(__always)
    func contains(_ id: Int) -> Bool {
        if words.isEmpty { return few.contains(id) }
        let word = id >> 6
        return word < words.count && words[word] & (1 << UInt64(id & 63)) != 0
    }

    /// Inserts `id`; true when it was not there yet.
    @inline(__always)
    @discardableResult
    mutating func insert(_ id: Int) -> Bool {
        if words.isEmpty {
            if few.contains(id) { return false }
            if few.count < Self.fewLimit {
                few.append(id)
                return true
            }
            spread()
        }
        let word = id >> 6
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: word + 1 - words.count)) }
        let bit: UInt64 = 1 << UInt64(id & 63)
        if words[word] & bit != 0 { return false }
        words[word] |= bit
        return true
    }

    /// Moves the short list into bits.
    private mutating func spread() {
        let bound = max(capacity, (few.max() ?? 0) + 1)
        words = Array(repeating: 0, count: (bound + 63) >> 6)
        for id in few { words[id >> 6] |= 1 << UInt64(id & 63) }
        few = []
    }
}
