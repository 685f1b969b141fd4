/// The image file's layout: its marks, its tables and the SQL the image runs.
package enum ImageSchema {
    /// `PRAGMA application_id` of every image file: "BTNI" in ASCII.
    package static let applicationID = 0x4254_4E49
    /// `PRAGMA user_version`: the row format (``RowFormat``) a new image gets and an opened one
    /// is marked with. A file of a format outside ``readableRowFormats`` is discarded.
    ///
    /// Version 2 added the checksums of `names` and `fetches` (``TableChecksum``): a damaged name
    /// or fetch time is a miss, as a damaged row always was. Version 3 added the entity links
    /// (tags 10 and 11): a link to `Type:id` keeps the id alone beside the type's name id.
    /// Version 4 added a cell's further errors (tag bit 6): a field keeps every error whose path
    /// names it, where format 3 kept the last. Version 5 added an error's element indices (tag
    /// bit 5): an error explaining a null list element whose failed field lay deeper reads back at
    /// that element. Version 6 added tag 12: a custom scalar's number that no `Int` or `Double`
    /// holds exactly, as its canonical text (format 5 rounded it to the nearest double), and tag
    /// bit 4: an error's other members (`locations`, GitHub's `type`), which format 5 dropped.
    /// Version 7 changed no row: every `used` column holds its launch plus ``stampBase``
    /// (``stamp(ofLaunch:)``), where format 6 held the launch itself.
    package static let rowFormatVersion = 7
    /// The row formats an image is opened with: a format 2 to 6 row reads the same in format 7,
    /// so such a file keeps its rows and is marked 7 when opened, in the generation's
    /// transaction, which also moves its stamps to format 7's (``stampsFormat``).
    package static let readableRowFormats = 2...7
    /// The first format whose `used` columns hold ``stamp(ofLaunch:)``.
    static let stampsFormat = 7

    /// What every `used` column adds to its launch. SQLite stores an integer in as few bytes as
    /// hold it (none for 0 and 1, one up to 127, two up to 32,767, three up to 8,388,607), and
    /// a row that changes size is written again whole, overflow pages included, where one that
    /// keeps its size changes in place. With launches themselves as stamps, launch 2 (1 → 2),
    /// launch 128 and launch 32,768 rewrote every row they read. A stamp of launch + 128 takes
    /// two bytes from the first launch to launch 32,639; a larger base would move that rewrite
    /// further off at a byte per row more (four bytes from 2^23 made the Rick and Morty page's
    /// image 2 KB larger). Launch numbers never leave the file's SQL with the base: everything
    /// outside it speaks of launches.
    package static let stampBase = 128

    /// The `used` value of a row stamped in `launch`.
    @inline(__always)
    package static func stamp(ofLaunch launch: Int) -> Int {
        launch &+ stampBase
    }

    /// The launch a stored `used` value names (negative for a value no launch stamps).
    @inline(__always)
    package static func launch(ofStamp stamp: Int) -> Int {
        stamp &- stampBase
    }

    /// What `used` adds to a launch in a file marked row format `format`: a file from before
    /// ``stampsFormat`` holds launches themselves until a live open moves them (an inspection,
    /// which writes nothing, reads such a file as it is).
    package static func stampBase(ofFormat format: Int) -> Int {
        format >= stampsFormat ? stampBase : 0
    }
    /// `PRAGMA page_size` of a new image. Half SQLite's default: an image's small tables (names,
    /// meta, root, fetches and their indexes) take a page each, and its rows are small, so
    /// smaller pages leave less of the file empty (the Rick and Morty page's image: 152 KB in
    /// 4 KiB pages, 137 KB in 2 KiB). An existing file keeps the page size it was made with.
    package static let pageSize = 2048
    /// How long SQLite waits on a lock held by another process before answering `SQLITE_BUSY`.
    package static let defaultBusyTimeoutMilliseconds = 500
    /// How long opening waits for another process to close the image before running without one.
    package static let defaultLockWaitMilliseconds = 1_000
    /// How many pages the WAL may hold before the writer checkpoints it: SQLite's own default.
    package static let defaultCheckpointPages = 1_000

    /// The tables, by name, exactly as created (SQLite keeps the text; opening compares it).
    package static let tables: [(name: String, sql: String)] = [
        ("fetches", "CREATE TABLE fetches(operation TEXT PRIMARY KEY, used INTEGER NOT NULL, time REAL NOT NULL, crc INTEGER NOT NULL) WITHOUT ROWID"),
        ("meta", "CREATE TABLE meta(key TEXT PRIMARY KEY, value)"),
        ("names", "CREATE TABLE names(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, used INTEGER NOT NULL, crc INTEGER NOT NULL)"),
        ("records", "CREATE TABLE records(key TEXT PRIMARY KEY, used INTEGER NOT NULL, row BLOB NOT NULL) WITHOUT ROWID"),
        ("root", "CREATE TABLE root(field TEXT PRIMARY KEY, used INTEGER NOT NULL, cell BLOB NOT NULL) WITHOUT ROWID"),
    ]

    /// The tables that hold rows that age out, in the order the image deletes from them.
    static let agingTables: [(table: String, key: String)] = [
        ("records", "key"), ("root", "field"), ("fetches", "operation"), ("names", "id"),
    ]

    /// `meta` keys.
    static let generationKey = "generation"
    static let versionKey = "version"

    /// The statements of the hot paths (prepared once, cached by their text).
    enum SQL {
        static let selectRecord = "SELECT used, row FROM records WHERE key = ?1"
        static let selectRoot = "SELECT used, cell FROM root WHERE field = ?1"
        static let selectFetch = "SELECT used, time, crc FROM fetches WHERE operation = ?1"
        static let upsertRecord = """
            INSERT INTO records(key, used, row) VALUES(?1, ?2, ?3) \
            ON CONFLICT(key) DO UPDATE SET used = excluded.used, row = excluded.row
            """
        /// ``upsertRecord`` for a snapshot that merges over the row it replaces: on a conflict the
        /// row is ``RowMergeFunction``'s merge of the stored row and the fresh one, so a missing
        /// key costs one B-tree search and no separate read.
        static let upsertMergedRecord = """
            INSERT INTO records(key, used, row) VALUES(?1, ?2, ?3) \
            ON CONFLICT(key) DO UPDATE SET used = excluded.used, \
            row = \(RowMergeFunction.name)(records.used, records.row, excluded.row)
            """
        /// The launch's eviction from each aging table (``agingTables`` order), below `?1`.
        static let evict = agingTables.map { "DELETE FROM \($0.table) WHERE used < ?1" }
        /// Moves a format 2–6 file's stamps (its launches themselves) to ``stamp(ofLaunch:)``, one
        /// statement per aging table; a value no launch could have stamped is left as it is.
        static let moveStamps = agingTables.map {
            "UPDATE \($0.table) SET used = used + \(stampBase) WHERE used BETWEEN 0 AND \(Int(Int32.max) - stampBase)"
        }
        static let upsertRoot = """
            INSERT INTO root(field, used, cell) VALUES(?1, ?2, ?3) \
            ON CONFLICT(field) DO UPDATE SET used = excluded.used, cell = excluded.cell
            """
        static let upsertFetch = """
            INSERT INTO fetches(operation, used, time, crc) VALUES(?1, ?2, ?3, ?4) \
            ON CONFLICT(operation) DO UPDATE SET used = excluded.used, time = excluded.time, crc = excluded.crc
            """
        /// Adds a name (SQLite picks its id; the checksum, which covers the id, follows in
        /// ``setNameChecksum``) or stamps the row that already holds it; answers the row.
        static let upsertName = """
            INSERT INTO names(name, used, crc) VALUES(?1, ?2, 0) \
            ON CONFLICT(name) DO UPDATE SET used = excluded.used RETURNING id, name, crc
            """
        static let setNameChecksum = "UPDATE names SET crc = ?1 WHERE id = ?2"
        /// Adds a name under the id SQLite would give it (the largest id plus one, from
        /// ``largestNameID``) with its checksum, in one statement; does nothing when the file
        /// holds the name already (``upsertName`` then finds its id).
        static let insertNewName = """
            INSERT INTO names(id, name, used, crc) VALUES(?1, ?2, ?3, ?4) ON CONFLICT(name) DO NOTHING
            """
        static let largestNameID = "SELECT max(id) FROM names"
        static let stampRecord = "UPDATE records SET used = ?1 WHERE key = ?2 AND used <> ?1"
        static let stampRoot = "UPDATE root SET used = ?1 WHERE field = ?2 AND used <> ?1"
        static let stampFetch = "UPDATE fetches SET used = ?1 WHERE operation = ?2 AND used <> ?1"
        static let stampName = "UPDATE names SET used = ?1 WHERE id = ?2 AND used <> ?1"
        static let selectNames = "SELECT id, name, used, crc FROM names ORDER BY id"
        static let selectMeta = "SELECT value FROM meta WHERE key = ?1"
        /// Counts a launch: the generation plus one, answered.
        static let bumpGeneration = "UPDATE meta SET value = value + 1 WHERE key = ?1 RETURNING value"
        static let setMeta = "INSERT INTO meta(key, value) VALUES(?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
    }
}
