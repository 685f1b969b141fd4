/// Checks the file's structure once damage has shown, to tell a damaged row from a damaged file.
///
/// A row, root cell, name or fetch time that fails its checksum is a miss either way. But it may
/// be a flipped bit in that row alone, or a sign that SQLite is misreading a damaged b-tree
/// without noticing (cells moved between pages, keys out of order), in which case later writes
/// can land where no read finds them. `PRAGMA integrity_check` tells the two apart; a file it
/// finds corrupt is started again, like any file SQLite calls corrupt. It runs once per launch
/// and only after damage showed, so an undamaged image never pays for it.
///
/// A check that could not read a page (an I/O error, a busy or locked file, no memory) found
/// nothing either way: the file is kept, and the next damage a read of this launch meets checks
/// again.
/// `integrity_check` reports such a page as one of its findings ("unable to get the page. error
/// code=10"), not as an error of its own, so its report is read for them. Until 2026-12-05 any
/// finding counted, and a read that failed during the check started a sound file again, every
/// row lost (BatonSim: seed 295 of the decision record's operations, a read fault armed while a
/// check met a rotted row; the `failedStructureReadDiscards` mutant).
enum ImageStructureCheck {
    /// What a check found.
    enum Verdict: Equatable {
        case sound
        case damaged
        /// The check could not read the whole file.
        case unknown
    }

    /// Runs `PRAGMA integrity_check(1)` and reads its verdict. An error is damage only when
    /// SQLite calls the file corrupt or not a database.
    static func check(_ connection: Connection, rules: ImageRules) -> Verdict {
        let report: String
        do throws(SQLiteError) {
            report = try connection.scalarText("PRAGMA integrity_check(1)") ?? ""
        } catch {
            if rules.failedStructureReadDiscards { return error.isTransient ? .unknown : .damaged }
            return error.meansUnreadableFile ? .damaged : .unknown
        }
        if report == "ok" { return .sound }
        if rules.failedStructureReadDiscards { return .damaged }
        return reportsUnreadablePage(report) ? .unknown : .damaged
    }

    /// True when SQLite finds the file's structure damaged.
    static func findsDamage(_ connection: Connection, rules: ImageRules) -> Bool {
        check(connection, rules: rules) == .damaged
    }

    /// After a read: when it met damage and no check this launch has given a verdict yet, checks
    /// now; true when the file must be started again.
    static func afterRead(_ state: ImageState, _ connection: Connection) -> Bool {
        guard state.damageSeen, !state.structureChecked else { return false }
        let verdict = check(connection, rules: state.rules)
        // Without a verdict, the next damage a read meets asks again (not every read after).
        if verdict == .unknown { state.damageSeen = false } else { state.structureChecked = true }
        return verdict == .damaged
    }

    /// Whether an `integrity_check` finding says a page could not be read rather than that it is
    /// wrong: SQLite's wording for a page its pager failed to get (with a result code other than
    /// `SQLITE_CORRUPT`, which it also gives for a page number past the file's end), a list page
    /// it failed to get, or a pointer-map entry it failed to read.
    static func reportsUnreadablePage(_ report: String) -> Bool {
        if report.contains("failed to get page") || report.contains("Failed to read ptrmap key=") { return true }
        guard let marker = report.range(of: "unable to get the page. error code=") else { return false }
        let digits = report[marker.upperBound...].prefix { $0.isASCII && $0.isNumber }
        guard let code = Int32(digits) else { return false }
        return code & 0xFF != SQLiteResultCode.corrupt.rawValue
    }
}
