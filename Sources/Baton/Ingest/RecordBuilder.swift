/// One record's cells while a response is normalized.
///
/// Slots sit in a flat array searched linearly (an object has a handful of fields), which is
/// cheaper than hashing on every write when the same entity comes back many times in a response;
/// the change's dictionary is built once, at the end.
struct RecordBuilder {
    let key: RecordKey
    var typename: String
    var slots: [SlotID] = []
    var cells: [Cell] = []

    init(key: RecordKey, typename: String, capacity: Int) {
        self.key = key
        self.typename = typename
        slots.reserveCapacity(capacity)
        cells.reserveCapacity(capacity)
    }

    /// Where `slot`'s cell is, if the response wrote it already.
    @inline(__always)
    func position(of slot: SlotID) -> Int? {
        slots.firstIndex(of: slot)
    }

    /// Writes `cell` into `slot` (a later write wins).
    @inline(__always)
    mutating func write(_ slot: SlotID, _ cell: Cell) {
        if let position = position(of: slot) {
            cells[position] = cell
        } else {
            slots.append(slot)
            cells.append(cell)
        }
    }

    /// The record as the change set holds it.
    var change: RecordChange {
        var map: [SlotID: Cell] = [:]
        map.reserveCapacity(slots.count)
        for (slot, cell) in zip(slots, cells) { map[slot] = cell }
        return RecordChange(key: key, typename: typename, cells: map)
    }
}
