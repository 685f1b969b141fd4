/// One record's cells while a response is normalized.
///
/// Slots sit in a flat array searched linearly (an object has a handful of fields), which is
/// cheaper than hashing on every write when the same entity comes back many times in a response;
/// the change's dictionary is built once, at the end. Values and errors are kept apart (errors
/// are rare and placed last), and each string value read from an unescaped span remembers where
/// its text lies in the response, so that the same entity met again compares bytes with bytes.
struct RecordBuilder {
    let key: RecordKey
    var typename: String
    /// For a key made of a type's `Type:` and an id read in place: the type's interned number and
    /// where the id's bytes lie (`keyType` -1 otherwise). Such a key is found again by bytes alone.
    var keyType: Int32 = -1
    var keyID = TextSpan.none
    /// The slot whose cell holds exactly the key's id as it was read (`UInt32.max`: none), so that
    /// the entity met again skips its id's cell; any other write to that slot clears it.
    var keySlot = UInt32.max
    /// By position: the slot, its value, and where the value's text lies for strings read from an
    /// unescaped span (one array: a record's cells cost one allocation, and a repeated entity
    /// reads the slot and the span of every string member together).
    var fields: [Field] = []
    /// Field errors by position, in the order they were placed (each kept, in that order).
    var errors: [(position: Int, error: FieldError)] = []
    /// The text of the leaf entity object that wrote the record last, when nothing has written
    /// it since: the same text met again writes nothing new (``Normalizer/skipRepeat(of:shape:from:)``).
    var lastText: LastText?

    /// A slot, its value and the text span of that value.
    struct Field {
        let slot: SlotID
        var span: TextSpan
        var value: Value
    }

    init(key: RecordKey, typename: String, capacity: Int) {
        self.key = key
        self.typename = typename
        fields.reserveCapacity(capacity)
    }

    /// Where `slot`'s cell is, if the response wrote it already.
    @inline(__always)
    func position(of slot: SlotID) -> Int? {
        fields.withUnsafeBufferPointer { fields in
            for i in fields.indices where fields[i].slot == slot { return i }
            return nil
        }
    }

    /// Writes `value` into `slot` (a later write wins); `span` is where a string value's text lies.
    @inline(__always)
    mutating func write(_ slot: SlotID, _ value: Value, span: TextSpan = .none) {
        if slot.index == keySlot { keySlot = .max }
        lastText = nil
        if let position = position(of: slot) {
            fields[position].value = value
            fields[position].span = span
        } else {
            fields.append(Field(slot: slot, span: span, value: value))
        }
    }

    /// Puts `error` beside `slot`'s value, after any placed there already, making the cell (null)
    /// when the response has none. With `replacing` (a mutant) it takes the place of those.
    mutating func place(_ error: FieldError, on slot: SlotID, replacing: Bool = false) {
        lastText = nil
        if let position = position(of: slot) {
            if replacing { errors.removeAll { $0.position == position } }
            errors.append((position, error))
        } else {
            write(slot, .null)
            errors.append((fields.count - 1, error))
        }
    }

    /// The record as the change set holds it. Mutating only so that the builder is read in place
    /// (an array element read through a getter is copied first: five references counted).
    mutating func makeChange() -> RecordChange {
        // Made at its size (cheaper than reserving capacity in an empty dictionary).
        var map = EmptyTables.cells.withCapacity(fields.count)
        for i in fields.indices { map[fields[i].slot] = Cell(fields[i].value) }
        for (position, error) in errors { map[fields[position].slot]?.errors.append(error) }
        return RecordChange(key: key, typename: typename, cells: map)
    }
}

/// The whole text of an object (`{` to `}`) and the shape it was read with.
struct LastText {
    let text: TextSpan
    let shape: ObjectIdentifier
}

/// Where a piece of text lies in the response's bytes (32-bit offsets: text past 2 GiB has none).
struct TextSpan {
    let start: UInt32
    let count: Int32

    /// No span: the text was not read from one unescaped run of bytes.
    static let none = TextSpan(start: 0, count: -1)

    init(start: UInt32, count: Int32) {
        self.start = start
        self.count = count
    }

    /// The span of `range`, or ``none`` past 32-bit offsets.
    init(_ range: Range<Int>) {
        if range.upperBound <= Int(Int32.max) {
            self.init(start: UInt32(range.lowerBound), count: Int32(range.count))
        } else {
            self = .none
        }
    }

    @inline(__always)
    var isNone: Bool { count < 0 }

    /// True when the bytes of `self` and of `other` in `bytes` are the same.
    @inline(__always)
    func sameBytes(as other: TextSpan, in bytes: UnsafeRawBufferPointer) -> Bool {
        guard count == other.count, count >= 0 else { return false }
        if start == other.start { return true }
        let count = Int(count)
        let a = Int(start)
        let b = Int(other.start)
        var i = 0
        while i + 8 <= count {
            if bytes.loadUnaligned(fromByteOffset: a + i, as: UInt64.self)
                != bytes.loadUnaligned(fromByteOffset: b + i, as: UInt64.self) { return false }
            i += 8
        }
        while i < count {
            if bytes[a + i] != bytes[b + i] { return false }
            i += 1
        }
        return true
    }
}

extension JSONStringSpan {
    /// The body as a ``TextSpan`` when it holds no escape (its bytes are then its text).
    @inline(__always)
    var text: TextSpan {
        hasEscapes ? .none : TextSpan(range)
    }
}
