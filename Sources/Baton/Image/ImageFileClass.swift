/// What a file at the image's path turned out to be.
enum ImageFileClass: Equatable {
    /// No database yet (no file, an empty file, or a database with no schema): initialize it.
    case empty
    /// A database of someone else: leave it, and every file beside it, byte for byte untouched.
    case foreign
    /// Ours, in the current row format, with our tables.
    case ours
    /// Unusable: delete it (WAL, shared memory and journal first) and start again.
    case discard(ImageDiscardReason)

    /// Classifies a file from its bytes (``ImageFileProbe``), before SQLite opens it.
    ///
    /// - No file, or an empty one: empty, unless a hot journal says the database had pages
    ///   before a transaction that emptied it (then it is someone's: foreign; an image's own, its
    ///   page 1 in the journal bearing our application id: discarded as corrupt).
    /// - Fewer bytes than a header, or no SQLite magic: garbage, discarded.
    /// - Our application id: ours, unless the header is one SQLite refuses or an image never
    ///   has (discarded as corrupt), or the row format differs (discarded as another format).
    /// - Any other mark, or none, over exactly an image's tables: an image whose mark was
    ///   damaged, discarded as corrupt.
    /// - Another application id: foreign. No application id and a schema: foreign. No
    ///   application id and no schema: empty (a hot journal that held someone's page 1: foreign;
    ///   an image's page 1: discarded as corrupt).
    static func classify(_ probe: ImageFileProbe) -> ImageFileClass {
        guard let page = probe.pageOne else {
            if probe.size > 0 { return .discard(.notADatabase) }
            if let journal = probe.journal, journal.originalPageCount > 0 {
                return journal.heldAnImage ? .discard(.corrupt) : .foreign
            }
            return .empty
        }
        guard page.hasMagic else { return .discard(.notADatabase) }
        if page.applicationID == ImageSchema.applicationID {
            if page.refusal(strict: true) != nil { return .discard(.corrupt) }
            if !ImageSchema.readableRowFormats.contains(page.userVersion) { return .discard(.otherRowFormat(page.userVersion)) }
            // Page 1 usually holds the whole schema; SQLite checks it again when it does not.
            if let tables = page.tables, !DatabasePageOne.areImageTables(tables) { return .discard(.corrupt) }
            return .ours
        }
        if page.hasImageTables { return .discard(.corrupt) }
        if page.applicationID != 0 || !page.schemaIsEmpty { return .foreign }
        if let journal = probe.journal, journal.originalPageCount > 0 {
            if journal.heldAnImage { return .discard(.corrupt) }
            guard let original = journal.originalPageOne.flatMap(DatabasePageOne.init), original.hasMagic,
                  original.applicationID == 0, original.schemaIsEmpty
            else { return .foreign }
        }
        return page.refusal(strict: false) == nil ? .empty : .discard(.corrupt)
    }

    // MARK: From SQLite

    /// The facts a read-write handle reads back once the file is known to be ours or empty.
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

    /// Classifies a file from what SQLite reads of it (the check behind the byte-level one).
    ///
    /// Another application id: foreign. No application id: empty when the schema is empty, else
    /// foreign (someone's database). Ours with a `user_version` outside the readable formats: discard. Ours with tables
    /// that differ from ``ImageSchema/tables`` (by name or text): discard as corrupt.
    static func classify(_ facts: Facts) -> ImageFileClass {
        if isForeign(applicationID: facts.applicationID) { return .foreign }
        if facts.applicationID == 0 {
            return facts.schema.isEmpty ? .empty : .foreign
        }
        guard ImageSchema.readableRowFormats.contains(facts.userVersion) else {
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
