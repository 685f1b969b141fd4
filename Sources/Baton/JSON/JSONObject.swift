/// A JSON object's members, named by the UTF-8 bytes of their names.
///
/// A `[String: JSONValue]` compares its keys by Unicode canonical equivalence, so `"café"` written
/// precomposed and `"cafe\u{301}"` would be one member there, and reading an object that holds
/// both would lose one. Here they are two members, as they are two names to JSON, to the store
/// and to SQLite (docs/design.md, "Text is bytes").
///
/// Members are kept in the byte order of their names, so iterating an object, and so printing it,
/// goes the same way in every process.
public struct JSONObject: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Element = (key: String, value: JSONValue)

    /// The members in the byte order of their names, no name twice.
    private var members: [Element]

    /// An object without members.
    public init() {
        members = []
    }

    /// The members of `dictionary` (whose keys are already distinct as Swift strings).
    public init(_ dictionary: [String: JSONValue]) {
        members = dictionary.map { (key: $0.key, value: $0.value) }
        members.sort { ExactText.bytesLess($0.key, $1.key) }
    }

    /// The members given; of two with the same name (by bytes) the later wins.
    public init<Members: Sequence>(uniquingNames pairs: Members) where Members.Element == (String, JSONValue) {
        self = Self.sorting(pairs.enumerated().map { (key: $1.0, value: $1.1, offset: $0) }).0
    }

    /// The size up to which parsing inserts each member in its place.
    static let insertionLimit = 64

    /// The object of `members` in any order, and the earliest in `offset` of the members whose
    /// name (by bytes) an earlier member already gave, if any (the object then keeps the later).
    static func sorting(
        _ members: [(key: String, value: JSONValue, offset: Int)]
    ) -> (JSONObject, repeated: (key: String, offset: Int)?) {
        // Sorting by name, then by offset, puts each name's first member first.
        let sorted = members.sorted {
            if ExactText.bytesEqual($0.key, $1.key) { return $0.offset < $1.offset }
            return ExactText.bytesLess($0.key, $1.key)
        }
        var object = JSONObject()
        object.members.reserveCapacity(sorted.count)
        var repeated: (key: String, offset: Int)?
        for member in sorted {
            if let last = object.members.last, ExactText.bytesEqual(last.key, member.key) {
                object.members[object.members.count - 1].value = member.value
                if repeated.map({ member.offset < $0.offset }) ?? true { repeated = (member.key, member.offset) }
            } else {
                object.members.append((member.key, member.value))
            }
        }
        return (object, repeated)
    }

    /// An object literal; a name written twice (by bytes) is a programming error, as in a
    /// dictionary literal.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        members = []
        for (key, value) in elements {
            precondition(updateValue(value, forKey: key) == nil, "JSONObject literal names \(key) twice")
        }
    }

    /// Room for `capacity` members without growing.
    public mutating func reserveCapacity(_ capacity: Int) {
        members.reserveCapacity(capacity)
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    /// The member names, in their byte order.
    public var keys: [String] { members.map(\.key) }
    /// The member values, in the byte order of their names.
    public var values: [JSONValue] { members.map(\.value) }

    /// The members as a dictionary, for objects whose names are GraphQL names (variables,
    /// arguments), which no two spell alike; of names that differ only in their Unicode
    /// normalization, the last in byte order would win.
    public var dictionary: [String: JSONValue] {
        Dictionary(members.lazy.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    public func makeIterator() -> IndexingIterator<[Element]> {
        members.makeIterator()
    }

    /// The member named `key` (by bytes); setting `nil` removes it.
    public subscript(key: String) -> JSONValue? {
        get {
            let (index, found) = position(of: key)
            return found ? members[index].value : nil
        }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Sets the member named `key`; returns the value it replaced.
    @discardableResult
    public mutating func updateValue(_ value: JSONValue, forKey key: String) -> JSONValue? {
        let (index, found) = position(of: key)
        if found {
            let old = members[index].value
            members[index].value = value
            return old
        }
        members.insert((key, value), at: index)
        return nil
    }

    /// Removes the member named `key`; returns its value.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        let (index, found) = position(of: key)
        guard found else { return nil }
        return members.remove(at: index).value
    }

    /// The same names with each value transformed.
    public func mapValues(_ transform: (JSONValue) throws -> JSONValue) rethrows -> JSONObject {
        var copy = self
        for index in copy.members.indices { copy.members[index].value = try transform(copy.members[index].value) }
        return copy
    }

    /// Where `key` is, or would go, in ``members``, and whether it is there.
    private func position(of key: String) -> (index: Int, found: Bool) {
        // Objects are mostly small, and most members are added in order: check the end first.
        if let last = members.last, ExactText.bytesLess(last.key, key) { return (members.count, false) }
        var low = 0
        var high = members.count
        while low < high {
            let middle = (low + high) >> 1
            if ExactText.bytesLess(members[middle].key, key) { low = middle + 1 } else { high = middle }
        }
        return (low, low < members.count && ExactText.bytesEqual(members[low].key, key))
    }
}

extension JSONObject: Hashable {
    /// Equal when they name the same members by bytes with equal values.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        for (a, b) in zip(lhs.members, rhs.members) where !ExactText.bytesEqual(a.key, b.key) || a.value != b.value {
            return false
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        for member in members {
            ExactText.hashBytes(member.key, into: &hasher)
            hasher.combine(member.value)
        }
    }
}

extension JSONObject: CustomStringConvertible {
    public var description: String { CanonicalJSON.render(.object(self)) }
}
