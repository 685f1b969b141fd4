/// A set of name ids, dense by id: marking is an array store, not a hash.
///
/// Name ids are small and dense (SQLite assigns the largest plus one); an id beyond a million,
/// which only a damaged file holds, is kept in a plain set.
struct NameIDSet {
    private var flags: [Bool] = []
    private var far: Set<Int> = []
    /// The ids in the order they were first marked.
    private(set) var members: [Int] = []

    static let denseLimit = 1 << 20

    /// Marks `id`.
    @inline(__always)
    mutating func insert(_ id: Int) {
        if id >= 0 && id < flags.count {
            if !flags[id] {
                flags[id] = true
                members.append(id)
            }
            return
        }
        insertSlow(id)
    }

    private mutating func insertSlow(_ id: Int) {
        if id >= 0 && id < Self.denseLimit {
            flags.append(contentsOf: repeatElement(false, count: id + 1 - flags.count))
            flags[id] = true
            members.append(id)
        } else if far.insert(id).inserted {
            members.append(id)
        }
    }

    mutating func formUnion(_ ids: some Sequence<Int>) {
        for id in ids { insert(id) }
    }

    var isEmpty: Bool { members.isEmpty }
}
