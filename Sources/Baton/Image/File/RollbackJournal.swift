/// A rollback journal beside a database, read from its bytes: what the database was before the
/// transaction the journal can undo.
///
/// A journal that starts with SQLite's journal magic may be hot: the next connection that reads
/// the database rolls the transaction back, writing the database file. A foreign database with
/// such a journal must not be handed to SQLite at all, and when page 1 in the database file was
/// already overwritten by that transaction, the page as it was (in the journal) is what says whose
/// database it is. Layout from the file format document, section 3: a header padded to the
/// sector size, then records of a page number, the page's original content and a checksum.
struct RollbackJournal {
    /// The database's size in pages before the transaction: 0 when it was empty.
    var originalPageCount: Int
    /// Page 1 before the transaction, when the journal's first segment holds it.
    var originalPageOne: [UInt8]?

    private static let magic: [UInt8] = [0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7]

    /// True when page 1 before the transaction was an image's (our application id): the
    /// transaction was an image's, so the file is ours, left in a state no open of ours makes
    /// (an image commits through its WAL), and is started again rather than kept as foreign.
    var heldAnImage: Bool {
        guard let original = originalPageOne.flatMap(DatabasePageOne.init), original.hasMagic else { return false }
        return original.applicationID == ImageSchema.applicationID
    }

    /// Reads `file`; `nil` when it holds no journal SQLite would roll back (empty, truncated,
    /// or its header zeroed as `journal_mode=PERSIST` leaves it).
    static func read(_ file: VFSFile) throws(SQLiteError) -> RollbackJournal? {
        let header = try file.read(28, at: 0)
        guard header.count == 28, header.starts(with: magic) else { return nil }
        let recordCount = header.bigEndian32(at: 8)
        let originalPageCount = Int(header.bigEndian32(at: 16))
        let sectorSize = Int(header.bigEndian32(at: 20))
        let pageSize = Int(header.bigEndian32(at: 24))
        var journal = RollbackJournal(originalPageCount: originalPageCount, originalPageOne: nil)
        guard pageSize >= 512, pageSize <= 65_536, pageSize & (pageSize - 1) == 0,
              sectorSize >= 32, sectorSize <= 65_536, sectorSize & (sectorSize - 1) == 0
        else { return journal }
        let recordSize = 4 + pageSize + 4
        let fits = max(0, (file.size - sectorSize) / recordSize)
        let records = recordCount == 0 || recordCount == 0xFFFF_FFFF ? fits : min(fits, Int(recordCount))
        for index in 0..<records {
            let offset = sectorSize + index * recordSize
            let number = try file.read(4, at: offset)
            guard number.count == 4 else { break }
            if number.bigEndian32(at: 0) == 1 {
                journal.originalPageOne = try file.read(pageSize, at: offset + 4)
                break
            }
        }
        return journal
    }
}
