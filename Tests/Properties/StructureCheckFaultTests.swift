import BatonSim
import CSQLite
import Testing

@testable import Baton

/// The structure check after a read met damage (`integrity_check`): a page it cannot read is no
/// finding, so a sound file is kept; only what SQLite calls corrupt starts the file again.
@Suite("Structure check: a page it cannot read is no sign of damage")
struct StructureCheckFaultTests {
    /// A sound database of several pages on a simulated disk, closed, and a fresh connection to
    /// it with a cold cache: the check must read the file.
    static func soundFile(seed: UInt64) throws -> (SimulatedDisk, Connection) {
        let disk = SimulatedDisk(seed: seed)
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let writer = try Connection.open(path: "sound.db", vfs: disk.vfsName, flags: flags, door: SQLiteDoor())
        try writer.execute("CREATE TABLE records(key TEXT PRIMARY KEY, row BLOB NOT NULL) WITHOUT ROWID")
        try writer.execute("CREATE TABLE names(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
        try writer.execute("BEGIN")
        for index in 0..<200 {
            try writer.execute("INSERT INTO records VALUES('Character:\(index)', randomblob(60))")
            try writer.execute("INSERT INTO names(name) VALUES('field\(index)')")
        }
        try writer.execute("COMMIT")
        writer.close()
        let reader = try Connection.open(path: "sound.db", vfs: disk.vfsName, flags: flags, door: SQLiteDoor())
        return (disk, reader)
    }

    @Test("a read that fails during the check gives no verdict; the same file checks sound after", arguments: [
        SimulatedDisk.Code.ioErrRead, SimulatedDisk.Code.busy, SimulatedDisk.Code.ioErr,
    ])
    func failedReadIsNoFinding(code: Int32) throws {
        let (disk, connection) = try Self.soundFile(seed: 40)
        defer { connection.close() }
        // The schema is read first; the fault lands on a page of a table the check walks.
        _ = try connection.scalarText("SELECT count(*) FROM sqlite_schema")
        disk.fail(.read, code: code, skipping: 2)
        #expect(ImageStructureCheck.check(connection, rules: .production) == .unknown)
        #expect(disk.counters.injectedFaults == 1)
        #expect(ImageStructureCheck.check(connection, rules: .production) == .sound)
    }

    @Test("under the failedStructureReadDiscards mutant the same failed read finds the file corrupt")
    func mutantDiscards() throws {
        let (disk, connection) = try Self.soundFile(seed: 41)
        defer { connection.close() }
        _ = try connection.scalarText("SELECT count(*) FROM sqlite_schema")
        disk.fail(.read, code: SimulatedDisk.Code.ioErrRead, skipping: 2)
        var rules = ImageRules.production
        rules.failedStructureReadDiscards = true
        #expect(ImageStructureCheck.check(connection, rules: rules) == .damaged)
    }

    @Test("a finding that a page could not be read is told from damage by SQLite's own wording")
    func wording() {
        let unreadable = [
            "*** in database main ***\nTree 3 page 3: unable to get the page. error code=266",
            "Tree 2 page 5: unable to get the page. error code=5",
            "Freelist: failed to get page 9",
        ]
        let damaged = [
            "Tree 3 page 3: unable to get the page. error code=11",
            "Tree 3 page 3: unable to get the page. error code=267",
            "row 5 missing from index sqlite_autoindex_names_1",
            "Tree 2 page 2 cell 0: Rowid 9 out of order",
            "Page 4: never used",
        ]
        for report in unreadable { #expect(ImageStructureCheck.reportsUnreadablePage(report), "\(report)") }
        for report in damaged { #expect(!ImageStructureCheck.reportsUnreadablePage(report), "\(report)") }
    }
}
