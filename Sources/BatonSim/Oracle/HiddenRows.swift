/// The rows a launch found hidden: they verify, but use a name whose checksum fails, so they
/// cannot be decoded; their `used` column, outside the row's checksum, still reads.
///
/// Two states a crash may return to can differ only in such a row's stamp (a quit stamped the
/// rows a check read, and the power went before or after that reached the platter). The stamp
/// decides whether the launch's eviction keeps the row, so the model must land on the state
/// whose stamps are the file's (seed 845481992 of the default world at 2,000 events: the model
/// chose the older stamp, aged the row out of what it keeps aside, and refused the next launch,
/// which found the row still hidden in the file).
package struct HiddenRows: Sendable, Equatable {
    /// The hidden rows' keys, by table.
    package let damage: ImageDamage
    /// Each hidden record row's and root cell's `used` stamp, as a launch.
    private var stamps: [ImageDamage.Table: [OracleText: Int]] = [:]

    package init(_ problems: [ImageDecodeProblem.Entry] = []) {
        damage = ImageDamage(problems)
        for problem in problems {
            guard let table = ImageDamage.Table(rawValue: problem.table), let used = problem.used else { continue }
            stamps[table, default: [:]][OracleText(problem.key)] = used
        }
    }

    package var isEmpty: Bool { damage.isEmpty }

    /// The hidden keys of `table`.
    package func keys(in table: ImageDamage.Table) -> Set<OracleText> { damage.keys(in: table) }

    /// True when `state` holds every hidden row of `records` and `root` that `keptAside` does not
    /// hold, each with the stamp the file's row has.
    package func held(by state: OracleImage, keptAside: OracleImage) -> Bool {
        for key in keys(in: .records) where keptAside.records[key] == nil {
            guard let row = state.records[key], stamps[.records]?[key].map({ $0 == row.used }) ?? true else { return false }
        }
        for key in keys(in: .root) where keptAside.root[key] == nil {
            guard let cell = state.root[key], stamps[.root]?[key].map({ $0 == cell.used }) ?? true else { return false }
        }
        return true
    }

    /// What ``held(by:keptAside:)`` finds wrong with `state`, one line per row, for a report.
    package func differences(from state: OracleImage, keptAside: OracleImage) -> [String] {
        var lines: [String] = []
        func compare(_ key: OracleText, _ table: ImageDamage.Table, kept: Bool, stateStamp: Int?) {
            guard !kept else { return }
            let stamp = stamps[table]?[key]
            let what = "\(table == .records ? "record" : "root field") \(key), hidden by a damaged name"
            let fileSide = "the file holds it" + (stamp.map { " stamped \($0)" } ?? "")
            guard let stateStamp else { return lines.append("\(what): \(fileSide), the state does not") }
            if let stamp, stamp != stateStamp { lines.append("\(what): \(fileSide), the state stamped \(stateStamp)") }
        }
        for key in keys(in: .records).sorted() {
            compare(key, .records, kept: keptAside.records[key] != nil, stateStamp: state.records[key]?.used)
        }
        for key in keys(in: .root).sorted() {
            compare(key, .root, kept: keptAside.root[key] != nil, stateStamp: state.root[key]?.used)
        }
        return lines
    }
}
