/// Checks the file's structure once damage has shown, to tell a damaged row from a damaged file.
///
/// A row, root cell, name or fetch time that fails its checksum is a miss either way. But it may
/// be a flipped bit in that row alone, or a sign that SQLite is misreading a damaged b-tree
/// without noticing (cells moved between pages, keys out of order), in which case later writes
/// can land where no read finds them. `PRAGMA quick_check` tells the two apart; a file it finds
/// corrupt is started again, like any file SQLite calls corrupt. It runs at most once per launch
/// and only after damage showed, so an undamaged image never pays for it.
enum ImageStructureCheck {
    /// True when SQLite finds the file's structure damaged (or cannot even run the check).
    static func findsDamage(_ connection: Connection) -> Bool {
        do throws(SQLiteError) {
            return try connection.scalarText("PRAGMA integrity_check(1)") != "ok"
        } catch {
            return !error.isTransient
        }
    }

    /// After a read: when it met damage and this launch has not checked yet, checks now; true
    /// when the file must be started again.
    static func afterRead(_ state: ImageState, _ connection: Connection) -> Bool {
        guard state.damageSeen, !state.structureChecked else { return false }
        state.structureChecked = true
        return findsDamage(connection)
    }
}
