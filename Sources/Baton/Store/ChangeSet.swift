#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What ingest makes of one response: everything the commit applies, as one atomic batch.
///
/// Built off the main actor (it is `Sendable`); the main actor commits it into the store.
public struct ChangeSet: Sendable {
    /// The operation whose fetch time a server commit stamps (`nil` for local batches).
    public var operation: OperationIdentity?
    /// Per record, the slots the response wrote, in the order records were first met.
    public var records: [RecordChange]
    /// Records named by `@deleteRecord`, in response order.
    public var deletions: [RecordKey]
    /// Pages of `@connection` fields, applied after `records` against the connection's state.
    public var connectionPages: [ConnectionPage]
    /// Errors whose `path` names no field of the response (kept for the caller, not stored).
    public var unplacedErrors: [FieldError]

    public init(
        operation: OperationIdentity? = nil,
        records: [RecordChange] = [],
        deletions: [RecordKey] = [],
        connectionPages: [ConnectionPage] = [],
        unplacedErrors: [FieldError] = []
    ) {
        self.operation = operation
        self.records = records
        self.deletions = deletions
        self.connectionPages = connectionPages
        self.unplacedErrors = unplacedErrors
    }
}

/// The slots one response wrote into one record.
public struct RecordChange: Sendable {
    public var key: RecordKey
    public var typename: String
    /// Slot → cell. A slot absent here was not in the response and is left as it is.
    public var cells: CellTable

    public init(key: RecordKey, typename: String, cells: CellTable = [:]) {
        self.key = key
        self.typename = typename
        self.cells = cells
    }
}

/// One page of a `@connection` field, as the server sent it.
///
/// The server's page is an ordinary record (`serverRecord`) whose `edges` and `pageInfo` the
/// commit reads; the connection's client record (`connectionRecord`) owns copies of the edges.
public struct ConnectionPage: Sendable {
    /// How a page joins what the connection holds.
    public enum Mode: Hashable, Sendable {
        /// No cursor argument: the page replaces the connection.
        case replace
        /// `after:` given: appends when it equals the stored end cursor, else ignored.
        case append(after: String)
        /// `before:` given: prepends when it equals the stored start cursor, else ignored.
        case prepend(before: String)
    }

    /// The record holding the connection field.
    public var parent: RecordKey
    /// The parent's slot that links to the client connection record (`__key_connection(filters)`).
    public var connectionSlot: SlotID
    /// The client connection record: `client:<parent>:__key_connection(filters)`.
    public var connectionRecord: RecordKey
    /// The connection's type name (the field's type).
    public var typename: String
    /// The server page record, or `nil` when the server sent `null` for the field.
    public var serverRecord: RecordKey?
    public var mode: Mode
    /// The field errors of the connection's field in this response (those that land on its
    /// field, as on any other): they go beside the parent's connection slot, which is what reads
    /// of the field meet, so a connection that failed reads back as failed, not as empty.
    public var errors: [FieldError] = []

    /// True for the key of a client connection record (see ``clientRecordKey(parent:connectionStorageKey:)``).
    public static func isClientRecordKey(_ key: RecordKey) -> Bool {
        // Memory asks this of every key it numbers: most are entities, whose first byte is not
        // the `c` every such key starts with, and that byte is cheaper than `hasPrefix`. The rest
        // is searched by bytes: `String.contains` of a string is Foundation's, a locale-aware
        // search costing about 1.5 µs per key (three quarters of committing apollo-ios's GitHub
        // page, whose hundreds of objects without ids are all keyed `client:root:…`).
        isClientRecordKey(key, readingForward: false)
    }

    /// ``isClientRecordKey(_:)``, or with `readingForward` the rule before 2026-12-06 (a mutant).
    package static func isClientRecordKey(_ key: RecordKey, readingForward: Bool) -> Bool {
        guard key.rawValue.utf8.first == UInt8(ascii: "c") else { return false }
        var text = key.rawValue
        return text.withUTF8 { isClientRecordKey(bytes: $0, readingForward: readingForward) }
    }

    /// The mutant `connectionsToldByShape`: the rule until 2026-12-06, a key holding `:__` and
    /// `_connection` but not `_connection:`, so a filter value holding `_connection:` hid its
    /// connection from collection, which swept its edges.
    static func looksLikeClientRecordKeyByOldRule(_ key: RecordKey) -> Bool {
        var text = key.rawValue
        return text.withUTF8 { bytes in
            bytes.starts(with: "client:".utf8) && find(bytes, ":__", from: 0) != nil
                && find(bytes, "_connection", from: 0) != nil && find(bytes, "_connection:", from: 0) == nil
        }
    }

    /// A connection's client record is `client:<parent>:__<K>_connection`, or the same followed by
    /// its filters' arguments in parentheses, and nothing after: its edge copies, its page info
    /// and objects under it add `:edges:<n>`, `:pageInfo` or a path. The slot is told from the end
    /// of the key, so an argument value may hold any text (`"x_connection:y"`, which the rule
    /// before 2026-12-06 took for a record under a connection); `K` holds no `:`.
    private static func isClientRecordKey(bytes: UnsafeBufferPointer<UInt8>, readingForward: Bool) -> Bool {
        let client: StaticString = "client:"
        guard bytes.count > client.utf8CodeUnitCount,
            memcmp(bytes.baseAddress!, client.utf8Start, client.utf8CodeUnitCount) == 0
        else { return false }
        let suffix: StaticString = "_connection"
        let suffixLength = suffix.utf8CodeUnitCount
        if bytes.last == UInt8(ascii: ")") {
            if readingForward { return readsForwardAsClientRecordKey(bytes) }
            // The arguments' parentheses: the group that closes at the last byte, found from the
            // end (an argument's string may hold `_connection(` and brackets of its own).
            guard let open = openingParenthesis(bytes, closingAt: bytes.count - 1), open >= suffixLength,
                memcmp(bytes.baseAddress! + open - suffixLength, suffix.utf8Start, suffixLength) == 0
            else { return false }
            return slotStartsWithUnderscores(bytes, before: open - suffixLength)
        }
        guard bytes.count >= suffixLength,
            memcmp(bytes.baseAddress! + bytes.count - suffixLength, suffix.utf8Start, suffixLength) == 0
        else { return false }
        return slotStartsWithUnderscores(bytes, before: bytes.count - suffixLength)
    }

