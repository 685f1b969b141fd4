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
    public var cells: [SlotID: Cell]

    public init(key: RecordKey, typename: String, cells: [SlotID: Cell] = [:]) {
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
        guard key.rawValue.utf8.first == UInt8(ascii: "c") else { return false }
        var text = key.rawValue
        return text.withUTF8 { isClientRecordKey(bytes: $0) }
    }

    private static func isClientRecordKey(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let client: StaticString = "client:"
        guard bytes.count >= client.utf8CodeUnitCount,
            memcmp(bytes.baseAddress!, client.utf8Start, client.utf8CodeUnitCount) == 0
        else { return false }
        return contains(bytes, ":__") && contains(bytes, "_connection") && !contains(bytes, "_connection:")
    }

    /// True when `needle`'s bytes occur in `bytes`.
    private static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: StaticString) -> Bool {
        let length = needle.utf8CodeUnitCount
        guard bytes.count >= length, let base = bytes.baseAddress else { return false }
        let first = needle.utf8Start.pointee
        var start = 0
        while start + length <= bytes.count {
            guard let hit = memchr(base + start, Int32(first), bytes.count - length + 1 - start) else { return false }
            let offset = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + offset, needle.utf8Start, length) == 0 { return true }
            start = offset + 1
        }
        return false
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
