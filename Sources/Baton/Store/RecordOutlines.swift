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

    /// Records that `id` has no slots (it shares the empty outline); returns where it starts.
    mutating func writeEmpty(_ id: Int) -> Int {
        starts[id] = 0
        return 0
    }

    /// Starts `id`'s outline with `slots` (ascending, at least one) and returns where it starts.
    /// Each slot's targets follow in slot order through ``appendTarget(_:)``, and each slot is
    /// closed by ``closeSlot(_:at:)`` once its targets are in. Nothing else may be written to the
    /// arena until the last slot is closed.
    mutating func beginOutline<Slots: Collection<UInt32>>(_ id: Int, slots: Slots) -> Int {
        let start = arena.count
        arena.append(Int32(slots.count))
        for slot in slots { arena.append(Int32(bitPattern: slot)) }
        // Where each slot's targets end, filled as each slot closes.
        for _ in 0..<slots.count { arena.append(0) }
        starts[id] = Int32(start)
        return start
    }

    /// Appends a target of the slot being written.
    @inline(__always)
    mutating func appendTarget(_ target: Int32) {
        arena.append(target)
    }

    /// Closes the slot at `position` of the outline at `start`: its targets end here.
    @inline(__always)
    mutating func closeSlot(_ position: Int, at start: Int) {
        let count = Int(arena[start])
        arena[start + 1 + count + position] = Int32(arena.count - start)
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
