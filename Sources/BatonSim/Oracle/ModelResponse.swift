import Baton

/// What one server response tells the oracle, in the oracle's own terms: the slots it writes per
/// record, the records it deletes, and the connection pages it brings.
///
/// Built from the executor's provenance (``from(_:operation:schema:)``) or from a response's text
/// walked against the operation (``normalize(text:operation:variables:schema:)``); for one
/// execution the two must be equal.
package struct ModelResponse: Sendable, Equatable, CustomStringConvertible {
    /// True when `data` was an object: such a response stamps its operation's fetch time.
    package var hasData = false
    /// Per record, what the response wrote (cells merged across every place it met the record,
    /// later ones winning).
    package var records: [OracleText: OracleRecordWrite] = [:]
    /// `records`' keys in the order the response first met them (not part of equality).
    package var order: [OracleText] = []
    /// Records named by `@deleteRecord`, in response order.
    package var deletions: [OracleText] = []
    /// Pages of `@connection` fields, each after the pages nested inside it, in response order.
    package var pages: [OraclePage] = []
    /// Errors that name no field of the response (kept for the caller, never stored).
    package var unplacedErrors: [OracleFieldError] = []

    package init() {}

    package static func == (lhs: ModelResponse, rhs: ModelResponse) -> Bool {
        lhs.hasData == rhs.hasData && lhs.records == rhs.records && lhs.deletions == rhs.deletions
            && lhs.pages == rhs.pages && lhs.unplacedErrors == rhs.unplacedErrors
    }

    /// Writes `cell` into `slot` of `key`'s record (made on first sight with `typename`).
    mutating func write(_ key: OracleText, typename: String, slot: OracleText, cell: OracleCell) {
        // One lookup: the record is changed in place where the dictionary holds it.
        if let index = records.index(forKey: key) {
            records.values[index].typename = typename
            records.values[index].cells[slot] = cell
        } else {
            records[key] = OracleRecordWrite(typename: typename, cells: [slot: cell])
            order.append(key)
        }
    }

    /// Gives each connection page the errors that landed on its field (once every error is placed).
    mutating func givePagesTheirErrors() {
        for index in pages.indices {
            pages[index].errors = records[pages[index].parent]?.cells[pages[index].fieldSlot]?.errors ?? []
        }
    }

    /// Makes `key`'s record if the response has not met it yet; the latest type wins.
    mutating func open(_ key: OracleText, typename: String) {
        if let index = records.index(forKey: key) {
            records.values[index].typename = typename
        } else {
            records[key] = OracleRecordWrite(typename: typename)
            order.append(key)
        }
    }

    /// Adds the deletions a `@deleteRecord` field's value names: an id (or lists of them).
    mutating func delete(_ value: OracleValue, _ directive: OracleDeleteDirective) {
        switch value {
        case .string(let id):
            deletions.append(directive.typename.map { OracleKeys.entity(typename: $0, id: id.string) } ?? id)
        case .int(let id):
            delete(.string(OracleText(String(id))), directive)
        case .list(let items):
            for item in items { delete(item, directive) }
        default:
            break
        }
    }

    /// A short summary for traces: counts of records, deletions and pages.
    package var description: String {
        "\(records.count) records, \(deletions.count) deletions, \(pages.count) pages" + (hasData ? "" : ", no data")
    }
}

/// The cells one response wrote into one record.
package struct OracleRecordWrite: Hashable, Sendable {
    package var typename: String
    package var cells: [OracleText: OracleCell] = [:]

    package init(typename: String, cells: [OracleText: OracleCell] = [:]) {
        self.typename = typename
        self.cells = cells
    }
}

/// One page of a `@connection` field.
package struct OraclePage: Hashable, Sendable {
    /// How a page meets what the connection holds.
    package enum Mode: Hashable, Sendable {
        /// No cursor argument: the page replaces the connection.
        case replace
        /// `after:` a string: appends when it equals the stored end cursor, else ignored.
        case append(after: OracleText)
        /// `before:` a string: prepends when it equals the stored start cursor, else ignored.
        case prepend(before: OracleText)
    }

    /// The record holding the connection field.
    package var parent: OracleText
    /// The parent's slot that links to the connection's client record.
    package var slot: OracleText
    /// The connection's client record.
    package var connection: OracleText
    /// The connection's type: the server page's type, or the field's type when the page is null.
    package var typename: String
    /// The server's page record (stored by path), or `nil` when the field was null.
    package var server: OracleText?
    package var mode: Mode
    /// The field's own slot in the parent (its storage key with every argument).
    package var fieldSlot: OracleText
    /// The errors that landed on the field: the parent's connection slot carries them too, as
    /// reads of the field go through it.
    package var errors: [OracleFieldError] = []

    package init(
        parent: OracleText, slot: OracleText, connection: OracleText, typename: String, server: OracleText?, mode: Mode,
        fieldSlot: OracleText
    ) {
        self.parent = parent
        self.slot = slot
        self.connection = connection
        self.typename = typename
        self.server = server
        self.mode = mode
        self.fieldSlot = fieldSlot
    }

    /// The page facts of a connection field with `arguments` (resolved) on `parent`.
    static func make(
        _ directive: OracleConnectionDirective, arguments: [String: JSONValue], parent: OracleText, fieldSlot: OracleText,
        typename: String, server: OracleText?
    ) -> OraclePage {
        let slot = OracleKeys.connectionSlot(key: directive.key, filters: directive.filters, arguments: arguments)
        let mode: Mode
        if case .string(let cursor)? = arguments["after"] {
            mode = .append(after: OracleText(cursor))
        } else if case .string(let cursor)? = arguments["before"] {
            mode = .prepend(before: OracleText(cursor))
        } else {
            mode = .replace
        }
        return OraclePage(
            parent: parent, slot: slot, connection: OracleKeys.connectionRecord(parent: parent, slot: slot),
            typename: typename, server: server, mode: mode, fieldSlot: fieldSlot)
    }
}

/// Why a response could not be turned into a ``ModelResponse``.
package struct OracleResponseError: Error, Hashable, Sendable, CustomStringConvertible {
    package var message: String
    /// The response path where it went wrong, dotted.
    package var path: String

    package init(_ message: String, path: String = "") {
        self.message = message
        self.path = path
    }

    package var description: String { path.isEmpty ? message : "\(message) at \(path)" }
}
