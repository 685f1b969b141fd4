/// One record while a response is normalized: its key, its type, and where its cells lie in the
/// normalizer's ``CellPool``.
///
/// Slots sit in a flat block searched linearly (an object has a handful of fields), which is
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
    /// The record's block of the pool: `capacity` fields from `start`, the first `count` in use,
    /// each a slot, its value, and where the value's text lies for strings read from an unescaped
    /// span (a repeated entity reads the slot and the span of every string member together).
    var start: Int
    var count = 0
    var capacity: Int
    /// Field errors by position in the block, in the order they were placed (each kept, in that order).
    var errors: [(position: Int, error: FieldError)] = []
    /// The text of the leaf entity object that wrote the record last, when nothing has written
    /// it since: the same text met again writes nothing new (``Normalizer/skipRepeat(of:shape:from:)``).
    var lastText: LastText?

    /// A slot, its value and the text span of that value.
    struct Field {
        let slot: SlotID
        var span: TextSpan
        var value: Value

        /// An unused field of a block.
        static let unused = Field(slot: SlotID(index: .max), span: .none, value: .null)
    }

    init(key: RecordKey, typename: String, block: Int, capacity: Int) {
        self.key = key
        self.typename = typename
        self.start = block
        self.capacity = capacity
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
