/// Page 1 of a SQLite database, read from its bytes: the 100-byte file header and the root page
/// of `sqlite_schema`.
///
/// Read before SQLite opens the file, so that a database that is not ours is classified without a
/// single byte of it (or of its journal, WAL or shared memory) being written. The fields and the
/// checks follow SQLite's file format document ("Database File Format", section 1.3).
struct DatabasePageOne {
    /// The page's bytes: at least the header's 100, the whole page when the file had them.
    let bytes: [UInt8]
    /// How many pages the database has, as its files say (the WAL's last commit, else the
    /// database file's size); 0 when unknown.
    var databasePages = 0

    static let headerSize = 100
    private static let magic = Array("SQLite format 3".utf8) + [0]

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= Self.headerSize else { return nil }
        self.bytes = bytes
    }

    /// True when the file starts with SQLite's magic string.
    var hasMagic: Bool { bytes.starts(with: Self.magic) }

    /// The page size the header gives, when it is one SQLite accepts (a power of two, 512…65536).
    var pageSize: Int? {
        let raw = bytes.bigEndian16(at: 16)
        let size = raw == 1 ? 65_536 : raw
        guard size >= 512, size <= 65_536, size & (size - 1) == 0 else { return nil }
        return size
    }

    /// `PRAGMA application_id`: offset 68, big-endian.
    var applicationID: Int { Int(bytes.bigEndian32(at: 68)) }

    /// `PRAGMA user_version`: offset 60, a big-endian signed 32-bit integer.
    var userVersion: Int { Int(Int32(bitPattern: bytes.bigEndian32(at: 60))) }

    /// The bytes at the end of each page that SQLite leaves to extensions (offset 20).
    var reservedBytes: Int { Int(bytes[20]) }

    /// Why SQLite would refuse this header, or could not write through it; `nil` when it would not.
    ///
    /// Every header field SQLite checks when it reads page 1 or loads the schema: a page size it
    /// cannot use; a read version above 2 (refused) or a write version above 2 (opened read-only,
    /// so every write fails); too many reserved bytes; payload fractions other than 64, 32 and 32;
    /// a schema format above 4 (SQLite reads only the low byte of that field); a text encoding
    /// other than UTF-8 (the image's text would be misread). With `strict` (a file that says it is
    /// an image), also what an image never writes: auto-vacuum fields that are not zero, and a
    /// free-page list whose first trunk page and count disagree or lie outside the database (SQLite
    /// trusts both until it next needs a free page). An image may be in rollback mode: SQLite
    /// falls back to it when it cannot open a WAL, and the next open switches it to WAL again.
    func refusal(strict: Bool) -> String? {
        guard hasMagic else { return "no SQLite header" }
        guard let pageSize else { return "page size \(bytes.bigEndian16(at: 16))" }
        let writeVersion = bytes[18]
        let readVersion = bytes[19]
        guard (1...2).contains(writeVersion), (1...2).contains(readVersion) else {
            return "file format versions \(writeVersion), \(readVersion)"
        }
        guard pageSize - reservedBytes >= 480 else { return "\(reservedBytes) reserved bytes per page" }
        guard bytes[21] == 64, bytes[22] == 32, bytes[23] == 32 else { return "payload fractions" }
        guard bytes[47] <= 4 else { return "schema format \(bytes[47])" }
        guard bytes[59] & 3 <= 1 else { return "text encoding \(bytes[59] & 3)" }
        if strict {
            guard bytes.bigEndian32(at: 52) == 0, bytes.bigEndian32(at: 64) == 0 else { return "auto-vacuum fields" }
            let trunk = Int(bytes.bigEndian32(at: 32))
            let freePages = Int(bytes.bigEndian32(at: 36))
            guard (trunk == 0) == (freePages == 0), trunk != 1 else { return "free-page list" }
            if databasePages > 0, trunk > databasePages || freePages >= databasePages { return "free-page list" }
        }
        return nil
    }

    // MARK: The schema's root page

    /// One row of `sqlite_schema`.
    struct SchemaRow: Equatable {
        var type: String
        var name: String
        var sql: String?
    }

    /// Every row of `sqlite_schema` when page 1 holds all of them (a leaf page, no overflow);
    /// `nil` when the schema cannot be read from page 1 alone or its bytes do not parse.
    var schemaRows: [SchemaRow]? {
        guard let pageSize, bytes.count >= pageSize else { return nil }
        let usable = pageSize - reservedBytes
        let header = Self.headerSize
        guard usable >= 480, bytes[header] == 0x0D else { return nil }
        let cellCount = bytes.bigEndian16(at: header + 3)
        guard header + 8 + 2 * cellCount <= usable else { return nil }
        var rows: [SchemaRow] = []
        for index in 0..<cellCount {
            let offset = bytes.bigEndian16(at: header + 8 + 2 * index)
            guard let row = schemaRow(at: offset, usable: usable) else { return nil }
            rows.append(row)
        }
        return rows
    }

    /// True when page 1 says the schema has no rows at all: a database nothing was created in.
    var schemaIsEmpty: Bool {
        guard bytes.count > Self.headerSize + 4 else { return false }
        return bytes[Self.headerSize] == 0x0D && bytes.bigEndian16(at: Self.headerSize + 3) == 0
    }

    /// The tables of the schema, sorted by name, when page 1 holds the whole schema.
    var tables: [SchemaRow]? {
        schemaRows.map { rows in
            rows.filter { $0.type == "table" }.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        }
    }

    /// True when the schema's tables are exactly an image's (names and `CREATE` text).
    var hasImageTables: Bool {
        guard let tables else { return false }
        return Self.areImageTables(tables)
    }

    /// True when `tables` (``tables``, read once by a caller that needs them twice) are exactly
    /// an image's.
    static func areImageTables(_ tables: [SchemaRow]) -> Bool {
        tables.count == ImageSchema.tables.count
            && zip(tables, ImageSchema.tables).allSatisfy { $0.name == $1.name && $0.sql == $1.sql }
    }

    /// Decodes the table-leaf cell at `offset`: payload size, rowid, then a record of five columns.
    private func schemaRow(at offset: Int, usable: Int) -> SchemaRow? {
        var cursor = offset
        guard cursor < usable, let payload = varint(&cursor), varint(&cursor) != nil else { return nil }
        // A payload larger than a page keeps its tail on overflow pages: not readable from page 1.
        guard payload <= UInt64(usable - 35), cursor + Int(payload) <= usable else { return nil }
        let end = cursor + Int(payload)
        let recordStart = cursor
        guard let headerLength = varint(&cursor), headerLength <= payload else { return nil }
        let headerEnd = recordStart + Int(headerLength)
        var types: [UInt64] = []
        while cursor < headerEnd {
            guard let type = varint(&cursor) else { return nil }
            types.append(type)
        }
        guard cursor == headerEnd, types.count >= 5 else { return nil }
        var values: [String?] = []
        for type in types {
            guard let length = Self.valueLength(type), cursor + length <= end else { return nil }
            if type >= 13, type % 2 == 1 {
                values.append(String(validating: bytes[cursor..<cursor + length], as: UTF8.self))
            } else {
                values.append(nil)
            }
            cursor += length
        }
        guard let type = values[0], let name = values[1] else { return nil }
        return SchemaRow(type: type, name: name, sql: values[4])
    }

    /// The length of a record value of serial type `type`; `nil` for the reserved types.
    private static func valueLength(_ type: UInt64) -> Int? {
        switch type {
        case 0, 8, 9: 0
        case 1...4: Int(type)
        case 5: 6
        case 6, 7: 8
        case 10, 11: nil
        default: type > 1 << 32 ? nil : Int((type - 12) / 2)
        }
    }

    /// A SQLite varint (big-endian groups of seven bits, the ninth byte whole) at `cursor`.
    private func varint(_ cursor: inout Int) -> UInt64? {
        var value: UInt64 = 0
        for index in 0..<9 {
            guard cursor < bytes.count else { return nil }
            let byte = bytes[cursor]
            cursor += 1
            if index == 8 { return value << 8 | UInt64(byte) }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte < 0x80 { return value }
        }
        return value
    }
}
