/// The cells of every record a normalize call builds, in one array: each record owns a block of
/// it, made at its shape's size, so that the records of a response cost one growing allocation
/// instead of one each (a large response has hundreds of records, most written once).
///
/// A block that fills up (a record written by a second, larger selection) moves to the end,
/// twice as large; the fields it leaves behind are unused.
struct CellPool {
    private(set) var fields: [RecordBuilder.Field] = []

    /// A pool for a response of `bytes` bytes, with room for a field per 128 of them (at most
    /// 65,536 fields, 2.5 MiB, reserved ahead), so that most responses never copy it to grow.
    init(responseBytes bytes: Int) {
        fields.reserveCapacity(min(bytes / 128, 1 << 16))
    }

    /// A new block of `capacity` unused fields; its start.
    mutating func block(capacity: Int) -> Int {
        let start = fields.count
        for _ in 0..<capacity { fields.append(.unused) }
        return start
    }

    /// Where `slot`'s cell of `record` is in ``fields``, if the response wrote it already.
    @inline(__always)
    func position(of slot: SlotID, in record: RecordBuilder) -> Int? {
        position(of: slot, start: record.start, count: record.count)
    }

    /// Where `slot`'s cell is in ``fields``, if the response wrote it already, for the record whose
    /// block starts at `start` and holds `count` cells (two integers read out of the record in
    /// place: a record copied out of an array costs its references' counting).
    @inline(__always)
    func position(of slot: SlotID, start: Int, count: Int) -> Int? {
        fields.withUnsafeBufferPointer { fields in
            var i = start
            let end = start + count
            while i < end {
                if fields[i].slot == slot { return i }
                i += 1
            }
            return nil
        }
    }

    /// Writes `value` into `record`'s `slot` (a later write wins); `span` is where a string
    /// value's text lies.
    @inline(__always)
    mutating func write(_ slot: SlotID, _ value: Value, span: TextSpan = .none, into record: inout RecordBuilder) {
        if slot.index == record.keySlot { record.keySlot = .max }
        record.lastText = nil
        if let position = position(of: slot, in: record) {
            fields[position].value = value
            fields[position].span = span
            return
        }
        if record.count == record.capacity { grow(&record) }
        fields[record.start + record.count] = RecordBuilder.Field(slot: slot, span: span, value: value)
        record.count += 1
    }

    /// Moves a full block to the end, twice as large (at least four fields).
    private mutating func grow(_ record: inout RecordBuilder) {
        let capacity = max(4, record.capacity * 2)
        let start = block(capacity: capacity)
        for i in 0..<record.count {
            fields.swapAt(record.start + i, start + i)
        }
        record.start = start
        record.capacity = capacity
    }

    /// Puts `error` beside `record`'s `slot` value, after any placed there already, making the
    /// cell (null) when the response has none. With `replacing` (a mutant) it takes the place of those.
    mutating func place(_ error: FieldError, on slot: SlotID, in record: inout RecordBuilder, replacing: Bool = false) {
        record.lastText = nil
        if let position = position(of: slot, in: record) {
            let relative = position - record.start
            if replacing { record.errors.removeAll { $0.position == relative } }
            record.errors.append((relative, error))
        } else {
            write(slot, .null, into: &record)
            record.errors.append((record.count - 1, error))
        }
    }

    /// The record keyed `key` as the change set holds it: its type, its block (`count` cells from
    /// `start`) and the errors placed on them.
    func change(
        key: RecordKey, typename: String, start: Int, count: Int, errors: [(position: Int, error: FieldError)]
    ) -> RecordChange {
        // Made at its size; the block's cells come in slot order mostly, so each appends.
        var map = CellTable(minimumCapacity: count)
        fields.withUnsafeBufferPointer { fields in
            for i in start..<(start + count) { map[fields[i].slot] = Cell(fields[i].value) }
        }
        for (position, error) in errors { map[fields[start + position].slot]?.errors.append(error) }
        return RecordChange(key: key, typename: typename, cells: map)
    }
}
