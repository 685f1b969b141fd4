/// Every record's outline, in one array of integers: which slots the record has, and for each,
/// the records it links to as ids. What walks read instead of the records themselves.
///
/// An outline is `[slotCount, slot₀ … slotₙ₋₁, end₀ … endₙ₋₁, targets…]`: the record's slots in
/// ascending order, then where each slot's targets end, counted from the outline's start; slot
/// `i`'s targets lie from `endᵢ₋₁` (from the first target for `i = 0`) up to `endᵢ`. A slot that
/// holds no link has no targets. Null entries of a list are left out and nested lists are
/// flattened, in the value's order. Records without cells share the empty outline at offset 0.
///
/// An outline is written when a walk first needs it and forgotten when the record's data
/// changes; the space of forgotten outlines is reclaimed outside walks, when it is most of the
/// array.
struct RecordOutlines {
    private(set) var arena: [Int32] = [0]
    /// Each id's outline, -1 when not written.
    private var starts: [Int32] = []
    /// Words of forgotten outlines.
    private var waste = 0

    mutating func reserveCapacity(_ capacity: Int) {
        starts.reserveCapacity(capacity)
    }

    /// Room for one more id, its outline not written.
    mutating func appendID() {
        starts.append(-1)
    }

    /// Where `id`'s outline starts, -1 when not written.
    @inline(__always)
    func start(of id: Int) -> Int {
        Int(starts[id])
    }

    /// Drops `id`'s outline (its data changed).
    mutating func forget(_ id: Int) {
        let start = Int(starts[id])
        guard start >= 0 else { return }
        waste += length(at: start)
        starts[id] = -1
    }

    /// Writes `id`'s outline from its slots (ascending), where each slot's targets end within
    /// `targets`, and the targets; returns where it starts.
    mutating func write(_ id: Int, slots: [UInt32], ends: [Int32], targets: [Int32]) -> Int {
        guard !slots.isEmpty else {
            starts[id] = 0
            return 0
        }
        let start = arena.count
        let count = slots.count
        let header = 1 + 2 * count
        // Grown once for the whole outline, then filled in place (an append per word checked
        // the buffer's uniqueness and capacity each time).
        arena.append(contentsOf: repeatElement(0, count: header + targets.count))
        arena.withUnsafeMutableBufferPointer { words in
            let outline = UnsafeMutableBufferPointer(rebasing: words[start...])
            outline[0] = Int32(count)
            for index in 0..<count {
                outline[1 + index] = Int32(bitPattern: slots[index])
                outline[1 + count + index] = ends[index] + Int32(header)
            }
            for index in targets.indices { outline[header + index] = targets[index] }
        }
        starts[id] = Int32(start)
        return start
    }

    /// The position of `slot` in the outline at `start`, or -1 when the record lacks it.
    @inline(__always)
    func position(of slot: SlotID, at start: Int) -> Int {
        let wanted = Int32(bitPattern: slot.index)
        var low = 0
        var high = Int(arena[start])
        while low < high {
            let middle = (low + high) >> 1
            let found = arena[start + 1 + middle]
            if found == wanted { return middle }
            if found < wanted { low = middle + 1 } else { high = middle }
        }
        return -1
    }

    /// Where the targets of the slot at `position` (from ``position(of:at:)``) lie.
    @inline(__always)
    func targets(at start: Int, position: Int) -> Range<Int> {
        let count = Int(arena[start])
        let from = position == 0 ? 1 + 2 * count : Int(arena[start + count + position])
        return (start + from)..<(start + Int(arena[start + 1 + count + position]))
    }

    /// Where the targets of `slot` lie in the outline at `start`; empty when the record lacks the
    /// slot or the slot links nowhere.
    @inline(__always)
    func targets(at start: Int, slot: SlotID) -> Range<Int> {
        let position = position(of: slot, at: start)
        return position < 0 ? 0..<0 : targets(at: start, position: position)
    }

    /// The target id at `position` (within a range from ``targets(at:slot:)``).
    @inline(__always)
    subscript(position: Int) -> Int {
        Int(arena[position])
    }

    private func length(at start: Int) -> Int {
        guard start > 0 else { return 0 }
        let count = Int(arena[start])
        return Int(arena[start + 2 * count])
    }

    /// Copies the live outlines into a fresh array when forgotten ones are most of it.
    mutating func reclaimIfWasteful() {
        guard waste > 4096, waste * 2 > arena.count else { return }
        var fresh: [Int32] = [0]
        fresh.reserveCapacity(arena.count - waste)
        for id in starts.indices where starts[id] > 0 {
            let start = Int(starts[id])
            starts[id] = Int32(fresh.count)
            fresh.append(contentsOf: arena[start..<(start + length(at: start))])
        }
        arena = fresh
        waste = 0
    }
}
