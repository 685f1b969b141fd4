/// The value of one slot as the oracle keeps it: a closed set, the same one the row format stores.
///
/// Strings, keys and JSON text compare by bytes (``OracleText``); doubles compare by their bits,
/// so `-0.0` and `0.0` differ as they differ on disk.
package indirect enum OracleValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(OracleText)
    /// A link to one record.
    case link(OracleText)
    /// A list of links, `nil` where the list held `null`.
    case links([OracleText?])
    /// A list of scalars, or of deeper lists (lists of lists of objects hold `.links` items).
    case list([OracleValue])
    /// A custom scalar's JSON object, as canonical JSON text.
    case object(OracleText)
    /// A number in a custom scalar (bare or a list element) that a double cannot hold, as its
    /// canonical decimal text (``OracleDecimal``, rule 4; row tag 12).
    case number(OracleText)

    package static func == (lhs: OracleValue, rhs: OracleValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a.bitPattern == b.bitPattern
        case (.string(let a), .string(let b)): a == b
        case (.link(let a), .link(let b)): a == b
        case (.links(let a), .links(let b)): a == b
        case (.list(let a), .list(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        default: false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(1); hasher.combine(b)
        case .int(let i): hasher.combine(2); hasher.combine(i)
        case .double(let d): hasher.combine(3); hasher.combine(d.bitPattern)
        case .string(let s): hasher.combine(4); hasher.combine(s)
        case .link(let k): hasher.combine(5); hasher.combine(k)
        case .links(let ks): hasher.combine(6); hasher.combine(ks)
        case .list(let items): hasher.combine(7); hasher.combine(items)
        case .object(let text): hasher.combine(8); hasher.combine(text)
        case .number(let text): hasher.combine(9); hasher.combine(text)
        }
    }

    /// Calls `body` with every record this value links to, in order, nested lists included.
    package func forEachLink(_ body: (OracleText) -> Void) {
        switch self {
        case .link(let key): body(key)
        case .links(let keys): for case let key? in keys { body(key) }
        case .list(let items): for item in items { item.forEachLink(body) }
        default: break
        }
    }

    /// The record this value links to, when it is a single link.
    package var linkTarget: OracleText? {
        if case .link(let key) = self { return key }
        return nil
    }
}

/// A field error from a response, kept beside the slot its path names.
package struct OracleFieldError: Hashable, Sendable {
    package var message: OracleText
    /// The response path, dotted: keys and list indices (as numbers) joined by `.`.
    package var path: OracleText
    /// The error's `extensions` as canonical JSON text, when the response gave any.
    package var extensions: OracleText?
    /// Every other member of the error (`locations`, a server's own such as GitHub's `type`): the
    /// canonical JSON text of one object of them; nil when the error has none.
    package var otherMembers: OracleText?
    /// The indices, one per list level of the value of the field the error is on, of the element
    /// it is about: the element its path names, or the null element its path steps through.
    /// Empty when it is about the field's own value.
    package var elementIndices: [Int]

    /// An error at `path`, about the element its trailing indices name unless `elementIndices`
    /// says otherwise.
    package init(
        message: OracleText, path: OracleText, extensions: OracleText? = nil, otherMembers: OracleText? = nil,
        elementIndices: [Int]? = nil
    ) {
        self.message = message
        self.path = path
        self.extensions = extensions
        self.otherMembers = otherMembers
        self.elementIndices = elementIndices ?? Self.trailingIndices(path.string)
    }

    /// The numbers that end a dotted path, in order (`a.b.2.0` gives 2 and 0). A GraphQL name
    /// never starts with a digit, so a component of digits alone is a list index.
    static func trailingIndices(_ dotted: String) -> [Int] {
        var components = dotted.components(separatedBy: ".")
        var indices: [Int] = []
        while let last = components.last, !last.isEmpty, last.allSatisfy({ $0.isASCII && $0.isNumber }), let index = Int(last) {
            indices.insert(index, at: 0)
            components.removeLast()
        }
        return indices
    }
}

/// One slot of a record: a value and the errors the server reported beside it, in the order of
/// the response's `errors` (every error whose path names the field, none dropped).
package struct OracleCell: Hashable, Sendable {
    package var value: OracleValue
    package var errors: [OracleFieldError]

    package init(_ value: OracleValue, errors: [OracleFieldError] = []) {
        self.value = value
        self.errors = errors
    }
}

/// One record as the oracle keeps it: its type, its cells by storage key, and whether it is deleted.
///
/// A deleted record holds no cells; it reads as `null` through links and counts as present for
/// the availability check.
package struct OracleRecord: Hashable, Sendable {
    /// The record's type (a GraphQL name, so plain `==` is exact).
    package var typename: String
    package var cells: [OracleText: OracleCell]
    package var deleted: Bool

    package init(typename: String, cells: [OracleText: OracleCell] = [:], deleted: Bool = false) {
        self.typename = typename
        self.cells = cells
        self.deleted = deleted
    }

    /// A deleted record of `typename`.
    package static func deleted(_ typename: String) -> OracleRecord {
        OracleRecord(typename: typename, deleted: true)
    }

    /// The cells sorted by storage key (UTF-8 bytes).
    package var sortedCells: [(slot: OracleText, cell: OracleCell)] {
        cells.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
