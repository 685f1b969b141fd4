import Baton

/// A stable 64-bit hash for the server's generated data: the same inputs give the same value in
/// every process and on every machine (unlike `Hasher`, which is seeded per process).
///
/// Strings are hashed by their UTF-8 bytes, so `"é"` and `"e\u{301}"` (equal to Swift's `==`)
/// hash apart, as the server must keep them apart.
struct ServerHash {
    private var state: UInt64

    init(_ seed: UInt64) {
        state = seed ^ 0x6A09_E667_F3BC_C908
    }

    /// The SplitMix64 finalizer: every input bit moves every output bit.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func add(_ value: UInt64) {
        state = Self.mix(state ^ value)
    }

    mutating func add(_ value: Int) {
        add(UInt64(bitPattern: Int64(value)))
    }

    mutating func add(_ text: String) {
        var fnv: UInt64 = 0xCBF2_9CE4_8422_2325
        var count: UInt64 = 0
        for byte in text.utf8 {
            fnv = (fnv ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            count += 1
        }
        add(fnv)
        add(count)
    }

    /// A JSON value, with object members in UTF-8 order of their names, so that the same
    /// arguments hash the same whatever order they were written in.
    mutating func add(_ value: JSONValue) {
        switch value {
        case .null: add(UInt64(1))
        case .bool(let flag): add(UInt64(flag ? 2 : 3))
        case .int(let number):
            add(UInt64(4))
            add(number)
        case .double(let number):
            add(UInt64(5))
            add(number.bitPattern)
        case .string(let text):
            add(UInt64(6))
            add(text)
        case .decimal(let text):
            add(UInt64(9))
            add(text)
        case .array(let items):
            add(UInt64(7))
            add(items.count)
            for item in items { add(item) }
        case .object(let members):
            add(UInt64(8))
            add(members.count)
            // Members come in the byte order of their names.
            for member in members {
                add(member.key)
                add(member.value)
            }
        }
    }

    var value: UInt64 { Self.mix(state) }

    /// The hash of a few parts in order.
    static func of(_ seed: UInt64, _ parts: UInt64...) -> UInt64 {
        var hash = ServerHash(seed)
        for part in parts { hash.add(part) }
        return hash.value
    }

    /// The hash of `text`, on its own.
    static func of(_ text: String) -> UInt64 {
        var hash = ServerHash(0)
        hash.add(text)
        return hash.value
    }

    /// True with probability `p`, read off `hash`.
    static func chance(_ hash: UInt64, _ p: Double) -> Bool {
        p > 0 && Double(hash >> 11) / Double(1 << 53) < p
    }

    /// A whole number in `range`, read off `hash`.
    static func int(_ hash: UInt64, _ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(hash % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// Byte order of UTF-8: the order storage keys and traces use.
    static func utf8Less(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}

/// A string compared and hashed by its UTF-8 bytes (Swift's `String` calls canonically
/// equivalent strings equal; the server's ids must not).
struct ExactString: Hashable, Sendable {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    static func == (a: ExactString, b: ExactString) -> Bool {
        a.text.utf8.elementsEqual(b.text.utf8)
    }

    func hash(into hasher: inout Hasher) {
        for byte in text.utf8 { hasher.combine(byte) }
    }
}
