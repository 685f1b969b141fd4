/// The key of one normalized record.
///
/// Entities are keyed `Type:id`, the id with `\` and `:` escaped (`\\`, `\:`); objects without an
/// id are keyed by their path from the parent record (`parentKey:storageKey[:index]`); the
/// operation roots are `client:root`, `client:root:mutation` and `client:root:subscription`.
/// Escaping keeps the two kinds apart: without it a `Thing` whose id is `1:meta` and the object at
/// `Thing:1`'s field `meta` were one record. For the same reason an entity of a type named
/// `client` whose id is `root` is `client:\root`, not the query root's key.
public struct RecordKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The key's text, exactly as it appears in a record source or in the image.
    public let rawValue: String

    /// Wraps a key's text.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// The query root.
    public static let queryRoot = RecordKey("client:root")
    /// The root that mutation payloads hang from.
    public static let mutationRoot = RecordKey("client:root:mutation")
    /// The root that subscription payloads hang from.
    public static let subscriptionRoot = RecordKey("client:root:subscription")

    /// The key of an entity: `Type:id`, with `\` and `:` in the id escaped as `\\` and `\:`, so
    /// that an entity's key never reads as a path under another record. The one id that would
    /// still be another record's key, `root` of a type named `client` (the query root is
    /// `client:root`), is written `\root`: escaping puts a `\` only before a `\` or a `:`.
    public static func entity(typename: String, id: String) -> RecordKey {
        if isRootLike(typename: typename, id: id) { return RecordKey("client:\\root") }
        return RecordKey(typename + ":" + escapedID(id))
    }

    /// True for the entity whose `Type:id` is the query root's key: type `client`, id `root`.
    @inline(__always)
    static func isRootLike(typename: String, id: String) -> Bool {
        typename.utf8.count == 6 && id.utf8.count == 4 && typename == "client" && id == "root"
    }

    /// An id as an entity key holds it: `\` and `:` preceded by a `\` (most ids hold neither and
    /// are returned as they are).
    static func escapedID(_ id: String) -> String {
        guard id.utf8.contains(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "\\") }) else { return id }
        var escaped = ""
        escaped.reserveCapacity(id.utf8.count + 4)
        for scalar in id.unicodeScalars {
            if scalar == ":" || scalar == "\\" { escaped.unicodeScalars.append("\\") }
            escaped.unicodeScalars.append(scalar)
        }
        return escaped
    }

    /// The key of an object without an id, reached from `parent` through `storageKey`.
    public static func path(parent: RecordKey, storageKey: String, index: Int? = nil) -> RecordKey {
        guard index.map({ $0 >= 0 }) ?? true else {
            return RecordKey(parent.rawValue + ":" + storageKey + ":" + String(index!))
        }
        // Made in one piece: ingest makes one per object without an id, and joining the parts
        // one by one allocated a string per part.
        var digits = 0
        if let index {
            digits = 1
            var rest = index
            while rest >= 10 { rest /= 10; digits += 1 }
        }
        var parentText = parent.rawValue
        var storageText = storageKey
        let count = parentText.utf8.count + 1 + storageText.utf8.count + (index == nil ? 0 : 1 + digits)
        let text = parentText.withUTF8 { parentBytes in
            storageText.withUTF8 { storageBytes in
                String(unsafeUninitializedCapacity: count) { out in
                    var n = 0
                    for byte in parentBytes { out[n] = byte; n += 1 }
                    out[n] = UInt8(ascii: ":"); n += 1
                    for byte in storageBytes { out[n] = byte; n += 1 }
                    if var rest = index {
                        out[n] = UInt8(ascii: ":")
                        n += 1 + digits
                        var position = n - 1
                        repeat {
                            out[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                            rest /= 10
                            position -= 1
                        } while rest > 0
                    }
                    return n
                }
            }
        }
        return RecordKey(text)
    }

    public var description: String { rawValue }

    /// Keys are equal when their bytes are: `Character:é` and `Character:e\u{301}` are two records.
    public static func == (lhs: RecordKey, rhs: RecordKey) -> Bool {
        ExactText.bytesEqual(lhs.rawValue, rhs.rawValue)
    }

    public func hash(into hasher: inout Hasher) {
        ExactText.hashBytes(rawValue, into: &hasher)
    }

    /// The key's hash in a set or dictionary of keys (``TextHash``): memory interns every link
    /// target it meets, and a growing table hashes every key again.
    public func _rawHashValue(seed: Int) -> Int {
        TextHash.raw(rawValue, seed: seed)
    }

    /// Orders keys by their bytes, as SQLite orders the image's rows.
    public static func < (lhs: RecordKey, rhs: RecordKey) -> Bool {
        ExactText.bytesLess(lhs.rawValue, rhs.rawValue)
    }
}
