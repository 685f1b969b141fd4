/// The slots of a ``SlotTable`` in UTF-8 order of their names, kept from one query of the ranks
/// to the next so that new names are placed among the old ones instead of sorting them all.
struct SlotOrder {
    /// Slot indices, their names in UTF-8 order.
    private var sorted: [Int32] = []

    /// Places every name of `names` past the ones already placed (slots are numbered in the
    /// order names are met, so the unplaced ones are the last). Names are distinct.
    mutating func place(_ names: [String]) {
        let placed = sorted.count
        guard placed < names.count else { return }
        var fresh = Array(Int32(placed)..<Int32(names.count))
        fresh.sort { utf8Precedes(names[Int($0)], names[Int($1)]) }
        if fresh.count > placed / 8 {
            // Many new names: merge the two sorted runs in one pass.
            sorted = Self.merge(sorted, fresh, names)
            return
        }
        // A few: each goes where a binary search puts it, after the one placed before it.
        var low = 0
        for index in fresh {
            var high = sorted.count
            while low < high {
                let middle = (low + high) / 2
                if utf8Precedes(names[Int(sorted[middle])], names[Int(index)]) {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            sorted.insert(index, at: low)
            low += 1
        }
    }

    /// Each placed slot's position in the order, indexed by slot.
    func ranks() -> [Int32] {
        var ranks = [Int32](repeating: 0, count: sorted.count)
        for (position, index) in sorted.enumerated() { ranks[Int(index)] = Int32(position) }
        return ranks
    }

    /// The two sorted runs `a` and `b` as one.
    private static func merge(_ a: [Int32], _ b: [Int32], _ names: [String]) -> [Int32] {
        var merged: [Int32] = []
        merged.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count && j < b.count {
            if utf8Precedes(names[Int(b[j])], names[Int(a[i])]) {
                merged.append(b[j])
                j += 1
            } else {
                merged.append(a[i])
                i += 1
            }
        }
        merged.append(contentsOf: a[i...])
        merged.append(contentsOf: b[j...])
        return merged
    }
}
