/// A record's cells by slot, kept as one flat array sorted by slot number.
///
/// A record holds tens of cells, read by slot during walks and written a few at a time by
/// commits. A hash table per record cost an allocation sized by its scale, a hash per probe and a
/// copy of its table the first time a presized empty one was written; one sorted array costs an
/// allocation of the cells themselves, a binary search per probe and an append for cells met in
/// slot order (as a record's cells usually are: a process numbers slots as it first meets them).
///
/// It reads like the `[SlotID: Cell]` it replaced: a subscript by slot, `keys`, `values`, and
/// iteration as `(key:, value:)` pairs. The order of iteration is slot order, which depends on the
/// order the process met each storage key: as with a dictionary's, nothing deterministic may
/// depend on it (sort by ``SlotTable/name(of:)`` instead).
public struct CellTable: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// One cell and its slot.
    public struct Entry: Hashable, Sendable {
        /// The cell's slot.
        public let slot: SlotID
        /// The cell.
        public var cell: Cell

        @inlinable init(slot: SlotID, cell: Cell) {
            self.slot = slot
            self.cell = cell
        }
    }

    /// The cells in ascending slot order, one per slot.
    @usableFromInline var entries: [Entry]

    /// An empty table.
    @inlinable public init() {
        entries = []
    }

    /// An empty table with room for `minimumCapacity` cells.
    public init(minimumCapacity: Int) {
        entries = []
        entries.reserveCapacity(minimumCapacity)
    }

    /// A table of these cells; of two under one slot, the later wins.
    public init(dictionaryLiteral elements: (SlotID, Cell)...) {
        self.init(elements)
    }

    /// A table of these cells; of two under one slot, the later wins.
    public init<S: Sequence>(_ cells: S) where S.Element == (SlotID, Cell) {
        self.init(minimumCapacity: cells.underestimatedCount)
        for (slot, cell) in cells { self[slot] = cell }
    }

    /// The number of cells.
    @inlinable public var count: Int { entries.count }

    /// True when the table holds no cell.
    @inlinable public var isEmpty: Bool { entries.isEmpty }

    /// The slots, in slot order.
    public var keys: LazyMapSequence<[Entry], SlotID> { entries.lazy.map(\.slot) }

    /// The cells, in slot order.
    public var values: LazyMapSequence<[Entry], Cell> { entries.lazy.map(\.cell) }

    /// The cell of `slot`; setting `nil` removes it.
    @inlinable public subscript(slot: SlotID) -> Cell? {
        get {
            let (position, present) = find(slot)
            return present ? entries[position].cell : nil
        }
        set {
            // Cells met in slot order append: the common case for a record being built.
            if entries.last.map({ $0.slot.index < slot.index }) ?? true {
                if let newValue { entries.append(Entry(slot: slot, cell: newValue)) }
                return
            }
            let (position, present) = find(slot)
            switch (present, newValue) {
            case (true, let cell?): entries[position].cell = cell
            case (true, nil): entries.remove(at: position)
            case (false, let cell?): entries.insert(Entry(slot: slot, cell: cell), at: position)
            case (false, nil): break
            }
        }
    }

    /// Removes the cell of `slot`, returning it.
    @discardableResult
    public mutating func removeValue(forKey slot: SlotID) -> Cell? {
        let (position, present) = find(slot)
        return present ? entries.remove(at: position).cell : nil
    }

    /// The cells for which `isIncluded` is true.
    public func filter(_ isIncluded: ((key: SlotID, value: Cell)) throws -> Bool) rethrows -> CellTable {
        var kept = CellTable()
        kept.entries = try entries.filter { try isIncluded((key: $0.slot, value: $0.cell)) }
        return kept
    }

    /// True when both tables share one storage (copies of one table that neither has written to
    /// since): how the simulator tells that storage a checker holds was not changed in place.
    package func sharesStorage(with other: CellTable) -> Bool {
        unsafeBitCast(entries, to: UnsafeRawPointer.self) == unsafeBitCast(other.entries, to: UnsafeRawPointer.self)
    }

    /// The first position whose slot is not below `slot`, and whether `slot` is there.
    @inlinable func find(_ slot: SlotID) -> (position: Int, present: Bool) {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) >> 1
            if entries[middle].slot.index < slot.index { low = middle + 1 } else { high = middle }
        }
        return (low, low < entries.count && entries[low].slot == slot)
    }

    // MARK: Sequence

    /// Iterates the cells as `(key:, value:)` pairs in slot order.
    public struct Iterator: IteratorProtocol {
        @usableFromInline var base: IndexingIterator<[Entry]>

        @inlinable init(base: IndexingIterator<[Entry]>) {
            self.base = base
        }

        @inlinable public mutating func next() -> (key: SlotID, value: Cell)? {
            guard let entry = base.next() else { return nil }
            return (key: entry.slot, value: entry.cell)
        }
    }

    @inlinable public func makeIterator() -> Iterator {
        Iterator(base: entries.makeIterator())
    }

    @inlinable public var underestimatedCount: Int { entries.count }
}
