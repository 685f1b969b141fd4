import Baton

/// What a hand-written scenario expects after an event (a replay file's `expect`).
package struct Expectation: Hashable, Sendable {
    /// For a check: `available`, `missing`, `fresh` or `stale` (the last two imply available).
    package var availability: String?
    /// For a check: `memory` or `image`.
    package var source: String?
    /// For a check: the data read back afterwards.
    package var data: JSONValue?
    /// What the image holds (its `image`, `root` and `fetches` keys), as the model's reader
    /// decodes the rows read through SQL.
    package var image: ImageExpectation?
    /// States of the image of which at least one must hold (after a power loss, the commits the
    /// image may have gone back to).
    package var oneOf: [ImageExpectation]?

    package init(availability: String? = nil, source: String? = nil, data: JSONValue? = nil,
                 image: ImageExpectation? = nil, oneOf: [ImageExpectation]? = nil) {
        self.availability = availability
        self.source = source
        self.data = data
        self.image = image
        self.oneOf = oneOf
    }

    /// True when the expectation reads the image (which needs a running process).
    package var readsImage: Bool { image != nil || oneOf != nil }
}

/// A state of the image, or the part of it a scenario cares about: rows of `records`, fields of
/// `root` and rows of `fetches`. What it does not name may be anything.
package struct ImageExpectation: Hashable, Sendable {
    /// Rows of `records` by key; `nil`: the key has no row.
    package var records: [String: RowExpectation?]?
    /// Query-root fields.
    package var root: RootExpectation?
    /// Rows of `fetches` by operation identity (`Name{"variable":value}`); `nil`: no row.
    package var fetches: [String: FetchExpectation?]?

    package init(records: [String: RowExpectation?]? = nil, root: RootExpectation? = nil, fetches: [String: FetchExpectation?]? = nil) {
        self.records = records
        self.root = root
        self.fetches = fetches
    }
}

/// A row of `records`: cells it holds, cells it does not, whether it is a deletion, its `used`
/// stamp and its cells' field errors.
package struct RowExpectation: Hashable, Sendable {
    /// Storage key → the cell's value in record-source form (`{"__ref": key}` for a link).
    package var cells = JSONObject()
    /// Storage keys the row holds no cell for (`$absent`).
    package var absent: [String] = []
    /// True: the row is a deletion; false: it is not (`$deleted`).
    package var deleted: Bool?
    /// The launch that last wrote or read the row (`$used`).
    package var used: Int?
    /// Storage key → the field errors beside the cell, in order; empty for none (`$errors`).
    package var errors: [String: [FieldErrorExpectation]] = [:]

    package init(cells: JSONObject = [:], absent: [String] = [], deleted: Bool? = nil, used: Int? = nil,
                 errors: [String: [FieldErrorExpectation]] = [:]) {
        self.cells = cells
        self.absent = absent
        self.deleted = deleted
        self.used = used
        self.errors = errors
    }
}

/// The query root's fields, each a row of `root`: values, fields with no row, `used` stamps and
/// field errors, by storage key.
package struct RootExpectation: Hashable, Sendable {
    package var cells = JSONObject()
    package var absent: [String] = []
    package var used: [String: Int] = [:]
    package var errors: [String: [FieldErrorExpectation]] = [:]

    package init(cells: JSONObject = [:], absent: [String] = [], used: [String: Int] = [:],
                 errors: [String: [FieldErrorExpectation]] = [:]) {
        self.cells = cells
        self.absent = absent
        self.used = used
        self.errors = errors
    }
}

/// A field error beside a cell: its message, and when given its path, extensions and other
/// members (`locations`, a server's `type`, as one object).
package struct FieldErrorExpectation: Hashable, Sendable {
    package var message: String
    /// The path as the image keeps it (`character.notes`).
    package var path: String?
    package var extensions: JSONValue?
    package var otherMembers: JSONValue?

    package init(message: String, path: String? = nil, extensions: JSONValue? = nil, otherMembers: JSONValue? = nil) {
        self.message = message
        self.path = path
        self.extensions = extensions
        self.otherMembers = otherMembers
    }
}

/// A row of `fetches`: when the operation was last fetched, and the launch that last used it.
package struct FetchExpectation: Hashable, Sendable {
    package var time: Double?
    package var used: Int?

    package init(time: Double? = nil, used: Int? = nil) {
        self.time = time
        self.used = used
    }
}
