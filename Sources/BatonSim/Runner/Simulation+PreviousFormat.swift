import Baton
import CSQLite

/// A format upgrade (``SimEvent/formatUpgrade``): the image as the build before the current
/// format left it, for the new build's open to move into the current one.
///
/// The previous format is written here from docs/design.md ("Tables", `used`), never through the
/// store's code: row format 6 differs from 7 only in its `used` columns, which held launches
/// themselves, where format 7's hold a launch plus 128 (``Oracle/stampBase``, the constant the
/// model decodes stamps with). So the file is made format 6 by taking 128 from every stamp and
/// marking it 6, in one transaction through the simulated disk (a crash afterwards keeps or
/// loses it whole, and either way the rows mean the same).
extension Simulation {
    /// The tables whose rows carry a `used` stamp.
    nonisolated static let stampedTables = ["records", "root", "fetches", "names"]

    /// Makes the image format 6 when it is a sound format 7 image; answers what it did, for the
    /// trace. A file it cannot make so (none, not ours, damaged, a stamp no launch made, a disk
    /// fault armed for the store, a checkpoint's copy of the WAL beside it) is left as it is: the
    /// launch is then a plain relaunch.
    func makePreviousFormat(index: Int) throws -> String {
        // A full disk's stretch ends with the process that saw it, as a launch ends it.
        if fullDiskEventsLeft > 0 { endFullDisk() }
        guard disk.fileExists(Self.imagePath) else { return "no image to make format 6" }
        // An open of this build died inside its checkpoint and left its copy of the WAL for the
        // next open to put back: no build before this one ever ran on such a file, and a
        // connection here would write over what the copy repairs.
        if disk.fileExists(Self.imagePath + CheckpointCopy.suffix) { return "left format 7 (a checkpoint's copy of the WAL is beside it)" }
        // A fault armed for the store's next write or read must find the store, not this.
        if diskFaultArmed {
            return "left format 7 (a disk fault is armed)"
        }
        // The transaction's WAL draws salts from SQLite's generator: seeded, so a run repeats.
        SimulatedDisk.seedSQLiteRandomness(UInt32(truncatingIfNeeded: disk.seed &+ UInt64(launches) &+ 0xF0F0))
        do throws(SQLiteError) {
            let connection = try Connection.open(path: Self.imagePath, vfs: disk.vfsName, flags: SQLITE_OPEN_READWRITE, door: SQLiteDoor())
            defer { connection.close() }
            guard try connection.scalarInt("PRAGMA application_id") == 0x4254_4E49 else { return "left as it is (not an image)" }
            guard try connection.scalarInt("PRAGMA user_version") == 7 else { return "left as it is (not format 7)" }
            var stamps = 0
            for table in Self.stampedTables {
                let odd = try connection.scalarInt(
                    "SELECT count(*) FROM \(table) WHERE NOT (typeof(used) = 'integer' AND used BETWEEN \(Oracle.stampBase) AND 2147483647)")
                guard odd == 0 else { return "left format 7 (a stamp in \(table) no launch made)" }
                stamps += try connection.scalarInt("SELECT count(*) FROM \(table)") ?? 0
            }
            try connection.execute("BEGIN IMMEDIATE")
            do throws(SQLiteError) {
                for table in Self.stampedTables {
                    try connection.execute("UPDATE \(table) SET used = used - \(Oracle.stampBase)")
                }
                try connection.execute("PRAGMA user_version = 6")
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
            formatUpgrades += 1
            return "made format 6 (\(stamps) stamps)"
        } catch {
            return "left as it is (\(error.message))"
        }
    }
}