    /// True when the slot that ends at `end` (after the last `:` before it) starts with `__`.
    private static func slotStartsWithUnderscores(_ bytes: UnsafeBufferPointer<UInt8>, before end: Int) -> Bool {
        var colon = end - 1
        while colon >= 0, bytes[colon] != UInt8(ascii: ":") { colon -= 1 }
        guard colon >= 0, colon + 2 < end else { return false }
        return bytes[colon + 1] == UInt8(ascii: "_") && bytes[colon + 2] == UInt8(ascii: "_")
    }

    /// Where the group that closes at `close` opens, read from the end: a quote with an even
    /// number of backslashes before it bounds a JSON string, whose brackets are text; nil when
    /// the brackets do not pair.
    private static func openingParenthesis(_ bytes: UnsafeBufferPointer<UInt8>, closingAt close: Int) -> Int? {
        var depth = 0
        var inString = false
        var index = close
        while index >= 0 {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                var backslashes = 0
                while index - backslashes > 0, bytes[index - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
                if backslashes % 2 == 0 { inString.toggle() }
            } else if !inString {
                switch byte {
                case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth += 1
                case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth -= 1
                    if depth == 0 { return byte == UInt8(ascii: "(") ? index : nil }
                default:
                    break
                }
            }
            index -= 1
        }
        return nil
    }

    /// The mutant `connectionKeyReadForward`: the rule until 2026-12-06 looked for the group from
    /// each `_connection(` forward, and one inside an argument's string (`"x:__a_connection({\"b\":1})"`
    /// in an input object) could seem to close at the last byte.
    private static func readsForwardAsClientRecordKey(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let suffixLength = "_connection".utf8.count
        var from = "client:".utf8.count
        while let hit = find(bytes, "_connection(", from: from) {
            if closingParenthesis(bytes, from: hit + suffixLength) == bytes.count - 1 {
                return slotStartsWithUnderscores(bytes, before: hit)
            }
            from = hit + 1
        }
        return false
    }

    /// Where the parenthesis opened at `open` closes, skipping what JSON strings and nested
    /// brackets hold; nil when it does not.
    private static func closingParenthesis(_ bytes: UnsafeBufferPointer<UInt8>, from open: Int) -> Int? {
        var depth = 0
        var inString = false
        var index = open
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth -= 1
                    if depth == 0 { return byte == UInt8(ascii: ")") ? index : nil }
                default: break
                }
            }
            index += 1
        }
        return nil
    }

    /// Where `needle`'s bytes first occur in `bytes` at or after `from`.
    private static func find(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: StaticString, from: Int) -> Int? {
        let length = needle.utf8CodeUnitCount
        guard let base = bytes.baseAddress else { return nil }
        let first = needle.utf8Start.pointee
        var start = from
        while start + length <= bytes.count {
            guard let hit = memchr(base + start, Int32(first), bytes.count - length + 1 - start) else { return nil }
            let offset = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + offset, needle.utf8Start, length) == 0 { return offset }
            start = offset + 1
        }
        return nil
    }

    /// The client connection record of a connection on `parent`: `client:<parent>:<storage key>`,
    /// with a parent that is itself a client record (the query root) not prefixed twice.
    public static func clientRecordKey(parent: RecordKey, connectionStorageKey: String) -> RecordKey {
        let base = parent.rawValue.hasPrefix("client:") ? parent.rawValue : "client:" + parent.rawValue
        return RecordKey(base + ":" + connectionStorageKey)
    }

    public init(
        parent: RecordKey, connectionSlot: SlotID, connectionRecord: RecordKey, typename: String,
        serverRecord: RecordKey?, mode: Mode
    ) {
        self.parent = parent
        self.connectionSlot = connectionSlot
        self.connectionRecord = connectionRecord
        self.typename = typename
        self.serverRecord = serverRecord
        self.mode = mode
    }
}

/// An operation with its variables: what fetch times and retention are kept for.
public struct OperationIdentity: Hashable, Sendable, Comparable {
    /// `Name{"canonical":"variables"}`: the operation's name, then its variables as canonical JSON.
    public let rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Identities are equal when their bytes are (variables that differ only in how a character
    /// is composed are other variables).
    public static func == (lhs: OperationIdentity, rhs: OperationIdentity) -> Bool {
        ExactText.bytesEqual(lhs.rawValue, rhs.rawValue)
    }

    public func hash(into hasher: inout Hasher) {
        ExactText.hashBytes(rawValue, into: &hasher)
    }

    public static func < (lhs: OperationIdentity, rhs: OperationIdentity) -> Bool {
        ExactText.bytesLess(lhs.rawValue, rhs.rawValue)
    }
}
