/// What a file at the image's path turned out to be, from what SQLite could read of it.
enum ImageFileClass: Equatable {
    /// An empty database (no schema at all, no application id): initialize it.
    case empty
    /// A database of someone else: leave it byte for byte untouched.
    case foreign
    /// Ours, in the current row format, with our tables.
    case ours
    /// Unusable: delete it (WAL and SHM first) and start again.
    case discard(ImageDiscardReason)

    /// The facts opening reads, in this order, before writing anything.
    struct Facts: Equatable {
        var applicationID: Int
        var userVersion: Int
        /// Every object of `sqlite_schema` as (type, name, sql), ordered by name.
        var schema: [SchemaObject]
    }

    struct SchemaObject: Equatable {
        var type: String
        var name: String
        var sql: String?
    }

    /// True when `applicationID` alone says the file belongs to someone else.
    static func isForeign(applicationID: Int) -> Bool {
        applicationID != 0 && applicationID != ImageSchema.applicationID
    }

    /// Classifies a file from its facts.
    ///
    /// Another application id: foreign. No application id: empty when the schema is empty, else
    /// foreign (someone's database). Ours with another `user_version`: discard. Ours with tables
    /// that differ from ``ImageSchema/tables`` (by name or text): discard as corrupt.
    static func classify(_ facts: Facts) -> ImageFileClass {
        if isForeign(applicationID: facts.applicationID) { return .foreign }
        if facts.applicationID == 0 {
            return facts.schema.isEmpty ? .empty : .foreign
        }
        guard facts.userVersion == ImageSchema.rowFormatVersion else {
            return .discard(.otherRowFormat(facts.userVersion))
        }
        let tables = facts.schema.filter { $0.type == "table" }
        let expected = ImageSchema.tables
        guard tables.count == expected.count,
              zip(tables, expected).allSatisfy({ $0.name == $1.name && $0.sql == $1.sql })
        else { return .discard(.corrupt) }
        return .ours
    }
}
